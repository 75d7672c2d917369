// The VTIMEZONE components of the iCalendar feeds, built from the system time zone
// database through cal::TimeZone (the zone's TZif file, with its footer rule past the last
// tabulated transition): every offset change of the zone over the years the feed's events need, each an
// observance of its own (DTSTART in the wall clock before the change, TZOFFSETFROM,
// TZOFFSETTO, TZNAME). Explicit observances instead of RRULEs: exact for any zone and any
// year, historical changes included, and clients need no rule arithmetic.
#pragma once

#include "cal/core/dates/dates.h"

#include <libical/ical.h>

#include <string>
#include <vector>

namespace cal {

// A wall-clock time as a floating iCalendar DATE-TIME (no zone; a caller may set one).
icaltimetype floating_date_time(const LocalDateTime& t);

// One observance: from `start` on, the zone is `offset_to` seconds east of UTC.
struct ZoneObservance {
  Seconds start;
  int offset_from = 0;  // before `start`
  int offset_to = 0;
  std::string abbrev;  // TZNAME
  bool dst = false;    // DAYLIGHT, else STANDARD
};

// The observances of `zone` over [from, to): first the one in effect at `from` (start = from,
// offset_from = offset_to), then one per change of offset or DST flag, in order. Changes less
// than 6 hours apart may be seen as one (no zone has had such).
std::vector<ZoneObservance> zone_observances(const TimeZone& zone, Seconds from, Seconds to);

// A new VTIMEZONE (the caller owns it) for the IANA `zone`, TZID its name, covering the whole
// years first_year..last_year (UTC) with a day's margin on both sides.
icalcomponent* build_vtimezone(const TimeZone& zone, int first_year, int last_year);

// build_vtimezone's answer, computed once per zone and years and kept for the process (at most
// a few hundred sets; then computed each time); returns a clone the caller owns. Thread-safe.
icalcomponent* cached_vtimezone(const TimeZone& zone, int first_year, int last_year);

}  // namespace cal
