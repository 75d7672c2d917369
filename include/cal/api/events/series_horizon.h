// Infinite series extended on demand (docs/recurring-events.md, "Horizon"): a rule without an end
// is materialised to [recurrence] horizon_months when written; a list or occurrences query whose
// window reaches past a series' horizon first extends that series, month by month, up to
// [recurrence] max_horizon_years ahead of now.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/store/event_filter.h"

namespace cal {

// Extends every infinite series whose horizon the window's latest start reaches (none when the
// window has no end) so that the query sees all its occurrences: each in whole months past the
// window's end, inside one transaction, the series locked (a concurrent extender waits, then finds
// it extended). Throws 400 rest_invalid_param naming end_date when a series would have to be
// extended past max_horizon_years or past max_instances. On a read replica's connection, where
// nothing is written, a window that needs a series extended throws PrimaryNeeded: the primary
// extends and answers it.
void extend_series_horizons(RequestContext& ctx, const EventDateWindow& window);

}  // namespace cal
