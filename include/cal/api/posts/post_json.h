// The JSON every post record starts with (docs/api.md §3): the shared leading keys and the image object.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/json.h"
#include "cal/api/posts/post_kind.h"
#include "cal/store/posts.h"

#include <vector>

namespace cal {

// Writes the keys every post record starts with, in docs/api.md §3 order: id, global_id,
// global_id_lineage, author, status, date, date_utc, modified, modified_utc, url, rest_url,
// <name key>, description, excerpt, slug, image. The image is looked up in `images` by id.
void write_post_head(JsonWriter& w, const RequestContext& ctx, const PostKind& kind, const PostRow& row,
                     const std::vector<Image>& images);
// `false`, or {"url", "id", "extension"}.
void write_image(JsonWriter& w, const Image* image);

}  // namespace cal
