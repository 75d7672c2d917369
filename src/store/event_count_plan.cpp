// The count decomposition of a date window (see event_count_plan.h).
#include "store/event_count_plan.h"

#include <algorithm>

namespace cal {
namespace {

long long seconds(Seconds t) { return t.time_since_epoch().count(); }

long long floor_div(long long a, long long b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
long long ceil_div(long long a, long long b) { return -floor_div(-a, b); }

// The day number of the first day of the UTC month `months_later` after the one holding `day`.
long long month_start(long long day, int months_later) {
  const LocalDateTime d = to_utc_date_time(Seconds(std::chrono::seconds(day * kSecondsPerDay)));
  const Seconds first = from_utc_date_time(LocalDateTime{d.year, d.month + months_later, 1, 0, 0, 0});
  return floor_div(seconds(first), kSecondsPerDay);
}

}  // namespace

std::string utc_second_text(long long second) {
  return format_date_time(to_utc_date_time(Seconds(std::chrono::seconds(second))));
}

std::string utc_day_text(long long day) {
  return format_date(to_utc_date_time(Seconds(std::chrono::seconds(day * kSecondsPerDay))));
}

WindowRanges window_ranges(const EventDateWindow& w) {
  WindowRanges r;
  if (w.start_min) r.start.lo = std::max(r.start.lo, seconds(*w.start_min));
  if (w.start_after) r.start.lo = std::max(r.start.lo, seconds(*w.start_after) + 1);
  if (w.start_before) r.start.hi = std::min(r.start.hi, seconds(*w.start_before) - 1);
  if (w.end_max) r.end.hi = std::min(r.end.hi, seconds(*w.end_max));
  if (w.end_after) r.end.lo = std::max(r.end.lo, seconds(*w.end_after) + 1);
  if (w.end_before) r.end.hi = std::min(r.end.hi, seconds(*w.end_before) - 1);
  return r;
}

MonthSplit split_months(const ClosedRange& days) {
  MonthSplit split;
  if (days.empty()) return split;
  const long long first = month_start(days.lo, 0) == days.lo ? days.lo : month_start(days.lo, 1);
  const long long after = month_start(days.hi + 1, 0);  // the first day of the month past the last whole one
  if (first >= after) {
    split.days.push_back(days);
    return split;
  }
  split.months = ClosedRange{first, after - 1};
  if (days.lo < first) split.days.push_back({days.lo, first - 1});
  if (after <= days.hi) split.days.push_back({after, days.hi});
  return split;
}

WindowCountPlan plan_window_count(const EventDateWindow& window, long long min_duration,
                                  long long max_duration) {
  WindowCountPlan plan;
  const WindowRanges r = window_ranges(window);
  // An end at or after end.lo needs a start at or after end.lo - max_duration; an end at or
  // before end.hi a start at or before end.hi - min_duration.
  ClosedRange start{std::max(r.start.lo, r.end.lo - max_duration),
                    std::min(r.start.hi, r.end.hi - min_duration)};
  if (r.end.empty() || start.empty()) {
    plan.empty = true;
    return plan;
  }
  const long long first_day = ceil_div(start.lo, kSecondsPerDay);
  const long long last_day = floor_div(start.hi + 1, kSecondsPerDay) - 1;
  if (first_day <= last_day) {
    plan.days = ClosedRange{first_day, last_day};
    if (start.lo < first_day * kSecondsPerDay)
      plan.starts.push_back({start.lo, first_day * kSecondsPerDay - 1});
    if ((last_day + 1) * kSecondsPerDay <= start.hi)
      plan.starts.push_back({(last_day + 1) * kSecondsPerDay, start.hi});
  } else {
    plan.starts.push_back(start);
  }
  // Only a start after end.hi - max_duration can end after end.hi; only one before
  // end.lo - min_duration can end before end.lo.
  if (r.end.hi < kLastSecond) {
    const ClosedRange high{std::max(start.lo, r.end.hi - max_duration + 1), start.hi};
    if (!high.empty()) {
      plan.end_high = high;
      plan.end_hi = r.end.hi;
    }
  }
  if (r.end.lo > kFirstSecond) {
    const ClosedRange low{start.lo, std::min(start.hi, r.end.lo - min_duration - 1)};
    if (!low.empty()) {
      plan.end_low = low;
      plan.end_lo = r.end.lo;
    }
  }
  return plan;
}

namespace {

// The seconds from `from` to the end of time as whole UTC days and the part-day before them.
OneSidedPart from_on(long long from) {
  OneSidedPart part;
  const long long first_day = ceil_div(from, kSecondsPerDay);
  if (from < first_day * kSecondsPerDay) part.seconds = ClosedRange{from, first_day * kSecondsPerDay - 1};
  const long long last_day = floor_div(kLastSecond + 1, kSecondsPerDay) - 1;
  if (first_day <= last_day) part.days = ClosedRange{first_day, last_day};
  return part;
}

}  // namespace

std::optional<OneSidedCountPlan> plan_one_sided_count(const EventDateWindow& window, long long max_duration) {
  const WindowRanges r = window_ranges(window);
  if (r.start.hi != kLastSecond || r.end.lo != kFirstSecond || r.end.hi == kLastSecond) return std::nullopt;
  if (r.end.hi < r.start.lo || max_duration > r.end.hi - r.start.lo) return std::nullopt;
  return OneSidedCountPlan{from_on(r.start.lo), from_on(r.end.hi + 1)};
}

}  // namespace cal
