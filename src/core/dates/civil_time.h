// Internal to the dates module (src/core/dates/dates.cpp, time_zone.cpp, posix_tz.cpp, date_scanner.cpp,
// date_parser.cpp); other code uses cal/core/dates/dates.h. Civil-calendar arithmetic on 64-bit day
// counts: dates and wall clocks as fields, days and seconds since 1970-01-01, validity checks.
#pragma once

#include "cal/core/dates/dates.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace cal::detail {

inline constexpr std::int64_t kSecondsPerDay = 86400;
inline constexpr int kMinYear = 1;
inline constexpr int kMaxYear = 9999;

// ---------------------------------------------------------------------------------------------
// Civil calendar on int64 (Howard Hinnant's days_from_civil / civil_from_days algorithms).

struct CivilDate {
  std::int64_t year = 1970;
  int month = 1;
  int day = 1;
};

struct Clock {
  int hour = 0, minute = 0, second = 0;
};

constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}

constexpr std::int64_t floor_mod(std::int64_t a, std::int64_t b) { return a - floor_div(a, b) * b; }

// Days since 1970-01-01 of year/month/1 plus (day - 1); month must be 1..12, day may be any value.
constexpr std::int64_t days_from_civil(std::int64_t year, std::int64_t month, std::int64_t day) {
  year -= month <= 2 ? 1 : 0;
  const std::int64_t era = floor_div(year, 400);
  const std::int64_t year_of_era = year - era * 400;
  const std::int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const std::int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

// Like days_from_civil, but the month may be out of range too and rolls into the year (PHP-style
// overflow: 2025-14-01 is 2026-02-01, 2025-02-31 is 2025-03-03).
constexpr std::int64_t days_from_fields(std::int64_t year, std::int64_t month, std::int64_t day) {
  return days_from_civil(year + floor_div(month - 1, 12), floor_mod(month - 1, 12) + 1, day);
}

constexpr CivilDate civil_from_days(std::int64_t days) {
  days += 719468;
  const std::int64_t era = floor_div(days, 146097);
  const std::int64_t day_of_era = days - era * 146097;
  const std::int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const std::int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const std::int64_t shifted_month = (5 * day_of_year + 2) / 153;
  const int day = static_cast<int>(day_of_year - (153 * shifted_month + 2) / 5 + 1);
  const int month = static_cast<int>(shifted_month < 10 ? shifted_month + 3 : shifted_month - 9);
  return CivilDate{year_of_era + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

// 0 = Sunday .. 6 = Saturday.
constexpr int weekday_from_days(std::int64_t days) { return static_cast<int>(floor_mod(days + 4, 7)); }

constexpr bool is_leap_year(std::int64_t year) {
  return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

constexpr int days_in_month(std::int64_t year, int month) {
  constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap_year(year) ? 29 : kDays[static_cast<std::size_t>(month - 1)];
}

constexpr bool is_valid_date(std::int64_t year, std::int64_t month, std::int64_t day) {
  return year >= kMinYear && year <= kMaxYear && month >= 1 && month <= 12 && day >= 1 &&
         day <= days_in_month(year, static_cast<int>(month));
}

constexpr bool is_valid_clock(std::int64_t hour, std::int64_t minute, std::int64_t second) {
  return hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;
}

constexpr std::int64_t seconds_of_clock(const Clock& clock) {
  return std::int64_t{clock.hour} * 3600 + std::int64_t{clock.minute} * 60 + clock.second;
}

constexpr std::int64_t epoch_seconds(const LocalDateTime& t) {
  return days_from_fields(t.year, t.month, t.day) * kSecondsPerDay + std::int64_t{t.hour} * 3600 +
         std::int64_t{t.minute} * 60 + t.second;
}

// The wall clock `seconds` after 1970-01-01T00:00:00 (seconds may be negative).
LocalDateTime date_time_from_epoch_seconds(std::int64_t seconds);

// The date and the clock as one wall-clock value.
LocalDateTime make_date_time(const CivilDate& date, const Clock& clock);

// The instants this module hands out: 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59Z.
inline constexpr std::int64_t kMinEpochSeconds = days_from_civil(kMinYear, 1, 1) * kSecondsPerDay;
inline constexpr std::int64_t kMaxEpochSeconds = days_from_civil(kMaxYear + 1, 1, 1) * kSecondsPerDay - 1;

// True when the instant (seconds since the epoch) is within kMinEpochSeconds..kMaxEpochSeconds.
bool in_supported_range(std::int64_t epoch_seconds);

}  // namespace cal::detail
