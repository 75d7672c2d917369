// Failed-authentication counters in the database (docs/reliability.md), so every process and web host
// (CGI mode included) shares them: one row per key (table auth_failures) counting the failures of
// a fixed window that starts with the key's first failure, on the database's clock.
#pragma once

#include "cal/store/db.h"

#include <string_view>

namespace cal {

struct AuthFailureCount {
  long long failures_before = 0;  // failures of this key's current window before this one
  long long seconds_left = 0;     // until that window ends (a new one starts at the next failure)
};

// Counts one failure of `key` (at most 80 bytes) in its window of `window_seconds`, starting a new
// window if the last one ended, and drops a few rows whose window ended long ago. Autocommitted
// (call outside a transaction). Throws DatabaseUnavailable like every statement.
AuthFailureCount count_auth_failure(Db& db, std::string_view key, int window_seconds);

}  // namespace cal
