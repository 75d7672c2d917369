// What the recurrence tests share (recurrence_test.cpp, recurrence_expand_test.cpp,
// recurrence_oracle_test.cpp): building a first occurrence, parsing that must succeed, and the
// compact text forms the tables compare.
#pragma once

#include "cal/core/dates/recurrence.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <variant>
#include <vector>

namespace caltest_recurrence {

// "YYYYMMDDTHHMMSS" (or "YYYYMMDD") as a wall clock.
inline cal::LocalDateTime wall(const std::string& text) {
  cal::LocalDateTime t;
  t.year = std::stoi(text.substr(0, 4));
  t.month = std::stoi(text.substr(4, 2));
  t.day = std::stoi(text.substr(6, 2));
  if (text.size() >= 15) {
    t.hour = std::stoi(text.substr(9, 2));
    t.minute = std::stoi(text.substr(11, 2));
    t.second = std::stoi(text.substr(13, 2));
  }
  return t;
}

// A wall clock as "YYYYMMDDTHHMMSS".
inline std::string wall_text(const cal::LocalDateTime& t) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%04d%02d%02dT%02d%02d%02d", t.year, t.month, t.day, t.hour, t.minute,
                t.second);
  return buffer;
}

// An instant as "YYYYMMDDTHHMMSSZ".
inline std::string utc_text(cal::Seconds instant) { return wall_text(cal::to_utc_date_time(instant)) + "Z"; }

// A first occurrence in `zone` from `start` lasting `minutes` (timed events).
inline cal::FirstOccurrence timed(const char* zone, const std::string& start, int minutes = 60) {
  cal::FirstOccurrence first;
  const auto found = cal::TimeZone::find(zone);
  REQUIRE_MESSAGE(found.has_value(), zone);
  first.zone = *found;
  first.start = wall(start);
  first.end = first.zone.to_local(first.zone.to_instant(first.start) + std::chrono::minutes{minutes});
  return first;
}

// An all-day first occurrence over `days` days from the date `start` ("YYYYMMDD").
inline cal::FirstOccurrence all_day(const char* zone, const std::string& start, int days = 1) {
  cal::FirstOccurrence first;
  first.zone = *cal::TimeZone::find(zone);
  first.all_day = true;
  first.start = wall(start);
  cal::LocalDateTime end =
      cal::to_utc_date_time(cal::from_utc_date_time(first.start) + std::chrono::hours{24 * (days - 1)});
  end.hour = 23;
  end.minute = 59;
  end.second = 59;
  first.end = end;
  return first;
}

// The refusal as "PART: message [arg] [arg]", for failure messages.
inline std::string error_text(const cal::RecurrenceError& e) {
  std::string text = e.part + ": " + e.message;
  for (const std::string& arg : e.args) text += " [" + arg + "]";
  return text;
}

// The parsed set; fails the test case when the lines are refused.
inline cal::RecurrenceSet parse_ok(const std::vector<std::string>& lines, const cal::FirstOccurrence& first,
                                   const cal::RecurrenceLimits& limits = {}) {
  auto parsed = cal::parse_recurrence(lines, first, limits);
  if (const auto* error = std::get_if<cal::RecurrenceError>(&parsed)) FAIL("refused: " << error_text(*error));
  return std::get<cal::RecurrenceSet>(std::move(parsed));
}

// The occurrences in [from, to) with a cap of `max`; fails the test case on an error.
inline std::vector<cal::Occurrence> expand_ok(const cal::RecurrenceSet& set, cal::Seconds from,
                                              cal::Seconds to, std::size_t max = 3650) {
  auto expanded = cal::expand_recurrence(set, from, to, max);
  if (const auto* error = std::get_if<cal::RecurrenceError>(&expanded))
    FAIL("expansion failed: " << error_text(*error));
  return std::get<std::vector<cal::Occurrence>>(std::move(expanded));
}

// Far ends for windows that cut nothing.
inline cal::Seconds far_past() { return cal::from_utc_date_time({1, 1, 1, 0, 0, 0}); }
inline cal::Seconds far_future() { return cal::from_utc_date_time({9999, 12, 31, 23, 59, 59}); }

}  // namespace caltest_recurrence
