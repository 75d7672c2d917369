// The writes of POST /events and of an event update without their response, for the handlers
// (src/api/events/event_writes.cpp) and the iCalendar import (src/api/ical/ical_import.cpp), which
// maps each VEVENT to the parameters of these routes: one validation and one write path.
#pragma once

#include "cal/api/pipeline/context.h"

namespace cal {

// Creates the event the parameters of POST /events describe; returns its id. Joins the caller's
// transaction if one is open (transactions nest flatly, cal/store/db.h).
long long write_new_event(RequestContext& ctx);

// Updates the event the `id` (or `slug`) parameter names, or event `target` when given (a write
// of an occurrence that applies to its series), with the parameters of POST /events/{id},
// checking the caller may edit it; returns its id.
long long write_event_update(RequestContext& ctx, long long target = 0);

}  // namespace cal
