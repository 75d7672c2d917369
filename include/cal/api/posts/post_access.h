// Which record a request names and whether the caller may read or edit it: the lookups that
// give 404 and the checks that give 403 for events, venues and organizers alike.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/posts/post_kind.h"
#include "cal/store/posts.h"

#include <optional>

namespace cal {

// The record named by the path (`id` or `slug`). Throws 404 rest-<kind>-not-found.
PostRow load_target(RequestContext& ctx, const PostKind& kind);
// Like load_target, for a record id named in a body or filter (no 404: nullopt when missing).
std::optional<PostRow> find_record(RequestContext& ctx, const PostKind& kind, long long id);

// GET checks: trashed → 403 <kind>-no-longer-available (unless context=edit by one who may edit);
// not readable → 403 <kind>-not-accessible.
void check_readable(RequestContext& ctx, const PostKind& kind, const PostRow& row);
// Edit/delete check: 403 rest_forbidden unless the caller may edit the record.
void check_editable(RequestContext& ctx, const PostRow& row);

}  // namespace cal
