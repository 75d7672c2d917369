// The filters of GET /events (SPEC §4.1, §4.3) turned into the store's list query: visibility
// and status, include, the date window, search, categories/tags, venue, organizer, featured,
// post_parent, ticketed and the geolocation extension.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/store/events.h"

namespace cal {

// Builds the list query from the request's validated parameters. Looks up what filters name
// (terms, venues, organizers, the parent event) in a fixed number of statements, and throws
// ApiError 400 rest_invalid_param for unknown ones, for statuses the caller may not ask for,
// for geolocation parameters while the extension is off, and for a lone geoloc_lat/geoloc_lng.
EventQuery build_event_query(RequestContext& ctx);

}  // namespace cal
