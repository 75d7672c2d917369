// The addresses of a post record: its public page, its REST URL and its global id.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/posts/post_kind.h"

#include <string>
#include <string_view>

namespace cal {

// {site_url}/{public_base}/{slug}/
std::string public_url(const RequestContext& ctx, const PostKind& kind, std::string_view slug);
// {rest namespace}/{collection}/{id}
std::string record_rest_url(const RequestContext& ctx, const PostKind& kind, long long id);
// {site host}?id={id}
std::string global_id(const RequestContext& ctx, long long id);

}  // namespace cal
