// Unit tests of the count decomposition of a date window (src/store/event_count_plan.h): the
// rollup days, partial-day scans and end-bound corrections it plans must give exactly the count
// of a brute-force filter, for any window and any events within the duration bounds.
#include "store/event_count_plan.h"

#include <doctest/doctest.h>

#include <random>
#include <vector>

namespace {

using cal::ClosedRange;
using cal::EventDateWindow;
using cal::Seconds;

struct Ev {
  long long start, end;
};

Seconds at(long long s) { return Seconds(std::chrono::seconds(s)); }
long long sec(const std::optional<Seconds>& t) { return t->time_since_epoch().count(); }

bool in_window(const Ev& e, const EventDateWindow& w) {
  if (w.start_min && e.start < sec(w.start_min)) return false;
  if (w.start_after && e.start <= sec(w.start_after)) return false;
  if (w.start_before && e.start >= sec(w.start_before)) return false;
  if (w.end_max && e.end > sec(w.end_max)) return false;
  if (w.end_after && e.end <= sec(w.end_after)) return false;
  if (w.end_before && e.end >= sec(w.end_before)) return false;
  return true;
}

bool in(const ClosedRange& r, long long v) { return r.lo <= v && v <= r.hi; }

long long floor_day(long long s) { return s >= 0 ? s / 86400 : -((-s + 86399) / 86400); }

// The UTC day number of a date.
long long day_of(int year, int month, int day) {
  return floor_day(cal::from_utc_date_time({year, month, day, 0, 0, 0}).time_since_epoch().count());
}

// The count as the store computes it from a plan: rollup days + scans - corrections.
long long planned_count(const std::vector<Ev>& events, const EventDateWindow& w, long long min_d,
                        long long max_d) {
  const cal::WindowCountPlan plan = cal::plan_window_count(w, min_d, max_d);
  if (plan.empty) return 0;
  long long n = 0;
  for (const Ev& e : events) {
    if (plan.days) {
      // As the window list sums them: whole months from the month rollup, the rest by day.
      const cal::MonthSplit split = cal::split_months(*plan.days);
      if (split.months && in(*split.months, floor_day(e.start))) ++n;
      for (const ClosedRange& r : split.days)
        if (in(r, floor_day(e.start))) ++n;
    }
    for (const ClosedRange& r : plan.starts)
      if (in(r, e.start)) ++n;
    if (plan.end_high && in(*plan.end_high, e.start) && e.end > plan.end_hi) --n;
    if (plan.end_low && in(*plan.end_low, e.start) && e.end < plan.end_lo) --n;
  }
  return n;
}

}  // namespace

TEST_CASE("plan_window_count: whole days from the rollup, partial days and end bounds scanned") {
  EventDateWindow w;
  const long long day = 86400, d0 = 20000 * day;
  w.start_min = at(d0 + 3600);           // 01:00 of day 20000
  w.end_max = at(d0 + 10 * day + 7199);  // 01:59:59 of day 20010
  const auto plan = cal::plan_window_count(w, 0, 2 * day);
  REQUIRE_FALSE(plan.empty);
  REQUIRE(plan.days.has_value());
  CHECK(*plan.days == ClosedRange{20001, 20009});
  REQUIRE(plan.starts.size() == 2);
  CHECK(plan.starts[0] == ClosedRange{d0 + 3600, d0 + day - 1});
  CHECK(plan.starts[1] == ClosedRange{d0 + 10 * day, d0 + 10 * day + 7199});
  // Only events starting within the longest duration before the end bound are scanned.
  REQUIRE(plan.end_high.has_value());
  CHECK(*plan.end_high == ClosedRange{d0 + 8 * day + 7200, d0 + 10 * day + 7199});
  CHECK(plan.end_hi == d0 + 10 * day + 7199);
  CHECK_FALSE(plan.end_low.has_value());
}

TEST_CASE("plan_window_count: an end-only window starts at most the longest duration before it") {
  EventDateWindow w;
  w.end_after = at(1000 * 86400);
  const auto plan = cal::plan_window_count(w, 3600, 3 * 86400);
  REQUIRE_FALSE(plan.empty);
  REQUIRE(plan.end_low.has_value());
  CHECK(plan.end_low->lo == 997 * 86400 + 1);
  CHECK(plan.end_low->hi == 1000 * 86400 + 1 - 3600 - 1);
  // Ends by the last second: 9999-12-30 is the last whole day, December the part-month after
  // the last whole month.
  const long long last_day = (cal::kLastSecond - 3600 + 1) / 86400 - 1;
  REQUIRE(plan.days.has_value());
  CHECK(plan.days->hi == last_day);
  const cal::MonthSplit split = cal::split_months(*plan.days);
  REQUIRE(split.months.has_value());
  CHECK(split.months->hi == day_of(9999, 11, 30));
  REQUIRE_FALSE(split.days.empty());
  CHECK(split.days.back() == ClosedRange{day_of(9999, 12, 1), last_day});
  // Impossible windows are empty without any scan.
  EventDateWindow none;
  none.start_min = at(5000);
  none.end_before = at(5000);
  CHECK(cal::plan_window_count(none, 0, 100).empty);
  EventDateWindow crossed;
  crossed.end_after = at(9000);
  crossed.end_max = at(8000);
  CHECK(cal::plan_window_count(crossed, 0, 100000).empty);
}

TEST_CASE("plan_window_count gives the brute-force count for random windows and events") {
  std::mt19937_64 rng(14);
  const long long day = 86400;
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  for (int round = 0; round < 300; ++round) {
    // Durations bounded as event_duration_hours bounds them: sometimes negative, sometimes long.
    const long long min_d = pick(0, 3) == 0 ? -pick(0, 7200) : pick(0, 3600);
    const long long max_d = min_d + pick(0, 5 * day);
    std::vector<Ev> events;
    const long long base = pick(-3, 3) * 400 * day;  // before and after 1970 too
    for (int i = 0; i < 200; ++i) {
      const long long start = base + pick(0, 20 * day);
      events.push_back({start, start + pick(min_d, max_d)});
    }
    EventDateWindow w;
    auto instant = [&] { return at(base + pick(-2 * day, 22 * day)); };
    if (pick(0, 1)) w.start_min = instant();
    if (pick(0, 2) == 0) w.start_after = instant();
    if (pick(0, 2) == 0) w.start_before = instant();
    if (pick(0, 1)) w.end_max = instant();
    if (pick(0, 2) == 0) w.end_after = instant();
    if (pick(0, 2) == 0) w.end_before = instant();
    long long expected = 0;
    for (const Ev& e : events) expected += in_window(e, w);
    CHECK_MESSAGE(planned_count(events, w, min_d, max_d) == expected, "round ", round);
    // Day-aligned bounds (the site in UTC, whole days) too.
    EventDateWindow aligned;
    aligned.start_min = at(base + pick(0, 10) * day);
    aligned.end_max = at(base + pick(5, 25) * day - 1);
    long long expected_aligned = 0;
    for (const Ev& e : events) expected_aligned += in_window(e, aligned);
    CHECK(planned_count(events, aligned, min_d, max_d) == expected_aligned);
  }
}

TEST_CASE("split_months: whole months from the month rollup, the days around them from the day rollup") {
  struct Case {
    ClosedRange days;
    std::optional<ClosedRange> months;
    std::vector<ClosedRange> rest;
  } const cases[] = {
      // The default window's shape: part of a month, whole months, part of a month.
      {{day_of(2026, 11, 26), day_of(2028, 11, 26)},
       ClosedRange{day_of(2026, 12, 1), day_of(2028, 10, 31)},
       {{day_of(2026, 11, 26), day_of(2026, 11, 30)}, {day_of(2028, 11, 1), day_of(2028, 11, 26)}}},
      // Exactly whole months, leap February included: no days left.
      {{day_of(2024, 2, 1), day_of(2024, 3, 31)}, ClosedRange{day_of(2024, 2, 1), day_of(2024, 3, 31)}, {}},
      // One whole February of a century year that is not a leap year, a day either side.
      {{day_of(1900, 1, 31), day_of(1900, 3, 1)},
       ClosedRange{day_of(1900, 2, 1), day_of(1900, 2, 28)},
       {{day_of(1900, 1, 31), day_of(1900, 1, 31)}, {day_of(1900, 3, 1), day_of(1900, 3, 1)}}},
      // Leap day 2000 at the end: February is not whole without it.
      {{day_of(2000, 1, 1), day_of(2000, 2, 28)},
       ClosedRange{day_of(2000, 1, 1), day_of(2000, 1, 31)},
       {{day_of(2000, 2, 1), day_of(2000, 2, 28)}}},
      // Within one month, or across two without a whole one: days only.
      {{day_of(2026, 3, 2), day_of(2026, 3, 30)}, std::nullopt, {{day_of(2026, 3, 2), day_of(2026, 3, 30)}}},
      {{day_of(2026, 3, 2), day_of(2026, 4, 29)}, std::nullopt, {{day_of(2026, 3, 2), day_of(2026, 4, 29)}}},
      {{day_of(2026, 3, 5), day_of(2026, 3, 5)}, std::nullopt, {{day_of(2026, 3, 5), day_of(2026, 3, 5)}}},
      // Before 1970 (negative day numbers), a year's turn inside.
      {{day_of(1969, 12, 1), day_of(1970, 1, 15)},
       ClosedRange{day_of(1969, 12, 1), day_of(1969, 12, 31)},
       {{day_of(1970, 1, 1), day_of(1970, 1, 15)}}},
  };
  for (const Case& c : cases) {
    const cal::MonthSplit split = cal::split_months(c.days);
    INFO("days ", cal::utc_day_text(c.days.lo), " .. ", cal::utc_day_text(c.days.hi));
    CHECK(split.months == c.months);
    CHECK(split.days == c.rest);
  }
  CHECK_FALSE(cal::split_months({5, 4}).months.has_value());
  CHECK(cal::split_months({5, 4}).days.empty());
}

TEST_CASE("plan_window_count gives the brute-force count over months of events") {
  // Windows of up to two years over events spread on three: many whole months, leap years,
  // month ends at both sides of a window.
  std::mt19937_64 rng(17);
  const long long day = 86400;
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  for (int round = 0; round < 200; ++round) {
    const long long min_d = pick(0, 3600), max_d = min_d + pick(0, 3 * day);
    const long long base = day_of(static_cast<int>(pick(1998, 2030)), 1, 1) * day;
    std::vector<Ev> events;
    for (int i = 0; i < 400; ++i) {
      // Some on the first and last seconds of a month, where an off-by-one would show.
      long long start = base + pick(0, 3 * 365 * day);
      if (i % 4 == 0) {
        const cal::LocalDateTime t = cal::to_utc_date_time(at(start));
        start = cal::from_utc_date_time({t.year, t.month + static_cast<int>(pick(0, 1)), 1, 0, 0, 0})
                    .time_since_epoch()
                    .count() -
                pick(0, 1);
      }
      events.push_back({start, start + pick(min_d, max_d)});
    }
    EventDateWindow w;
    w.start_min = at(base + pick(0, 365 * day));
    w.end_max = at(sec(w.start_min) + pick(0, 730 * day));
    if (pick(0, 3) == 0) w.end_after = at(sec(w.start_min) + pick(0, 30 * day));
    long long expected = 0;
    for (const Ev& e : events) expected += in_window(e, w);
    CHECK_MESSAGE(planned_count(events, w, min_d, max_d) == expected, "round ", round);
  }
}

namespace {

// The count as the store computes it from a one-sided plan: events starting in it less events
// ending in it, each side by whole days (months and days, as the rollups sum them) and a part-day.
long long one_sided_count(const std::vector<Ev>& events, const cal::OneSidedCountPlan& plan) {
  auto side = [&](const cal::OneSidedPart& part, long long instant) {
    long long n = 0;
    if (part.days) {
      const cal::MonthSplit split = cal::split_months(*part.days);
      if (split.months && in(*split.months, floor_day(instant))) ++n;
      for (const ClosedRange& r : split.days)
        if (in(r, floor_day(instant))) ++n;
    }
    if (part.seconds && in(*part.seconds, instant)) ++n;
    return n;
  };
  long long n = 0;
  for (const Ev& e : events) n += side(plan.starts, e.start) - side(plan.ends, e.end);
  return n;
}

}  // namespace

TEST_CASE("plan_one_sided_count gives the brute-force count of a least start and a latest end") {
  std::mt19937_64 rng(23);
  const long long day = 86400;
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  int planned = 0;
  for (int round = 0; round < 400; ++round) {
    const long long max_d = pick(0, 3) == 0 ? pick(0, 400 * day) : pick(0, 4 * day);
    const long long base = day_of(static_cast<int>(pick(1960, 2030)), 1, 1) * day;
    std::vector<Ev> events;
    for (int i = 0; i < 300; ++i) {
      const long long start = base + pick(-30 * day, 3 * 365 * day);
      events.push_back({start, start + pick(0, max_d)});
    }
    EventDateWindow w;
    // Day-aligned bounds (a site in UTC, whole days) half of the time, any second otherwise.
    const bool aligned = pick(0, 1);
    w.start_min = at(base + (aligned ? pick(0, 365) * day : pick(0, 365 * day)));
    w.end_max = at(sec(w.start_min) + (aligned ? pick(0, 730) * day - 1 : pick(0, 730 * day)));
    const std::optional<cal::OneSidedCountPlan> plan = cal::plan_one_sided_count(w, max_d);
    REQUIRE(plan.has_value() == (max_d <= sec(w.end_max) - sec(w.start_min)));
    if (!plan) continue;
    ++planned;
    long long expected = 0;
    for (const Ev& e : events) expected += in_window(e, w);
    CHECK_MESSAGE(one_sided_count(events, *plan) == expected, "round ", round);
    if (aligned) {
      CHECK_FALSE(plan->starts.seconds);
      CHECK_FALSE(plan->ends.seconds);
    }
  }
  CHECK(planned > 300);
}

TEST_CASE("plan_one_sided_count: the same reads whatever the longest event, other bounds planned as before") {
  const long long day = 86400;
  EventDateWindow w;
  w.start_min = at(day_of(2030, 3, 1) * day);
  w.end_max = at(day_of(2032, 3, 1) * day - 1);
  const std::optional<cal::OneSidedCountPlan> hour = cal::plan_one_sided_count(w, 3600);
  const std::optional<cal::OneSidedCountPlan> year = cal::plan_one_sided_count(w, 365 * day);
  REQUIRE(hour);
  REQUIRE(year);
  CHECK(hour->starts.days == year->starts.days);
  CHECK(hour->ends.days == year->ends.days);
  CHECK(hour->starts.days->lo == day_of(2030, 3, 1));
  CHECK(hour->ends.days->lo == day_of(2032, 3, 1));
  // An event may span the whole window: the two sides no longer differ by the window's events.
  CHECK_FALSE(cal::plan_one_sided_count(w, 3 * 365 * day));
  // Any other bound, or none on the end: plan_window_count() as before.
  EventDateWindow other = w;
  other.end_after = at(day_of(2030, 4, 1) * day);
  CHECK_FALSE(cal::plan_one_sided_count(other, 3600));
  EventDateWindow open = w;
  open.end_max.reset();
  CHECK_FALSE(cal::plan_one_sided_count(open, 3600));
  // An empty window.
  EventDateWindow empty = w;
  empty.end_max = at(day_of(2030, 2, 1) * day);
  CHECK_FALSE(cal::plan_one_sided_count(empty, 3600));
}
