// Internal to the dates module (used by src/core/dates/time_zone.cpp); other code uses
// cal/core/dates/dates.h. POSIX TZ rules as found in the footer of TZif (version 2+) files (core/dates/
// tzif.h): parsing the rule and evaluating it. The footer rule governs an IANA zone after its last
// tabulated transition.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cal::detail {

// One transition of a POSIX TZ rule: "M3.2.0/2" (month.week.weekday), "J60" (day 1..365, never
// counting February 29th) or "59" (day 0..365, counting it), at `time` seconds of local time.
struct PosixTransition {
  char kind = 'M';  // 'M', 'J' or 'N'
  int month = 1, week = 1, weekday = 0, day = 0;
  std::int64_t time = 7200;
};

// A POSIX TZ rule as found in TZif footers: "EST5EDT,M3.2.0,M11.1.0", "<+0530>-5:30".
struct PosixZone {
  std::string std_abbrev, dst_abbrev;
  int std_offset = 0, dst_offset = 0;  // seconds east of UTC
  bool has_dst = false;
  PosixTransition start, end;  // into and out of DST
};

// Parses a POSIX TZ rule; nullopt for forms it does not handle (DST without explicit rules).
std::optional<PosixZone> parse_posix_zone(std::string_view s);

// Whether DST is in effect at the instant (seconds since the epoch) under the rule.
bool posix_is_dst(const PosixZone& zone, std::int64_t instant);

// The earlier-period offset for a wall clock under the rule (see earliest_offset).
int posix_earliest_offset(const PosixZone& zone, std::int64_t wall);

}  // namespace cal::detail
