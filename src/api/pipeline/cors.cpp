// CORS (see cors.h).
#include "api/pipeline/cors.h"

#include "cal/core/text/ascii.h"

#include <algorithm>
#include <string>

namespace cal {
namespace {

// The request headers the API reads; Authorization is for listed origins only.
constexpr const char* kAllowHeaders =
    "Authorization, Content-Type, If-Match, If-None-Match, X-HTTP-Method-Override, X-WP-Nonce";
constexpr const char* kPublicAllowHeaders =
    "Content-Type, If-Match, If-None-Match, X-HTTP-Method-Override, X-WP-Nonce";
// The response headers a page may read besides the CORS-safelisted ones.
constexpr const char* kExposeHeaders =
    "X-WP-Total, X-WP-TotalPages, X-TEC-Total, X-TEC-TotalPages, Link, ETag, Location, Retry-After, "
    "Content-Language";
// Ten minutes: long enough to spare most preflights, short enough for a config change to show.
constexpr const char* kMaxAge = "600";

}  // namespace

CorsGrant cors_grant(const Config& config, const Request& request) {
  const std::string& origin = request.header("origin");
  if (origin.empty() || config.cors.origins.empty()) return CorsGrant::kNone;
  const auto& list = config.cors.origins;
  // Configured origins are lower-case; browsers send scheme and host in lower case too.
  if (std::find(list.begin(), list.end(), ascii::lower(origin)) != list.end()) return CorsGrant::kListed;
  if (std::find(list.begin(), list.end(), "*") != list.end()) return CorsGrant::kPublic;
  return CorsGrant::kNone;
}

bool is_preflight(const Request& request) {
  return ascii::upper(request.method) == "OPTIONS" && !request.header("origin").empty() &&
         !request.header("access-control-request-method").empty();
}

Response preflight_response(const Route& route, CorsGrant grant) {
  std::string methods;
  for (const std::string& m : route.allowed_methods()) {
    if (grant == CorsGrant::kPublic && m != "GET") continue;
    methods += (methods.empty() ? "" : ", ") + m;
  }
  Response r;
  r.status = 204;
  r.set_header("Access-Control-Allow-Methods", methods);
  r.set_header("Access-Control-Allow-Headers",
               grant == CorsGrant::kListed ? kAllowHeaders : kPublicAllowHeaders);
  r.set_header("Access-Control-Max-Age", kMaxAge);
  return r;
}

void add_cors_headers(const Config& config, const Request& request, Response& response) {
  const CorsGrant grant = cors_grant(config, request);
  if (grant == CorsGrant::kNone) return;
  // "*" itself for public reads: browsers then refuse to send cookies or HTTP credentials.
  response.set_header("Access-Control-Allow-Origin",
                      grant == CorsGrant::kListed ? request.header("origin") : "*");
  if (grant == CorsGrant::kListed) response.set_header("Access-Control-Allow-Credentials", "true");
  response.set_header("Access-Control-Expose-Headers", kExposeHeaders);
}

const char* vary_header(const Config& config) {
  // Accept: it may ask for the iCalendar feed instead of JSON.
  return config.cors.origins.empty() ? "Accept, Accept-Language" : "Accept, Accept-Language, Origin";
}

}  // namespace cal
