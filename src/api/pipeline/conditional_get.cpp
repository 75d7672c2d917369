// Cache-Control, ETags and conditional GET (see conditional_get.h).
#include "api/pipeline/conditional_get.h"

#include "cal/core/text/etag.h"

namespace cal {

std::string apply_caching(const std::string& method, bool authenticated, Response& response) {
  // A 503 (busy, database unavailable) says nothing about the resource: no cache keeps it.
  const bool never_store = authenticated || response.status == 503;
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
