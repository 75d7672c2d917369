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

// The count as the store computes it from a plan: rollup days + scans - corrections.
long long planned_count(const std::vector<Ev>& events, const EventDateWindow& w, long long min_d,
                        long long max_d) {
  const cal::WindowCountPlan plan = cal::plan_window_count(w, min_d, max_d);
  if (plan.empty) return 0;
  long long n = 0;
  for (const Ev& e : events) {
    if (plan.days && in(*plan.days, floor_day(e.start))) ++n;
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
  CHECK(plan.days->hi == (cal::kLastSecond - 3600 + 1) / 86400 - 1);  // ends by the last second
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
