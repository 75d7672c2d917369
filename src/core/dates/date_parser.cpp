// parse_date (cal/core/dates/dates.h): the date forms the REST API accepts (docs/api.md §6, PHP strtotime
// meanings): Unix timestamps, ISO 8601 with or without an offset, and phrases of dates, keywords,
// weekdays, times of day and relative offsets ("tomorrow 9am", "+5 days", "next wednesday 4pm"),
// resolved in a zone against the current time.
#include "cal/core/dates/dates.h"

#include "core/dates/civil_time.h"
#include "core/dates/date_scanner.h"

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace cal {
namespace {

using detail::CivilDate;
using detail::Clock;
using detail::date_time_from_epoch_seconds;
using detail::days_from_civil;
using detail::days_from_fields;
using detail::floor_mod;
using detail::in_supported_range;
using detail::is_digit;
using detail::is_space;
using detail::kMaxYear;
using detail::kMinYear;
using detail::kSecondsPerDay;
using detail::make_date_time;
using detail::scan_clock24;
using detail::scan_date;
using detail::scan_time_of_day;
using detail::scan_utc_offset;
using detail::Scanner;
using detail::seconds_of_clock;
using detail::weekday_from_days;
using std::int64_t;

constexpr std::size_t kMaxInputLength = 256;

// ---------------------------------------------------------------------------------------------
// Date phrases ("tomorrow 9am", "+5 days", "next wednesday 4pm", "2025-05-02 16:00").

enum class Unit { kSecond, kMinute, kHour, kDay, kWeek, kMonth, kYear };

std::optional<Unit> unit_from_word(std::string_view word) {
  // clang-format off
  static constexpr std::array<std::pair<std::string_view, Unit>, 18> kUnits = {{
      {"sec", Unit::kSecond}, {"secs", Unit::kSecond},
      {"second", Unit::kSecond}, {"seconds", Unit::kSecond},
      {"min", Unit::kMinute}, {"mins", Unit::kMinute},
      {"minute", Unit::kMinute}, {"minutes", Unit::kMinute},
      {"hour", Unit::kHour}, {"hours", Unit::kHour},
      {"day", Unit::kDay}, {"days", Unit::kDay},
      {"week", Unit::kWeek}, {"weeks", Unit::kWeek},
      {"month", Unit::kMonth}, {"months", Unit::kMonth},
      {"year", Unit::kYear}, {"years", Unit::kYear},
  }};
  // clang-format on
  for (const auto& [name, unit] : kUnits) {
    if (name == word) return unit;
  }
  return std::nullopt;
}

// 0 = Sunday .. 6 = Saturday.
std::optional<int> weekday_from_word(std::string_view word) {
  // clang-format off
  static constexpr std::array<std::pair<std::string_view, int>, 17> kWeekdays = {{
      {"sunday", 0}, {"sun", 0},
      {"monday", 1}, {"mon", 1},
      {"tuesday", 2}, {"tue", 2}, {"tues", 2},
      {"wednesday", 3}, {"wed", 3},
      {"thursday", 4}, {"thu", 4}, {"thur", 4}, {"thurs", 4},
      {"friday", 5}, {"fri", 5},
      {"saturday", 6}, {"sat", 6},
  }};
  // clang-format on
  for (const auto& [name, weekday] : kWeekdays) {
    if (name == word) return weekday;
  }
  return std::nullopt;
}

// Offsets accumulated from "+N unit" items: calendar parts move the wall clock, `seconds` the
// instant.
struct Relative {
  int64_t years = 0, months = 0, days = 0, seconds = 0;
  bool moves_clock = false;  // some second/minute/hour offset was given

  void add(Unit unit, int64_t n) {
    switch (unit) {
      case Unit::kSecond:
        seconds += n;
        moves_clock = true;
        break;
      case Unit::kMinute:
        seconds += n * 60;
        moves_clock = true;
        break;
      case Unit::kHour:
        seconds += n * 3600;
        moves_clock = true;
        break;
      case Unit::kDay:
        days += n;
        break;
      case Unit::kWeek:
        days += n * 7;
        break;
      case Unit::kMonth:
        months += n;
        break;
      case Unit::kYear:
        years += n;
        break;
    }
  }
};

enum class WeekdayMode { kThisOrNext, kNext, kLast };

// What a phrase said, before resolving it against a zone and a current time.
struct Phrase {
  enum class Base { kNone, kNow, kDate, kDayShift, kWeekday };
  Base base = Base::kNone;  // at most one of: a date, now/today/tomorrow/yesterday, a weekday
  CivilDate date;           // kDate
  int day_shift = 0;        // kDayShift: today 0, tomorrow 1, yesterday -1
  int weekday = 0;          // kWeekday, 0 = Sunday
  WeekdayMode weekday_mode = WeekdayMode::kThisOrNext;
  std::optional<Clock> time;  // an explicit time of day
  Relative relative;

  // True when the base starts the day at 00:00 instead of keeping the current time.
  bool resets_time() const {
    return base == Base::kDate || base == Base::kDayShift || base == Base::kWeekday;
  }
};

bool set_base(Phrase& p, Phrase::Base base) {
  if (p.base != Phrase::Base::kNone) return false;
  p.base = base;
  return true;
}

bool set_time(Phrase& p, Clock clock) {
  if (p.time) return false;
  p.time = clock;
  return true;
}

bool set_weekday(Phrase& p, int weekday, WeekdayMode mode) {
  p.weekday = weekday;
  p.weekday_mode = mode;
  return set_base(p, Phrase::Base::kWeekday);
}

bool set_day_shift(Phrase& p, int shift) {
  p.day_shift = shift;
  return set_base(p, Phrase::Base::kDayShift);
}

// "+5 days", "-1 week", "3 hours", "2 days ago", "+1day".
bool scan_relative_item(Scanner& s, Phrase& p) {
  int64_t sign = 1;
  if (s.eat('-')) {
    sign = -1;
  } else {
    s.eat('+');
  }
  const auto count = s.number(1, 9);
  if (!count) return false;
  s.skip_spaces();
  const auto unit = unit_from_word(s.word());
  if (!unit) return false;
  Scanner probe = s;
  if (probe.skip_spaces() && probe.word() == "ago") {
    s = probe;
    sign = -sign;
  }
  p.relative.add(*unit, sign * *count);
  return true;
}

// An item starting with a digit: a date, a time of day or a relative offset.
bool scan_numeric_item(Scanner& s, Phrase& p) {
  Scanner probe = s;
  if (const auto date = scan_date(probe)) {
    s = probe;
    p.date = *date;
    return set_base(p, Phrase::Base::kDate);
  }
  probe = s;
  if (const auto clock = scan_time_of_day(probe)) {
    s = probe;
    return set_time(p, *clock);
  }
  return scan_relative_item(s, p);
}

// "next friday", "last mon", "this sunday", "next week", "last year".
bool scan_next_last_item(Scanner& s, Phrase& p, std::string_view keyword) {
  if (!s.skip_spaces()) return false;
  const std::string_view word = s.word();
  if (const auto weekday = weekday_from_word(word)) {
    const WeekdayMode mode = keyword == "next"   ? WeekdayMode::kNext
                             : keyword == "this" ? WeekdayMode::kThisOrNext
                                                 : WeekdayMode::kLast;
    return set_weekday(p, *weekday, mode);
  }
  const auto unit = unit_from_word(word);
  if (!unit || keyword == "this") return false;
  p.relative.add(*unit, keyword == "next" ? 1 : -1);
  return true;
}

// An item starting with a letter: a keyword or a weekday.
bool scan_word_item(Scanner& s, Phrase& p) {
  const std::string_view word = s.word();
  if (word == "now") return set_base(p, Phrase::Base::kNow);
  if (word == "today") return set_day_shift(p, 0);
  if (word == "tomorrow") return set_day_shift(p, 1);
  if (word == "yesterday") return set_day_shift(p, -1);
  if (word == "noon") return set_time(p, Clock{12, 0, 0});
  if (word == "midnight") return set_time(p, Clock{0, 0, 0});
  if (word == "next" || word == "last" || word == "previous" || word == "this") {
    return scan_next_last_item(s, p, word);
  }
  if (const auto weekday = weekday_from_word(word)) {
    return set_weekday(p, *weekday, WeekdayMode::kThisOrNext);
  }
  return false;
}

bool scan_item(Scanner& s, Phrase& p) {
  const char c = s.peek();
  if (is_digit(c)) return scan_numeric_item(s, p);
  if (c == '+' || c == '-') return scan_relative_item(s, p);
  if (ascii::is_lower(c)) return scan_word_item(s, p);
  return false;
}

// Space-separated items until the end of the (trimmed) text.
std::optional<Phrase> scan_phrase(std::string_view text) {
  Scanner s(text);
  Phrase phrase;
  while (!s.at_end()) {
    if (!scan_item(s, phrase) || !s.at_boundary()) return std::nullopt;
    s.skip_spaces();
  }
  return phrase;
}

// Days from `today` (a weekday) to the target weekday under the mode.
int weekday_offset(int today, int target, WeekdayMode mode) {
  const int ahead = static_cast<int>(floor_mod(target - today, 7));
  const int behind = static_cast<int>(floor_mod(today - target, 7));
  switch (mode) {
    case WeekdayMode::kThisOrNext:
      return ahead;
    case WeekdayMode::kNext:
      return ahead == 0 ? 7 : ahead;
    case WeekdayMode::kLast:
      return -(behind == 0 ? 7 : behind);
  }
  return 0;
}

std::optional<ParsedDate> make_result(Seconds instant, const TimeZone& zone, bool has_time) {
  if (!in_supported_range(instant.time_since_epoch().count())) return std::nullopt;
  const LocalDateTime local = zone.to_local(instant);
  if (local.year < kMinYear || local.year > kMaxYear) return std::nullopt;
  return ParsedDate{instant, local, has_time};
}

std::optional<ParsedDate> resolve_phrase(const Phrase& p, const TimeZone& zone, Seconds now) {
  const LocalDateTime now_local = zone.to_local(now);
  const CivilDate base =
      p.base == Phrase::Base::kDate ? p.date : CivilDate{now_local.year, now_local.month, now_local.day};
  Clock clock{now_local.hour, now_local.minute, now_local.second};
  if (p.resets_time()) clock = Clock{};
  if (p.time) clock = *p.time;

  int64_t day_shift = 0;
  if (p.base == Phrase::Base::kDayShift) day_shift = p.day_shift;
  if (p.base == Phrase::Base::kWeekday) {
    const int today = weekday_from_days(days_from_civil(base.year, base.month, base.day));
    day_shift = weekday_offset(today, p.weekday, p.weekday_mode);
  }
  const Relative& rel = p.relative;
  const int64_t days =
      days_from_fields(base.year + rel.years, base.month + rel.months, base.day + rel.days + day_shift);
  const int64_t wall = days * kSecondsPerDay + seconds_of_clock(clock);
  if (!in_supported_range(wall)) return std::nullopt;
  const Seconds instant =
      zone.to_instant(date_time_from_epoch_seconds(wall)) + std::chrono::seconds{rel.seconds};
  const bool has_time = p.time.has_value() || !p.resets_time() || rel.moves_clock;
  return make_result(instant, zone, has_time);
}

// "1700000000", "@1700000000", "@-86400" (at most 12 digits).
std::optional<Seconds> parse_timestamp(std::string_view text) {
  Scanner s(text);
  const bool at = s.eat('@');
  const bool negative = at && s.eat('-');
  const auto value = s.number(1, 12);
  if (!value || !s.at_end()) return std::nullopt;
  return Seconds{std::chrono::seconds{negative ? -*value : *value}};
}

// "2025-05-02T09:00[:00][.123][Z|+02:00|+0200]" (the 'T' may also be spaces).
std::optional<ParsedDate> parse_iso8601(std::string_view text, const TimeZone& zone) {
  Scanner s(text);
  const auto date = scan_date(s);
  if (!date || !(s.eat('t') || s.skip_spaces())) return std::nullopt;
  const auto clock = scan_clock24(s, false);
  if (!clock) return std::nullopt;
  if ((s.eat('.') || s.eat(',')) && s.digits().empty()) return std::nullopt;
  std::optional<int> offset;
  if (!s.at_end()) {
    offset = scan_utc_offset(s);
    if (!offset || !s.at_end()) return std::nullopt;
  }
  const LocalDateTime local = make_date_time(*date, *clock);
  const Seconds instant =
      offset ? from_utc_date_time(local) - std::chrono::seconds{*offset} : zone.to_instant(local);
  return make_result(instant, zone, true);
}

// Trimmed, ASCII-lower-cased text; nullopt when empty or unreasonably long.
std::optional<std::string> normalize_input(std::string_view text) {
  text = ascii::trim(text);
  if (text.empty() || text.size() > kMaxInputLength) return std::nullopt;
  return ascii::lower(text);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Public functions.

std::optional<ParsedDate> parse_date(std::string_view text, const TimeZone& zone, Seconds now) {
  try {
    const std::optional<std::string> input = normalize_input(text);
    if (!input) return std::nullopt;
    if (const auto timestamp = parse_timestamp(*input)) return make_result(*timestamp, zone, true);
    if (auto iso = parse_iso8601(*input, zone)) return iso;
    const std::optional<Phrase> phrase = scan_phrase(*input);
    if (!phrase) return std::nullopt;
    return resolve_phrase(*phrase, zone, now);
  } catch (const std::exception&) {
    return std::nullopt;  // only allocation failure can get here
  }
}

}  // namespace cal
