// HTTP caching of answers by clients and proxies: Cache-Control, a strong ETag on every
// 200 GET/HEAD, and 304 Not Modified for a matching If-None-Match. Used by router.cpp and
// response_cache_use.cpp (a cached answer is made conditional like a computed one).
#pragma once

#include "cal/http/request.h"

#include <string>

namespace cal {

// Sets Cache-Control (visitors' responses may be stored but must be revalidated; authenticated
// ones are never stored) and, on a 200 GET/HEAD (`method` upper-case), a strong ETag of the
// exact body. Returns the ETag ("" when none).
std::string apply_caching(const std::string& method, bool authenticated, Response& response);

// Turns `response` into the 304 answer (no body) when the request's If-None-Match matches `etag`;
// applied after the response may have been cached.
void apply_conditional(const Request& request, const std::string& etag, Response& response);

}  // namespace cal
