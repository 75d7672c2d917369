// An event's start and end on create and update (docs/api.md §5, §6) as a pure function: dates parsed
// in the event zone, offsets and timestamps kept as instants but shown in the event zone,
// all-day rounding, the kept side of a one-sided update, and end-before-start rejection.
#pragma once

#include "cal/core/dates/dates.h"

#include <optional>
#include <string>

namespace cal {

// One side of the event as stored: wall clock in the event zone.
struct EventTimesInput {
  std::optional<std::string> start_text;       // start_date as sent; nullopt = keep
  std::optional<std::string> end_text;         // end_date as sent; nullopt = keep
  std::optional<LocalDateTime> current_start;  // stored wall clock (update), re-read in `zone`
  std::optional<LocalDateTime> current_end;
  bool all_day = false;  // round to 00:00:00 .. 23:59:59 local days
};

struct EventTimes {
  LocalDateTime start_local;
  LocalDateTime end_local;
  Seconds start;
  Seconds end;
};

// What went wrong; kNone when `times` is valid.
enum class EventTimesError { kNone, kMissingStart, kMissingEnd, kBadStart, kBadEnd, kEndBeforeStart };

struct EventTimesResult {
  EventTimes times;
  EventTimesError error = EventTimesError::kNone;
};

// Resolves start and end in `zone` at `now`: a sent text is parsed (relative forms in `zone`);
// an absent side keeps its stored wall clock, read in `zone` (so a zone change keeps the wall
// clock). With all_day the start moves to 00:00:00 and the end to 23:59:59 of their local days.
// An end before the start is kEndBeforeStart.
EventTimesResult resolve_event_times(const EventTimesInput& input, const TimeZone& zone, Seconds now);

}  // namespace cal
