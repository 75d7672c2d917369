// What every answer carries whatever route it comes from: the common headers (Content-Language,
// Vary, X-Content-Type-Options, WordPress's discovery Link) and the REST root and site URL that
// the Link and the records' URLs are built from.
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

}  // namespace cal
