// Which post records a caller may see and touch: the record a request names (404), the read and
// edit checks (403) for events, venues and organizers alike, and the visibility handed to the
// store's list queries (docs/api.md §4.1).
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/posts/post_record.h"
#include "cal/store/post_visibility.h"
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

// The posts the caller may see in lists, with the request's `status` filter. Throws 400 for
// statuses a visitor may not ask for.
PostVisibility list_visibility(RequestContext& ctx);
// The posts the caller may read in lists, whatever the request's `status`: for related records
// (e.g. "linked to an event visible to this caller").
PostVisibility readable_posts(const RequestContext& ctx);

}  // namespace cal
