// Strong entity tags for conditional GET: a hash of the exact response body, so a
// tag can never match a changed response.
#pragma once

#include <string>
#include <string_view>

namespace cal {

// "\"<32 hex digits>\"": XXH3-128 of the body (its canonical, big-endian form), quoted as RFC
// 9110 requires.
std::string strong_etag(std::string_view body);

// Whether an If-None-Match header value names `etag` (a comma list, "*", or weak W/ forms,
// which match by their opaque part as RFC 9110 says for If-None-Match).
bool if_none_match(std::string_view header, std::string_view etag);

// Whether an If-Match header value (RFC 9110 §13.1.1) holds "*": any current record matches.
bool if_match_any(std::string_view header);
// Whether an If-Match header value names `etag` by strong comparison: a weak tag (W/"...")
// never matches, since If-Match guards writes.
bool if_match(std::string_view header, std::string_view etag);

}  // namespace cal
