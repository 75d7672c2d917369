// Conversions between seconds since the epoch and wall-clock fields, and the supported range of
// instants, for the dates module (see core/dates/civil_time.h; the arithmetic itself is constexpr
// there).
#include "core/dates/civil_time.h"

#include <cstdint>

namespace cal::detail {

using std::int64_t;

LocalDateTime date_time_from_epoch_seconds(int64_t seconds) {
  const int64_t days = floor_div(seconds, kSecondsPerDay);
  const int64_t of_day = seconds - days * kSecondsPerDay;
  const CivilDate date = civil_from_days(days);
  return LocalDateTime{static_cast<int>(date.year),
                       date.month,
                       date.day,
                       static_cast<int>(of_day / 3600),
                       static_cast<int>(of_day / 60 % 60),
                       static_cast<int>(of_day % 60)};
}

LocalDateTime make_date_time(const CivilDate& date, const Clock& clock) {
  return LocalDateTime{
      static_cast<int>(date.year), date.month, date.day, clock.hour, clock.minute, clock.second};
}

bool in_supported_range(int64_t epoch_seconds) {
  return epoch_seconds >= kMinEpochSeconds && epoch_seconds <= kMaxEpochSeconds;
}

}  // namespace cal::detail
