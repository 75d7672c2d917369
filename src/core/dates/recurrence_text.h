// Internal to the recurrence module (src/core/dates/recurrence_*.cpp); other code uses
// cal/core/dates/recurrence.h. The RFC 5545 value forms recurrence lines carry (DATE, DATE-TIME,
// durations, weekday names) and the refusals, each a translatable message with its arguments.
#pragma once

#include "cal/core/dates/recurrence.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cal::detail {

// A DATE-TIME value: its wall clock, and whether it ended in 'Z' (a UTC value).
struct IcalDateTime {
  LocalDateTime local;
  bool utc = false;
};

// "YYYYMMDD" naming a real date (time fields 0); nullopt otherwise.
std::optional<LocalDateTime> parse_ical_date(std::string_view text);

// "YYYYMMDDTHHMMSS" or "...Z" ('T' and 'Z' in either case) naming a real date and time.
std::optional<IcalDateTime> parse_ical_date_time(std::string_view text);

std::string format_ical_date(const LocalDateTime& t);       // "20250107"
std::string format_ical_date_time(const LocalDateTime& t);  // "20250107T093000"
std::string format_ical_utc(Seconds instant);               // "20250107T083000Z"

// A positive RFC 5545 duration ("P2W", "P1DT2H", "PT90M", "+PT1H30M20S"): whole days, which are
// nominal (wall-clock days), and exact seconds. nullopt for a negative or malformed one.
struct IcalDuration {
  std::int64_t days = 0;
  std::int64_t seconds = 0;
};
std::optional<IcalDuration> parse_ical_duration(std::string_view text);

// An exact duration of `seconds` >= 0 in RFC 5545 form without nominal days: "PT2H", "PT1H30M",
// "PT50H", "PT0S".
std::string format_exact_duration(std::int64_t seconds);

// "SU" .. "SA" in either case as 0 .. 6; nullopt otherwise.
std::optional<int> parse_weekday(std::string_view text);

// 0 .. 6 as "SU" .. "SA".
std::string_view weekday_name(int weekday);

// A name a client sent, as a refusal shows it: upper-cased, at most 64 characters.
std::string shown_name(std::string_view name);

// The refusals (RecurrenceError in cal/core/dates/recurrence.h), one per message.
RecurrenceError not_supported(std::string part);
RecurrenceError invalid_value(std::string part);
RecurrenceError repeated(std::string part);
RecurrenceError cannot_combine(std::string part, std::string other);
RecurrenceError requires_part(std::string part, std::string needed);
RecurrenceError requires_one_of(std::string part, std::string choices);
RecurrenceError wrong_value_type(std::string part, std::string value_type);
RecurrenceError exceeds(std::string part, long long limit);
RecurrenceError too_many_values(std::string part, std::size_t limit);
RecurrenceError too_long(std::string part, std::size_t limit);
RecurrenceError does_not_produce_start();
RecurrenceError ends_before_start(std::string part);
RecurrenceError too_many_occurrences(std::size_t limit);

}  // namespace cal::detail
