// The date window of GET /events (docs/api.md §4.1) as pure functions: which UTC bounds the six date
// filters, their defaults, `strict_dates` and `include` put on event start and end.
#pragma once

#include "cal/core/dates/dates.h"
#include "cal/store/event_filter.h"

#include <optional>
#include <string>

namespace cal {

// The date filters of one list request, as sent (nullopt = absent).
struct EventDateFilters {
  std::optional<std::string> start_date;
  std::optional<std::string> end_date;
  std::optional<std::string> starts_before;
  std::optional<std::string> starts_after;
  std::optional<std::string> ends_before;
  std::optional<std::string> ends_after;
  bool strict = false;   // strict_dates=true: exact instants instead of whole site-local days
  bool include = false;  // `include` was given: every date filter is ignored
};

// The outcome: the window, or the name of the first filter whose text is not a date.
struct EventWindowResult {
  EventDateWindow window;
  std::string invalid_param;  // "" when every filter parsed
};

// Computes the window in the site zone at `now` (docs/api.md §4.1):
// - `include` given: no bounds at all;
// - defaults when absent: start >= yesterday 00:00:00 and end <= today + 24 months 23:59:59,
//   site-local; both dropped when any of starts_before/starts_after/ends_before/ends_after is
//   given;
// - not strict: start_date → 00:00:00 of its site-local day, end_date → 23:59:59, *_before →
//   before 00:00:00 of the day, *_after → after 23:59:59 of the day; strict: the exact instants.
EventWindowResult compute_event_window(const EventDateFilters& filters, const TimeZone& site_zone,
                                       Seconds now);

// How long the window computed at `now` stays what compute_event_window would give (for the
// response cache): until the next second when a filter is a relative date ("now",
// "+1 day": its instant moves with the clock); else until the next site-local midnight when a
// default bound applies (the defaults follow the site-local day); else for ever (nullopt).
std::optional<Seconds> event_window_valid_until(const EventDateFilters& filters, const TimeZone& site_zone,
                                                Seconds now);

// 00:00:00 and 23:59:59 of the wall-clock day of `instant` in `zone`, as instants.
Seconds start_of_local_day(Seconds instant, const TimeZone& zone);
Seconds end_of_local_day(Seconds instant, const TimeZone& zone);

}  // namespace cal
