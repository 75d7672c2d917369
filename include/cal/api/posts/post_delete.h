// DELETE of a post resource (docs/api.md §5): moving the record to the trash, or with `force`
// deleting it for good, with the response each gives.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/json.h"
#include "cal/api/posts/post_kind.h"
#include "cal/store/posts.h"

#include <functional>

namespace cal {

// Trash (200 with the trashed record), 410 when already trashed, or with force (editors and up,
// else 403) permanent deletion → {"deleted": true, "previous": record}. `unlink` runs inside the
// transaction before trashing/deleting; `write_record` writes the record.
Response delete_post_record(RequestContext& ctx, const PostKind& kind, PostRow row,
                            const std::function<void()>& unlink,
                            const std::function<void(JsonWriter&, const PostRow&)>& write_record);

}  // namespace cal
