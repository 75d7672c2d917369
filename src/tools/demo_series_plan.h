// The recurring series of `calendarctl demo` (demo_series.h), drawn one by one: each a function
// of (seed, its number in the run) and the run's venues, organizers and terms, with its rule in
// the lines a client would send, and counted as its write will materialise it.
#pragma once

#include "cal/core/config.h"
#include "cal/core/dates/dates.h"
#include "cal/store/demo_data.h"

#include <cstddef>
#include <string>
#include <vector>

namespace cal {

// A series as the body of its POST /events: the first occurrence's wall clock in `zone`, the
// recurrence lines, one venue (0: none), organizer, category and tag.
struct DemoSeriesPlan {
  std::string title, slug, description, zone, status = "publish";
  LocalDateTime start, end;
  bool all_day = false;
  std::vector<std::string> lines;
  long long venue = 0, organizer = 0, category = 0, tag = 0;
  bool exception = false;  // its second occurrence is edited alone (renamed, an hour later)
};

// Series number `k` (from 0) of the run: weekly classes most often, then monthly meetups on an
// ordinal weekday, daily festivals, and seldom a rule without an end (20 kinds a cycle).
DemoSeriesPlan plan_demo_series(const DemoOptions& options, const DemoRun& run, long long k);

// How many occurrences the write of `plan` will materialise: its rule expanded as
// materialise_series expands it ([recurrence] max_instances, a rule without an end to the
// horizon from now); max_instances + 1 when the API would refuse it (past the cap, or a COUNT
// above it).
std::size_t planned_occurrences(const Config& config, const DemoSeriesPlan& plan);

}  // namespace cal
