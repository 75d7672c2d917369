// Writes of post records: the fields every post resource shares (author, date, date_utc, status,
// slug, description, excerpt, image and the name field) and how a create or update applies them,
// the `image` input (docs/api.md §3.4), and DELETE: trash, or with `force` deletion for good
// (docs/api.md §5).
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/json.h"
#include "cal/api/posts/post_record.h"
#include "cal/core/i18n/i18n.h"
#include "cal/store/db.h"
#include "cal/store/posts.h"

#include <functional>
#include <rapidjson/document.h>
#include <string>
#include <string_view>

namespace cal {

// Applies the shared fields to `row`, following docs/api.md §5: only sent fields change; on create the
// status and dates get their defaults. Throws ApiError for bad values.
void apply_post_fields(RequestContext& ctx, const PostKind& kind, PostRow& row, bool create);

// Slugs: wanted slug from a title or given text ("" → the kind name, e.g. "event").
std::string wanted_slug(const PostKind& kind, std::string_view text);

// The problem with an `image` input: "" for none, an absolute http(s) URL or the id of a known
// image (not looked up when `db` is null); else the localized message.
std::string image_problem(const rapidjson::Value& raw, const Locale& locale, Db* db);

// The image id the request's (already checked) `image` parameter names: 0 for none, the id
// given, or the id of the image stored for the URL given (created with `author` if new).
long long resolve_image(RequestContext& ctx, long long author, const std::string& now_utc);

// Trash (200 with the trashed record), 410 when already trashed, or with force (editors and up,
// else 403) permanent deletion → {"deleted": true, "previous": record}. `unlink` runs inside the
// transaction before trashing/deleting; `write_record` writes the record.
Response delete_post_record(RequestContext& ctx, const PostKind& kind, PostRow row,
                            const std::function<void()>& unlink,
                            const std::function<void(JsonWriter&, const PostRow&)>& write_record);

}  // namespace cal
