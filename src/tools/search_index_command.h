// `calendarctl search-index check|rebuild`: the search index's two maintenance commands
// (docs/search.md).
#pragma once

#include "cal/core/config.h"

#include <string>
#include <vector>

namespace cal {

// check: whether the server's collation splits words where the service does (exit 1 and the
// differing characters when not: searches would then miss events). rebuild: indexes every event
// again, with progress on standard error. Exit status 2 for a usage error.
int run_search_index(const Config& config, const std::vector<std::string>& positional);

// Indexes every event still pending (after a migration or writes by hand); returns how many.
// Batches that meet a running service's locks are tried again, then left pending (with a note on
// standard error): never a failure.
long long index_all_pending(const Config& config);

}  // namespace cal
