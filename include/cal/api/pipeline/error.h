// The one exception type for client-visible errors, and the builders of the errors many places
// raise (src/api/pipeline/error.cpp), so their codes and messages stay the same everywhere. Code
// that detects a client error throws it; the router catches it in exactly one place and renders
// docs/api.md §2.
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
  std::string code;     // e.g. "rest_invalid_param"
  std::string message;  // already localized
  // Optional extras rendered into `data`:
  std::map<std::string, std::string> param_messages;  // data.params as an object (invalid params)
  std::vector<std::string> param_names;               // data.params as an array (missing params)
  std::optional<long long> term_id;                   // data.term_id (term_exists)
  std::optional<long long> line;                      // data.line (rest_invalid_ical: the body's line)
  std::optional<long long> vevent;                    // data.vevent, data.uid: the VEVENT (1-based) of
  std::optional<std::string> uid;                     // an iCalendar import that was refused
  int retry_after = 0;                                // Retry-After header, seconds (503, 429)
  std::vector<std::string> allow;                     // Allow header (405)
};

// Thrown by a handler answering on a read replica for a read only the primary can answer (one
// that must write first, e.g. extend a recurring series): the request runs again on the primary
// (src/api/pipeline/replica_reads.cpp). Never thrown on the primary's connection.
struct PrimaryNeeded {
  std::string reason;
};

struct Locale;
struct RequestContext;

// 400 rest_invalid_param "Invalid parameter(s): a, b" with data.params = `messages` (name →
// already localized detail), names in the map's order.
ApiError invalid_params(const Locale& locale, std::map<std::string, std::string> messages);
// The same for the one parameter `param`.
ApiError invalid_param(const Locale& locale, const std::string& param, const std::string& message);
ApiError invalid_param(const RequestContext& ctx, const std::string& param, const std::string& message);

// rest_forbidden "Sorry, you are not allowed to do that.": 401 when no one is logged in (the
// router's checks), 403 when the caller lacks the right.
ApiError forbidden(const Locale& locale, int status = 403);
ApiError forbidden(const RequestContext& ctx);

}  // namespace cal
