// Internal to src/store/: the list rollups of events written set-wise while @cal_bulk_load is set
// (store/bulk_load.h), as the insert triggers of event_details and term_relationships count them
// row by row.
#pragma once

#include "cal/store/db.h"

#include <string>
#include <vector>

namespace cal {

// Counts the events of `from` (a FROM clause with its joins and WHERE, naming event_details `d`;
// `args` bind its placeholders) into this connection's shard of the day rollups, by UTC day of
// their start (event_day_counts) and of their end (event_end_day_counts), per status, hidden flag
// and featured flag, the months of both (event_month_counts, event_end_month_counts: their
// triggers on the day tables are off meanwhile), and the whole hours of their durations into
// event_duration_hours.
void count_event_days(Db& db, const std::string& from, const std::vector<SqlValue>& args);

// Counts the term links of `from` (naming term_relationships `r`, whose list copies are already
// written) into this connection's shard of term_day_counts, as term_relationships_ai would have.
void count_term_days(Db& db, const std::string& from, const std::vector<SqlValue>& args);

}  // namespace cal
