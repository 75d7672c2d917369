// Internal to the iCalendar import: a date or date-time property (DTSTART, DTEND, RDATE, EXDATE,
// RECURRENCE-ID) as the import reads it, with its zone resolved (src/api/ical/ical_import_map.cpp).
#pragma once

#include "api/ical/libical.h"
#include "cal/api/ical/ical_import.h"
#include "cal/core/dates/dates.h"

#include <optional>

namespace cal {

struct IcalMoment {
  enum Kind { kDate, kFloating, kUtc, kZoned } kind = kFloating;
  LocalDateTime wall;            // kUtc: the UTC wall clock
  std::optional<TimeZone> zone;  // kZoned
};

// The wall clock of a libical time (00:00:00 for a date).
LocalDateTime local_of(const icaltimetype& t);

// Reads time `t` of property `p` of a VEVENT of `calendar`: a TZID that is an IANA zone (after a
// vendor prefix too) is kept, one only a VTIMEZONE of the calendar defines (with plain yearly rules)
// is resolved to UTC. nullopt, with `problem` naming the property, when the TZID is unknown.
std::optional<IcalMoment> moment_of(icalcomponent* calendar, icalproperty* p, icaltimetype t,
                                    std::optional<IcalProblem>& problem);

// Reads the recurrence of VEVENT `ev` into `out`: `rules` (its RRULE and EXRULE lines as written)
// and its RDATE and EXDATE values as `recurrence` lines, or, with a RECURRENCE-ID, the original
// start it overrides; STATUS:CANCELLED as `cancelled`. Sets `out.problem` for what cannot be read
// (src/api/ical/ical_import_recurrence.cpp).
void map_recurrence(icalcomponent* calendar, icalcomponent* ev, std::vector<std::string> rules,
                    IcalEventInput& out);

}  // namespace cal
