// The scanners of the date forms' building blocks for the dates module (see
// core/dates/date_scanner.h): dates, 24-hour clock times, times of day with am/pm, UTC offsets.
#include "core/dates/date_scanner.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace cal::detail {

using std::int64_t;

std::optional<CivilDate> scan_date(Scanner& s) {
  const auto year = s.number(4, 4);
  if (!year || !s.eat('-')) return std::nullopt;
  const auto month = s.number(2, 2);
  if (!month || !s.eat('-')) return std::nullopt;
  const auto day = s.number(2, 2);
  if (!day || !is_valid_date(*year, *month, *day)) return std::nullopt;
  return CivilDate{*year, static_cast<int>(*month), static_cast<int>(*day)};
}

std::optional<Clock> scan_clock24(Scanner& s, bool seconds_required) {
  const auto hour = s.number(2, 2);
  if (!hour || !s.eat(':')) return std::nullopt;
  const auto minute = s.number(2, 2);
  if (!minute) return std::nullopt;
  std::optional<int64_t> second = 0;
  if (s.eat(':')) {
    second = s.number(2, 2);
  } else if (seconds_required) {
    return std::nullopt;
  }
  if (!second || !is_valid_clock(*hour, *minute, *second)) return std::nullopt;
  return Clock{static_cast<int>(*hour), static_cast<int>(*minute), static_cast<int>(*second)};
}

std::optional<Clock> scan_time_of_day(Scanner& s) {
  Scanner probe = s;
  const auto hour = probe.number(1, 2);
  if (!hour) return std::nullopt;
  int64_t minute = 0;
  int64_t second = 0;
  const bool has_minutes = probe.eat(':');
  if (has_minutes) {
    const auto m = probe.number(2, 2);
    if (!m) return std::nullopt;
    minute = *m;
    if (probe.eat(':')) {
      const auto sec = probe.number(2, 2);
      if (!sec) return std::nullopt;
      second = *sec;
    }
  }
  Scanner meridiem = probe;
  meridiem.skip_spaces();
  const std::string_view suffix = meridiem.word();
  int64_t h = *hour;
  if (suffix == "am" || suffix == "pm") {
    if (h < 1 || h > 12) return std::nullopt;
    h = h % 12 + (suffix == "pm" ? 12 : 0);
    probe = meridiem;
  } else if (!has_minutes) {
    return std::nullopt;  // a bare number is not a time
  }
  if (!is_valid_clock(h, minute, second)) return std::nullopt;
  s = probe;
  return Clock{static_cast<int>(h), static_cast<int>(minute), static_cast<int>(second)};
}

std::optional<int> scan_utc_offset(Scanner& s) {
  if (s.eat('z')) return 0;
  int sign = 1;
  if (s.eat('-')) {
    sign = -1;
  } else if (!s.eat('+')) {
    return std::nullopt;
  }
  const std::string_view run = s.digits();
  std::string_view hours = run;
  std::string_view minutes;
  if (run.size() == 4) {
    hours = run.substr(0, 2);
    minutes = run.substr(2);
  } else if (run.size() == 2 && s.eat(':')) {
    minutes = s.digits();
    if (minutes.size() != 2) return std::nullopt;
  }
  if (hours.size() != 2) return std::nullopt;
  const int h = to_int(hours);
  const int m = minutes.empty() ? 0 : to_int(minutes);
  if (h > 23 || m > 59) return std::nullopt;
  return sign * (h * 3600 + m * 60);
}

}  // namespace cal::detail
