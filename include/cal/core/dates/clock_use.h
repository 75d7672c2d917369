// How long the response being computed stays valid as time passes, for the response cache.
// Most answers change only when the data changes (or a scheduled post comes due, which the cache
// tracks itself); an answer that read the current time is valid only as long as what it read
// stays the same: code that reads the clock says so here. The record is per thread: one request
// runs on one thread at a time, and the router resets it for each.
#pragma once

#include "cal/core/dates/dates.h"

#include <optional>

namespace cal {

// The current time without recording anything: for callers that then say themselves how long
// their result holds (note_valid_until).
Seconds unmarked_now();

// The answer depends on the current second of the service's clock (called by now_seconds()).
void note_clock_use();

// The answer holds only before `instant` (e.g. the next site-local midnight for a default window).
void note_valid_until(Seconds instant);

// What the current request recorded since reset_clock_use().
struct ClockUse {
  std::optional<Seconds> valid_until;  // service clock; none = not time-dependent
};
ClockUse clock_use();

// Starts a new request.
void reset_clock_use();

}  // namespace cal
