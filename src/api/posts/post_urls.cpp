// The addresses of post records (see cal/api/posts/post_urls.h).
#include "cal/api/posts/post_urls.h"

#include "cal/core/text/url.h"

namespace cal {

std::string public_url(const RequestContext& ctx, const PostKind& kind, std::string_view slug) {
  return ctx.site_url + "/" + std::string(kind.public_base) + "/" + url_encode(slug) + "/";
}

std::string record_rest_url(const RequestContext& ctx, const PostKind& kind, long long id) {
  return ctx.ns_url() + "/" + std::string(kind.collection) + "/" + std::to_string(id);
}

std::string global_id(const RequestContext& ctx, long long id) {
  std::string host = ctx.site_url;
  if (const auto scheme = host.find("://"); scheme != std::string::npos) host = host.substr(scheme + 3);
  return host + "?id=" + std::to_string(id);
}

}  // namespace cal
