// The one exception type for client-visible errors. Code that detects a client error throws it;
// the router catches it in exactly one place and renders SPEC §2.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cal {

struct ApiError {
  ApiError(int status_code, std::string error_code, std::string error_message)
      : status(status_code), code(std::move(error_code)), message(std::move(error_message)) {}

  int status = 400;
  std::string code;       // e.g. "rest_invalid_param"
  std::string message;    // already localized
  // Optional extras rendered into `data`:
  std::map<std::string, std::string> param_messages;  // data.params as an object (invalid params)
  std::vector<std::string> param_names;               // data.params as an array (missing params)
  std::optional<long long> term_id;                   // data.term_id (term_exists)
  int retry_after = 0;                                // Retry-After header, seconds (503, 429)
  std::vector<std::string> allow;                     // Allow header (405)
};

}  // namespace cal
