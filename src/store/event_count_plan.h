// Internal to src/store/ (and its unit test): the arithmetic of an exact event count over a date
// window without a row per event, so a count costs the same at any site size. Rows are counted by UTC start:
// whole UTC months come from the event_month_counts rollup, the other whole UTC days from event_day_counts,
// the partial days at the ends from the start index.
// The end bounds need no scan of the window: an event lasts between min_duration and max_duration seconds
// (bounds kept in event_duration_hours), so only events starting within max_duration before the upper end
// bound can end after it, and only those starting within min_duration of the lower one can end before it;
// those two bounded stretches are counted from the index and subtracted. Pure functions of their arguments:
// the SQL is in event_window_list.cpp.
#pragma once

#include "cal/store/event_filter.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

// Whole seconds since 1970 UTC; the DATETIME range bounds every unbounded side.
inline constexpr long long kFirstSecond = -30610224000LL;  // 1000-01-01 00:00:00
inline constexpr long long kLastSecond = 253402300799LL;   // 9999-12-31 23:59:59
inline constexpr long long kSecondsPerDay = 86400;

// A closed range of seconds (or of day numbers); empty when lo > hi.
struct ClosedRange {
  long long lo = 0;
  long long hi = -1;
  bool empty() const { return lo > hi; }
  bool operator==(const ClosedRange&) const = default;
};

// The window as closed ranges of start and end seconds (strict bounds moved by one second:
// DATETIME holds whole seconds), unbounded sides at kFirstSecond / kLastSecond.
struct WindowRanges {
  ClosedRange start{kFirstSecond, kLastSecond};
  ClosedRange end{kFirstSecond, kLastSecond};
};
WindowRanges window_ranges(const EventDateWindow& window);

struct WindowCountPlan {
  bool empty = false;                   // nothing can match: the count is 0
  std::optional<ClosedRange> days;      // UTC day numbers (seconds / 86400) summed from rollups
  std::vector<ClosedRange> starts;      // + rows starting in each (partial days), any end
  std::optional<ClosedRange> end_high;  // - rows starting here that end after `end_hi`
  long long end_hi = kLastSecond;
  std::optional<ClosedRange> end_low;  // - rows starting here that end before `end_lo`
  long long end_lo = kFirstSecond;
};

// The count of events with start and end in `window` as rollup days plus scans, given that
// every event lasts between min_duration and max_duration seconds (end - start).
WindowCountPlan plan_window_count(const EventDateWindow& window, long long min_duration,
                                  long long max_duration);

// A window bounded only by a least start S and a latest end H (the default list, start_date with
// end_date) counted as two one-sided counts: the events starting at S or later, less those ending
// after H. The two sets differ only by events starting before S and ending after H, which cannot
// exist while every event lasts at most H - S: then the count reads rollups and at most a part-day
// of each index, however long the longest event, where plan_window_count() reads every start
// within the longest duration before H. Each side: whole UTC days (from the day rollups, by start
// or by end) and the part-day before the first whole one (from the index).
struct OneSidedPart {
  std::optional<ClosedRange> days;     // UTC day numbers
  std::optional<ClosedRange> seconds;  // the part-day, in seconds
};
struct OneSidedCountPlan {
  OneSidedPart starts;  // + events starting here
  OneSidedPart ends;    // - events ending here
};
// nullopt when the window has another bound, is empty, or an event may last longer than H - S.
std::optional<OneSidedCountPlan> plan_one_sided_count(const EventDateWindow& window, long long max_duration);

// Whole days `days` as the whole UTC months inside them (months: from the first day of the first
// to the last day of the last; none when no month fits) and the days before and after those: a
// rollup by month then sums a row per month instead of a row per day.
struct MonthSplit {
  std::optional<ClosedRange> months;
  std::vector<ClosedRange> days;
};
MonthSplit split_months(const ClosedRange& days);

// A second (a day number) as the DATETIME (DATE) text the count statements bind.
std::string utc_second_text(long long second);
std::string utc_day_text(long long day);

// Duration bounds in seconds from the whole hours in event_duration_hours.
inline long long min_duration_of(long long min_hours) { return min_hours * 3600; }
inline long long max_duration_of(long long max_hours) { return max_hours * 3600 + 3599; }

}  // namespace cal
