// The clock and time zone handlers compute with: the current instant (marked as read, so the
// response cache keeps time-dependent answers one second only) and the site's zone.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/core/dates/dates.h"
#include "cal/store/modified_bounds.h"

namespace cal {

// The current instant, and "now" as stored (UTC and site-local "YYYY-MM-DD HH:MM:SS").
Seconds now_seconds();
TimeZone site_zone(const RequestContext& ctx);

// `modified_after` / `modified_before` of a list request, as dates of docs/api.md §6 in the
// site zone (the validator checked that they parse). Reads the clock only when one is given.
ModifiedBounds modified_bounds(const RequestContext& ctx);

}  // namespace cal
