// Recurring events: the recurrence set of an event (RFC 5545 RRULE, RDATE and EXDATE lines, as an
// event's `recurrence` field carries them, with the event's own start, end and zone as DTSTART and
// DTEND), parsed and checked against the subset the service supports, written back in one normal
// form, and expanded into occurrences. Pure functions of their arguments and the system time zone
// database; the API and the store build on them (docs/recurring-events.md).
#pragma once

#include "cal/core/dates/dates.h"

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cal {

// Why a recurrence was refused. `message` is an English msgid with "%s" / "%1$s" placeholders and
// `args` fill them (format_message in cal/core/i18n/i18n.h translates it); `part` names what was
// refused as RFC 5545 spells it ("BYWEEKNO", "FREQ", "UNTIL", "RDATE", "EXRULE"). The API answers
// 400 rest_invalid_param with the formatted message.
struct RecurrenceError {
  std::string part;
  std::string message;
  std::vector<std::string> args;
};

// The bounds a recurrence must keep. Defaults are the service's (docs/recurring-events.md).
struct RecurrenceLimits {
  std::size_t max_instances = 3650;    // occurrences of one series; also the largest COUNT
  int max_interval = 1000;             // the largest INTERVAL
  std::size_t max_rdates = 500;        // RDATE values
  std::size_t max_exdates = 1000;      // EXDATE values
  std::size_t max_rule_length = 1024;  // characters of the RRULE line
};

// The event's first occurrence: DTSTART and DTEND of the series. Start and end are valid wall
// clocks in `zone` with start not after end (the event's own checks guarantee both). An all-day
// event's dates are what counts: RDATE, EXDATE and UNTIL must then be DATE values.
struct FirstOccurrence {
  LocalDateTime start, end;
  TimeZone zone;
  bool all_day = false;
};

enum class Frequency { kDaily, kWeekly, kMonthly, kYearly };

// One BYDAY entry: a weekday (0 = Sunday .. 6 = Saturday) and its ordinal in the period (0: every
// such weekday; 1 the first, -1 the last, ...). Ordinals occur only in MONTHLY and YEARLY rules.
struct WeekdayEntry {
  int weekday = 0;
  int ordinal = 0;
};

// A checked RRULE. Lists are sorted and free of duplicates; at most one of count, until and
// until_date is set.
struct RecurrenceRule {
  Frequency frequency = Frequency::kDaily;
  int interval = 1;
  std::optional<int> count;
  std::optional<Seconds> until;             // a DATE-TIME UNTIL (timed events), inclusive
  std::optional<LocalDateTime> until_date;  // a DATE UNTIL (all-day events), inclusive; time 00:00:00
  int week_start = 1;                       // WKST, 0 = Sunday .. 6 = Saturday
  std::vector<WeekdayEntry> by_day;         // sorted by (weekday from Monday, ordinal)
  std::vector<int> by_month_day;            // -31..-1, 1..31
  std::vector<int> by_month;                // 1..12
  std::vector<int> by_set_pos;              // -366..-1, 1..366
};

// One RDATE or EXDATE value, resolved in the event's zone.
struct RecurrenceDate {
  // The wall clock the value names in the event's zone (with a DATE value, that date at the first
  // occurrence's time of day; with a UTC or other-zone value, the zone's wall clock at `instant`).
  // With `instant` it identifies the occurrence.
  LocalDateTime local;
  Seconds instant;       // local resolved as TimeZone::to_instant does (DST gap forward, repeat first)
  bool is_date = false;  // a DATE value
  std::optional<Seconds> period_end;  // an RDATE PERIOD's end
};

// A parsed, checked recurrence set. Dates are sorted by instant and free of duplicates (of values
// naming one instant the first kept is: zone wall clock, UTC, DATE, PERIOD).
struct RecurrenceSet {
  FirstOccurrence first;
  std::optional<RecurrenceRule> rule;
  std::vector<RecurrenceDate> rdates;
  std::vector<RecurrenceDate> exdates;

  // Whether the set has no end: a rule without COUNT or UNTIL.
  bool is_infinite() const;
};

// Parses an event's `recurrence` lines ("RRULE:FREQ=WEEKLY;BYDAY=TU", "RDATE;TZID=Europe/Berlin:
// 20250101T100000,20250102T100000", "EXDATE;VALUE=DATE:20250107", "RDATE;VALUE=PERIOD:
// 20250101T090000Z/PT2H"); names, parameters and rule parts in any letter case; no lines makes a
// one-off event. Supported: one RRULE with FREQ=DAILY|WEEKLY|MONTHLY|YEARLY, INTERVAL, COUNT or
// UNTIL, WKST, BYDAY (ordinals in MONTHLY and YEARLY rules), BYMONTHDAY, BYMONTH, BYSETPOS (with
// one of BYDAY, BYMONTHDAY, BYMONTH); RDATE values DATE-TIME (TZID=, UTC or floating: the event's
// zone), DATE or PERIOD (start/end or start/duration); EXDATE values DATE-TIME or DATE. Refused,
// with the part named: HOURLY and finer, BYWEEKNO, BYYEARDAY, BYHOUR, BYMINUTE, BYSECOND, any other
// part or property (DTSTART and EXRULE included), COUNT with UNTIL, a rule that does not produce
// the first occurrence or ends before it, BYMONTHDAY in a YEARLY rule without BYMONTH, a value of
// the wrong type for the event (all-day: DATE; timed: DATE-TIME UNTIL), malformed values, and
// anything past `limits`. Never throws except std::bad_alloc.
std::variant<RecurrenceSet, RecurrenceError> parse_recurrence(const std::vector<std::string>& lines,
                                                              const FirstOccurrence& first,
                                                              const RecurrenceLimits& limits = {});

// The normal form of a set's lines, for the event's `recurrence` field and for storage: the RRULE
// with its parts in a fixed order (FREQ, INTERVAL unless 1, COUNT or UNTIL in UTC (a DATE for
// all-day events), BYMONTH, BYMONTHDAY, BYDAY, BYSETPOS, WKST unless MO), then RDATE and EXDATE
// lines, values sorted by instant: wall clocks in the event's zone ("RDATE;TZID=zone:..."), values
// that wall clock cannot name (the second pass of a DST repeat) in UTC, DATE values, PERIODs as
// start/exact duration. parse_recurrence of the result gives the same set.
std::vector<std::string> format_recurrence(const RecurrenceSet& set);

// One occurrence of a set. Its identity is (original_local, start): the wall clock the rule or
// RDATE named, which may lie in a DST gap, and the instant it resolved to.
struct Occurrence {
  LocalDateTime original_local;
  Seconds start, end;
  LocalDateTime start_local, end_local;  // the zone's wall clocks at start and end
  bool is_rdate = false;                 // from an RDATE rather than the rule or DTSTART
};

// The occurrences of `set` that start in [from, to), by start. Semantics of RFC 5545 with its
// errata: the rule's dates at the first occurrence's time of day, invalid dates (February 30th)
// skipped and not counted; a wall clock in a DST gap moved forward by the gap, one in a repeat at
// its first instant; UNTIL inclusive, compared as an instant (a DATE UNTIL as a date); COUNT
// counts rule occurrences before EXDATEs remove any; RDATEs added (one at an instant the rule
// already has adds nothing), EXDATEs remove the occurrence starting at their instant. A timed
// occurrence lasts the first occurrence's exact duration (an RDATE PERIOD its own); an all-day one
// spans as many calendar days. Fails when more than `max_instances` occurrences start before `to`
// (those before `from` count too, so a write can check a whole series: `to` = the horizon of an
// infinite set, or the far future). Never throws except std::bad_alloc.
std::variant<std::vector<Occurrence>, RecurrenceError> expand_recurrence(const RecurrenceSet& set,
                                                                         Seconds from, Seconds to,
                                                                         std::size_t max_instances);

}  // namespace cal
