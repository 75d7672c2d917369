// multipart/form-data request bodies (RFC 7578), as browsers send a FormData: its fields become
// the same neutral shape as a urlencoded form (cal/http/input.h). There is no upload route, so a
// file part is an error naming its field. A pure function, so fuzzers and unit tests call it.
#pragma once

#include <rapidjson/document.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cal {

// The boundary parameter of a Content-Type value (`multipart/form-data; boundary="x"`), quoted or
// not; nullopt when absent or not 1 to 70 characters (RFC 2046).
std::optional<std::string> multipart_boundary(std::string_view content_type);

enum class MultipartError { kNone, kMalformed, kFile };

struct MultipartResult {
  MultipartError error = MultipartError::kNone;
  std::string field;  // kFile: the name of the (first) file part
};

// Parses `body` into members of `out` (made an object), field names with brackets as in
// parse_form. Part names are taken as browsers write them (`%22`, `%0D`, `%0A` stand for `"`,
// CR, LF); values as sent. Names whose value is not valid UTF-8 go to `invalid_names`. A part
// with a `filename` is kFile; a body without a closing delimiter, a part without headers'
// end or without `Content-Disposition: form-data; name=...` is kMalformed. On an error `out`
// holds nothing.
MultipartResult parse_multipart(std::string_view body, std::string_view boundary, rapidjson::Document& out,
                                std::vector<std::string>& invalid_names);

}  // namespace cal
