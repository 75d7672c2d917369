// The event-specific fields of create and update (SPEC §5 Events, §3.5): time zone, start/end
// with all-day rounding, cost, website, the five flags and the password; then the links (venue,
// organizers, categories, tags). Only sent fields change; create fills the defaults.
#pragma once

#include "cal/api/context.h"
#include "cal/store/events.h"

namespace cal {

// Applies the sent detail fields to `event` (and the password to event.post when the route
// declares it). Throws ApiError 400 rest_invalid_param for an unknown time zone, dates that do
// not parse, an end before the start, a cost that is not text or a number, a website that is
// neither "" nor an absolute URL.
void apply_event_fields(RequestContext& ctx, Event& event, bool create);

// Applies the sent `venue`, `organizer`, `categories` and `tags` to the stored event: each
// replaces that link set (an empty value removes it), an omitted one keeps it. Creates venues,
// organizers and terms from inline data as SPEC §5 says. Call inside the write's transaction.
void apply_event_links(RequestContext& ctx, long long event_id);

}  // namespace cal
