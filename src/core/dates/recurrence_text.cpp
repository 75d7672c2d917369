// The value forms and refusals of the recurrence module (recurrence_text.h).
#include "core/dates/recurrence_text.h"

#include "core/dates/civil_time.h"
#include "core/dates/date_scanner.h"
#include "cal/core/text/ascii.h"

#include <array>
#include <cstdio>
#include <utility>

namespace cal::detail {
namespace {

constexpr std::array<std::string_view, 7> kWeekdays = {"SU", "MO", "TU", "WE", "TH", "FR", "SA"};
constexpr std::int64_t kMaxDays = 3'660'000;  // a little over 10,000 years

// Fixed-width digits at `text[at..at+n)`; nullopt when any is not a digit.
std::optional<int> fixed_digits(std::string_view text, std::size_t at, std::size_t n) {
  if (at + n > text.size()) return std::nullopt;
  const std::string_view run = text.substr(at, n);
  if (!ascii::all_digits(run)) return std::nullopt;
  return to_int(run);
}

std::string format_fields(const char* format, const LocalDateTime& t) {
  std::array<char, 96> buffer{};
  std::snprintf(buffer.data(), buffer.size(), format, t.year, t.month, t.day, t.hour, t.minute, t.second);
  return buffer.data();
}

RecurrenceError refusal(std::string part, const char* message, std::vector<std::string> args) {
  return RecurrenceError{std::move(part), message, std::move(args)};
}

}  // namespace

std::optional<LocalDateTime> parse_ical_date(std::string_view text) {
  if (text.size() != 8) return std::nullopt;
  const auto year = fixed_digits(text, 0, 4), month = fixed_digits(text, 4, 2),
             day = fixed_digits(text, 6, 2);
  if (!year || !month || !day || !is_valid_date(*year, *month, *day)) return std::nullopt;
  return LocalDateTime{*year, *month, *day, 0, 0, 0};
}

std::optional<IcalDateTime> parse_ical_date_time(std::string_view text) {
  IcalDateTime value;
  if (!text.empty() && (text.back() == 'Z' || text.back() == 'z')) {
    value.utc = true;
    text.remove_suffix(1);
  }
  if (text.size() != 15 || (text[8] != 'T' && text[8] != 't')) return std::nullopt;
  const auto date = parse_ical_date(text.substr(0, 8));
  const auto hour = fixed_digits(text, 9, 2), minute = fixed_digits(text, 11, 2),
             second = fixed_digits(text, 13, 2);
  if (!date || !hour || !minute || !second || !is_valid_clock(*hour, *minute, *second)) return std::nullopt;
  value.local = LocalDateTime{date->year, date->month, date->day, *hour, *minute, *second};
  return value;
}

std::string format_ical_date(const LocalDateTime& t) { return format_fields("%04d%02d%02d", t); }

std::string format_ical_date_time(const LocalDateTime& t) {
  return format_fields("%04d%02d%02dT%02d%02d%02d", t);
}

std::string format_ical_utc(Seconds instant) {
  return format_ical_date_time(to_utc_date_time(instant)) + "Z";
}

std::optional<IcalDuration> parse_ical_duration(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty() || ascii::to_upper(text.front()) != 'P') return std::nullopt;
  text.remove_prefix(1);
  IcalDuration duration;
  bool in_time = false, any = false, weeks = false;
  char last_unit = 0;
  // Units in their order: W alone, else D, then after T: H, M, S.
  constexpr std::string_view kOrder = "DTHMS";
  while (!text.empty()) {
    const char first = ascii::to_upper(text.front());
    if (first == 'T') {
      if (in_time || weeks) return std::nullopt;
      in_time = true;
      last_unit = 'T';
      text.remove_prefix(1);
      continue;
    }
    std::size_t n = 0;
    std::int64_t value = 0;
    for (; n < text.size() && ascii::is_digit(text[n]); ++n)
      if (n < 12) value = value * 10 + (text[n] - '0');  // longer runs are refused below
    if (n == 0 || n > 12 || n == text.size()) return std::nullopt;
    const char unit = ascii::to_upper(text[n]);
    text.remove_prefix(n + 1);
    if (weeks) return std::nullopt;  // nothing follows weeks
    if (unit == 'W' && !any && !in_time) {
      weeks = true;
      duration.days = value * 7;
    } else if (unit == 'D' && !in_time && !any) {
      duration.days = value;
    } else if ((unit == 'H' || unit == 'M' || unit == 'S') && in_time &&
               kOrder.find(unit) > kOrder.find(last_unit)) {
      duration.seconds += value * (unit == 'H' ? 3600 : unit == 'M' ? 60 : 1);
    } else {
      return std::nullopt;
    }
    last_unit = unit;
    any = true;
  }
  // Longer than the calendar's 10,000 years is no duration of an event (and would overflow).
  if (!any || last_unit == 'T' || duration.days > kMaxDays || duration.seconds > kMaxDays * kSecondsPerDay)
    return std::nullopt;
  return duration;
}

std::string format_exact_duration(std::int64_t seconds) {
  if (seconds == 0) return "PT0S";
  std::string text = "PT";
  if (const std::int64_t hours = seconds / 3600; hours != 0) text += std::to_string(hours) + "H";
  if (const std::int64_t minutes = seconds / 60 % 60; minutes != 0) text += std::to_string(minutes) + "M";
  if (const std::int64_t rest = seconds % 60; rest != 0) text += std::to_string(rest) + "S";
  return text;
}

std::optional<int> parse_weekday(std::string_view text) {
  for (std::size_t i = 0; i < kWeekdays.size(); ++i)
    if (ascii::iequals(text, kWeekdays[i])) return static_cast<int>(i);
  return std::nullopt;
}

std::string_view weekday_name(int weekday) { return kWeekdays[static_cast<std::size_t>(weekday)]; }

std::string shown_name(std::string_view name) { return ascii::upper(name.substr(0, 64)); }

// ---------------------------------------------------------------------------------------------
// Refusals. Each message names the part it refuses, so a client can tell which one to change.

RecurrenceError not_supported(std::string part) {
  std::string shown = part;
  return refusal(std::move(part), "The recurrence part %s is not supported.", {std::move(shown)});
}

RecurrenceError invalid_value(std::string part) {
  std::string shown = part;
  return refusal(std::move(part), "The recurrence part %s has an invalid value.", {std::move(shown)});
}

RecurrenceError repeated(std::string part) {
  std::string shown = part;
  return refusal(std::move(part), "The recurrence part %s is given more than once.", {std::move(shown)});
}

RecurrenceError cannot_combine(std::string part, std::string other) {
  std::string shown = part;
  return refusal(std::move(part), "The recurrence parts %1$s and %2$s cannot be combined.",
                 {std::move(shown), std::move(other)});
}

RecurrenceError requires_part(std::string part, std::string needed) {
  std::string shown = part;
  return refusal(std::move(part), "The recurrence part %1$s requires %2$s.",
                 {std::move(shown), std::move(needed)});
}

RecurrenceError requires_one_of(std::string part, std::string choices) {
  std::string shown = part;
  return refusal(std::move(part), "The recurrence part %1$s requires one of %2$s.",
                 {std::move(shown), std::move(choices)});
}

RecurrenceError wrong_value_type(std::string part, std::string value_type) {
  std::string shown = part;
  return refusal(std::move(part), "The recurrence part %1$s must be a %2$s value for this event.",
                 {std::move(shown), std::move(value_type)});
}

RecurrenceError exceeds(std::string part, long long limit) {
  std::string shown = part;
  return refusal(std::move(part), "The recurrence part %1$s may not exceed %2$s.",
                 {std::move(shown), std::to_string(limit)});
}

RecurrenceError too_many_values(std::string part, std::size_t limit) {
  std::string shown = part;
  return refusal(std::move(part), "The recurrence part %1$s may have at most %2$s values.",
                 {std::move(shown), std::to_string(limit)});
}

RecurrenceError too_long(std::string part, std::size_t limit) {
  std::string shown = part;
  return refusal(std::move(part), "The recurrence part %1$s may have at most %2$s characters.",
                 {std::move(shown), std::to_string(limit)});
}

RecurrenceError does_not_produce_start() {
  return refusal("RRULE", "The recurrence rule does not produce the event's start.", {});
}

RecurrenceError ends_before_start(std::string part) {
  std::string shown = part;
  return refusal(std::move(part), "The recurrence part %s ends before the event's start.",
                 {std::move(shown)});
}

RecurrenceError too_many_occurrences(std::size_t limit) {
  return refusal("RRULE", "The recurrence has more than %s occurrences.", {std::to_string(limit)});
}

}  // namespace cal::detail
