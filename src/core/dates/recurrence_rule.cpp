// The civil-time dates of an RRULE (recurrence_rule.h). Each period's days are tested one by one
// against the rule's BYxxx parts: at most 366 tests per period, and the same code serves every
// frequency, which keeps the RFC 5545 table of "expand" and "limit" parts in one predicate.
#include "core/dates/recurrence_rule.h"

#include "core/dates/civil_time.h"

#include <algorithm>

namespace cal::detail {
namespace {

constexpr std::int64_t kLastDay = days_from_civil(kMaxYear, 12, 31);

bool contains(const std::vector<int>& values, int value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// What the rule takes from DTSTART when its BYxxx parts leave a field open.
struct Anchor {
  CivilDate date;
  int weekday = 0;
};

// An inclusive range of days.
struct Period {
  std::int64_t first = 0, last = 0;
};

// The `index`-th period of the rule (0: the one holding DTSTART).
Period period_of(const RecurrenceRule& rule, std::int64_t start, const Anchor& anchor, std::int64_t index) {
  const std::int64_t step = index * rule.interval;
  switch (rule.frequency) {
    case Frequency::kDaily:
      return {start + step, start + step};
    case Frequency::kWeekly: {
      const std::int64_t week = start - floor_mod(anchor.weekday - rule.week_start, 7) + 7 * step;
      return {week, week + 6};
    }
    case Frequency::kMonthly: {
      const std::int64_t months = anchor.date.year * 12 + (anchor.date.month - 1) + step;
      const std::int64_t year = floor_div(months, 12);
      const int month = static_cast<int>(floor_mod(months, 12)) + 1;
      const std::int64_t first = days_from_civil(year, month, 1);
      return {first, first + days_in_month(year, month) - 1};
    }
    case Frequency::kYearly:
      break;
  }
  const std::int64_t year = anchor.date.year + step;
  return {days_from_civil(year, 1, 1), days_from_civil(year + 1, 1, 1) - 1};
}

// Whether the `ordinal`-th weekday counted in a range of `length` days matches the day at
// `offset` (0-based) in it: 1 the first such weekday, -1 the last.
bool ordinal_matches(int ordinal, std::int64_t offset, std::int64_t length) {
  return ordinal > 0 ? offset / 7 + 1 == ordinal : (length - 1 - offset) / 7 + 1 == -ordinal;
}

bool weekday_matches(const RecurrenceRule& rule, std::int64_t day, const CivilDate& date, int weekday) {
  for (const WeekdayEntry& entry : rule.by_day) {
    if (entry.weekday != weekday) continue;
    if (entry.ordinal == 0) return true;
    // Ordinals count within the month, or within the year in a YEARLY rule without BYMONTH.
    if (rule.frequency == Frequency::kYearly && rule.by_month.empty()) {
      const std::int64_t year_start = days_from_civil(date.year, 1, 1);
      if (ordinal_matches(entry.ordinal, day - year_start, is_leap_year(date.year) ? 366 : 365)) return true;
    } else if (ordinal_matches(entry.ordinal, date.day - 1, days_in_month(date.year, date.month))) {
      return true;
    }
  }
  return false;
}

bool month_day_matches(const RecurrenceRule& rule, const CivilDate& date) {
  const int length = days_in_month(date.year, date.month);
  for (int value : rule.by_month_day)
    if (value == date.day || length + 1 + value == date.day) return true;
  return false;
}

// Whether the rule selects `day`. BYMONTH limits every frequency; BYMONTHDAY and BYDAY select
// the days they name (both given: days both name); with neither, the day is DTSTART's weekday in a
// week, its day of the month in a month or in a BYMONTH month, its month and day in a year.
bool selects(const RecurrenceRule& rule, const Anchor& anchor, std::int64_t day) {
  const CivilDate date = civil_from_days(day);
  if (!rule.by_month.empty() && !contains(rule.by_month, date.month)) return false;
  if (!rule.by_month_day.empty() && !month_day_matches(rule, date)) return false;
  if (!rule.by_day.empty() && !weekday_matches(rule, day, date, weekday_from_days(day))) return false;
  if (!rule.by_month_day.empty() || !rule.by_day.empty()) return true;
  switch (rule.frequency) {
    case Frequency::kDaily:
      return true;
    case Frequency::kWeekly:
      return weekday_from_days(day) == anchor.weekday;
    case Frequency::kMonthly:
      return date.day == anchor.date.day;
    case Frequency::kYearly:
      break;
  }
  return date.day == anchor.date.day && (!rule.by_month.empty() || date.month == anchor.date.month);
}

// The period's selected days, then BYSETPOS's picks among them (1 the first, -1 the last).
std::vector<std::int64_t> period_dates(const RecurrenceRule& rule, const Anchor& anchor,
                                       const Period& period) {
  std::vector<std::int64_t> days;
  for (std::int64_t day = period.first; day <= std::min(period.last, kLastDay); ++day)
    if (selects(rule, anchor, day)) days.push_back(day);
  if (rule.by_set_pos.empty()) return days;
  std::vector<std::int64_t> picked;
  const auto size = static_cast<std::int64_t>(days.size());
  for (int position : rule.by_set_pos) {
    const std::int64_t index = position > 0 ? position - 1 : size + position;
    if (index >= 0 && index < size) picked.push_back(days[static_cast<std::size_t>(index)]);
  }
  std::sort(picked.begin(), picked.end());
  picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
  return picked;
}

Anchor anchor_of(std::int64_t start) { return Anchor{civil_from_days(start), weekday_from_days(start)}; }

}  // namespace

RuleDates::RuleDates(const RecurrenceRule& rule, std::int64_t start) : rule_(rule), start_(start) {}

std::optional<std::int64_t> RuleDates::next(std::int64_t last_day) {
  const Anchor anchor = anchor_of(start_);
  while (at_ == dates_.size()) {
    const Period period = period_of(rule_, start_, anchor, period_);
    if (period.first > std::min(last_day, kLastDay)) return std::nullopt;
    dates_ = period_dates(rule_, anchor, period);
    // Only the first period holds days before DTSTART.
    if (period_ == 0) dates_.erase(dates_.begin(), std::lower_bound(dates_.begin(), dates_.end(), start_));
    at_ = 0;
    ++period_;
  }
  return dates_[at_++];
}

std::vector<std::int64_t> first_period_dates(const RecurrenceRule& rule, std::int64_t start) {
  const Anchor anchor = anchor_of(start);
  return period_dates(rule, anchor, period_of(rule, start, anchor, 0));
}

}  // namespace cal::detail
