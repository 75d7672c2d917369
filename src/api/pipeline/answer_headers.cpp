// The headers of every answer (see answer_headers.h).
#include "api/pipeline/answer_headers.h"

#include "api/pipeline/cors.h"
#include "cal/core/text/etag.h"

namespace cal {

BaseUrls base_urls(const Request& request, const Config& config) {
  std::string scheme = request.scheme;
  std::string host = request.host.empty() ? std::string("localhost") : request.host;
  if (config.site.trust_proxy) {
    if (const auto& p = request.header("x-forwarded-proto"); !p.empty()) scheme = p.substr(0, p.find(','));
    if (const auto& h = request.header("x-forwarded-host"); !h.empty()) host = h.substr(0, h.find(','));
  }
  const std::string origin = scheme + "://" + host;
  auto strip = [](std::string s) {
    while (!s.empty() && s.back() == '/') s.pop_back();
    return s;
  };
  return {config.site.rest_url.empty() ? origin + request.script_name : strip(config.site.rest_url),
          config.site.url.empty() ? origin : strip(config.site.url)};
}

void fill_urls(const Request& request, const Config& config, RequestContext& ctx) {
  BaseUrls urls = base_urls(request, config);
  ctx.rest_root = std::move(urls.rest_root);
  ctx.site_url = std::move(urls.site_url);
}

void add_common_headers(const Request& request, const Config& config, const Locale& locale,
                        Response& response) {
  response.set_header("Content-Language", locale.bcp47());
  // The language may come from Accept-Language, so shared caches must key on it.
  response.set_header("Vary", vary_header(config));
  response.set_header("X-Content-Type-Options", "nosniff");
  // WordPress's discovery link (WPAPI.discover and other clients look for it on any answer); after
  // a pagination Link, if any.
  response.headers.emplace_back(
      "Link", "<" + base_urls(request, config).rest_root + "/>; rel=\"https://api.w.org/\"");
}

std::string apply_caching(const std::string& method, bool authenticated, Response& response) {
  // A 503 (busy, database unavailable) says nothing about the resource: no cache keeps it.
  const bool never_store = authenticated || response.status == 503;
  // A handler's own no-store (the health check, about this moment only) stands, and gets no ETag.
  for (const auto& [name, value] : response.headers)
    if (name == "Cache-Control" && value == "no-store") return {};
  response.set_header("Cache-Control",
                      never_store ? (authenticated ? "private, no-store" : "no-store") : "no-cache");
  if (response.status != 200 || (method != "GET" && method != "HEAD")) return {};
  std::string etag = strong_etag(response.body);
  response.set_header("ETag", etag);
  return etag;
}

void apply_conditional(const Request& request, const std::string& etag, Response& response) {
  if (etag.empty()) return;
  if (const auto& inm = request.header("if-none-match"); !inm.empty() && if_none_match(inm, etag)) {
    response.status = 304;
    response.body.clear();
    response.head_only = true;
  }
}

}  // namespace cal
