// When a request that failed on the database is run again instead of being answered with 503:
// a lost connection once on a fresh connection, a deadlock or lock wait timeout a few times
// with a growing pause. failure_answers.cpp runs the attempts and renders the final error.
#pragma once

#include "cal/store/db.h"

namespace cal {

// After DatabaseUnavailable on attempt `attempt` (0 first): whether to run the request again.
// Only the first attempt is retried, and only when nothing may have been written since
// db.mark(); the connection is then reset so the retry opens a fresh one.
bool retry_lost_connection(Db& db, int attempt);

// After DatabaseConflict (the work already rolled back) on attempt `attempt`: whether to run the
// request again, after waiting 10, 20, 40, 80 ms; false once those retries are used up. Every
// write is one transaction, so nothing of the failed try remains.
bool retry_conflict(int attempt);

}  // namespace cal
