// Cross-origin access for web pages (CORS, [cors] origins): which origins may call the API, the
// answer to a browser's preflight, and the headers that let a page read an answer. They are added
// after the response cache, so a cached answer never carries another origin's headers.
#pragma once

#include "cal/api/pipeline/routes.h"
#include "cal/core/config.h"
#include "cal/http/request.h"

namespace cal {

// What the configured origins grant the request's Origin header.
enum class CorsGrant {
  kNone,    // no Origin, or one not listed (and no "*"): no CORS header at all
  kPublic,  // only through "*": reads without credentials
  kListed,  // a listed origin: every method, with credentials
};

CorsGrant cors_grant(const Config& config, const Request& request);

// Whether the request is a browser's preflight: OPTIONS with Origin and
// Access-Control-Request-Method.
bool is_preflight(const Request& request);

// The 204 answer to a granted preflight on `route`: the route's methods (reads only for
// kPublic), the request headers the API reads, and how long the browser may keep the answer.
Response preflight_response(const Route& route, CorsGrant grant);

// Adds Access-Control-Allow-Origin, -Allow-Credentials and -Expose-Headers for a granted origin.
void add_cors_headers(const Config& config, const Request& request, Response& response);

// "Accept-Language", plus ", Origin" when CORS is configured: every answer then depends on Origin.
const char* vary_header(const Config& config);

}  // namespace cal
