// The headers of every answer, whatever route it comes from: the common ones (Content-Language,
// Vary, X-Content-Type-Options, WordPress's discovery Link), built from the REST root and site URL
// the records' URLs use too, and HTTP caching by clients and proxies (Cache-Control, a strong ETag
// on every 200 GET/HEAD, 304 Not Modified for a matching If-None-Match). Used by router.cpp and
// response_cache_use.cpp (a cached answer is made conditional like a computed one).
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/core/config.h"
#include "cal/core/i18n/i18n.h"
#include "cal/http/request.h"

#include <string>

namespace cal {

// The REST root and site URL: configured, or the request's scheme, host and mount point.
struct BaseUrls {
  std::string rest_root;
  std::string site_url;
};

BaseUrls base_urls(const Request& request, const Config& config);

// Sets ctx.rest_root and ctx.site_url.
void fill_urls(const Request& request, const Config& config, RequestContext& ctx);

// Adds the headers every answer has, in `locale`.
void add_common_headers(const Request& request, const Config& config, const Locale& locale,
                        Response& response);

// Sets Cache-Control (visitors' responses may be stored but must be revalidated; authenticated
// ones are never stored) and, on a 200 GET/HEAD (`method` upper-case), a strong ETag of the
// exact body. Returns the ETag ("" when none).
std::string apply_caching(const std::string& method, bool authenticated, Response& response);

// Turns `response` into the 304 answer (no body) when the request's If-None-Match matches `etag`;
// applied after the response may have been cached.
void apply_conditional(const Request& request, const std::string& etag, Response& response);

}  // namespace cal
