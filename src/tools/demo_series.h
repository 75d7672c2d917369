// The recurring series of `calendarctl demo` (docs/calendarctl.md): weekly classes, monthly
// meetups on an ordinal weekday, daily festivals and rules without an end, some with EXDATEs and
// an occurrence edited alone. Each is written through the API's own write path (POST /events with
// `recurrence`, then a scope=this update of one occurrence), so its occurrences and every row
// derived from them are exactly what a client's POST would have made.
#pragma once

#include "cal/core/config.h"
#include "cal/store/db.h"
#include "cal/store/demo_data.h"

#include <string>

namespace cal {

// What add_demo_series wrote.
struct DemoSeriesCount {
  long long series = 0;
  long long occurrences = 0;  // event rows: what lists can show of them
};

// Writes series of run `run` (after start_demo_data) whose occurrences number at most `rows` in
// all, deterministic in options.seed and options.today_utc (and, for rules without an end, the
// [recurrence] horizon from now). Each series is one transaction. Throws what the writes throw.
DemoSeriesCount add_demo_series(Db& db, const Config& config, const DemoOptions& options, const DemoRun& run,
                                long long rows);

}  // namespace cal
