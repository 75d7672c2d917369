// The writable fields every post resource shares (author, date, date_utc, status, slug,
// description, excerpt, image and the name field) and how a create or update applies them.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/posts/post_kind.h"
#include "cal/store/posts.h"

#include <string>
#include <string_view>

namespace cal {

// Applies the shared fields to `row`, following docs/api.md §5: only sent fields change; on create the
// status and dates get their defaults. Throws ApiError for bad values.
void apply_post_fields(RequestContext& ctx, const PostKind& kind, PostRow& row, bool create);

// Slugs: wanted slug from a title or given text ("" → the kind name, e.g. "event").
std::string wanted_slug(const PostKind& kind, std::string_view text);

}  // namespace cal
