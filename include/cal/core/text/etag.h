// Strong entity tags for conditional GET (issue 8): a hash of the exact response body, so a
// tag can never match a changed response.
#pragma once

#include <string>
#include <string_view>

namespace cal {

// "\"<32 hex digits>\"": BLAKE2b-128 of the body, quoted as RFC 9110 requires.
std::string strong_etag(std::string_view body);

// Whether an If-None-Match header value names `etag` (a comma list, "*", or weak W/ forms,
// which match by their opaque part as RFC 9110 says for If-None-Match).
bool if_none_match(std::string_view header, std::string_view etag);

}  // namespace cal
