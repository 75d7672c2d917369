// Which posts a caller may see in lists (docs/api.md §4.1): the visibility handed to the store's list
// queries, with or without the request's `status` filter.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/store/post_visibility.h"

namespace cal {

// The posts the caller may see in lists, with the request's `status` filter. Throws 400 for
// statuses a visitor may not ask for.
PostVisibility list_visibility(RequestContext& ctx);
// The posts the caller may read in lists, whatever the request's `status`: for related records
// (e.g. "linked to an event visible to this caller").
PostVisibility readable_posts(const RequestContext& ctx);

}  // namespace cal
