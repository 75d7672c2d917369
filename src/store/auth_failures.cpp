// SQL of the shared failed-authentication counters (see cal/store/auth_failures.h).
#include "cal/store/auth_failures.h"

#include <string>

namespace cal {

AuthFailureCount count_auth_failure(Db& db, std::string_view key, int window_seconds) {
  const std::string k(key.substr(0, 80));
  const long long window = window_seconds;
  // MariaDB applies the assignments left to right: `failures` is decided on the old window_start.
  db.execute(
      "INSERT INTO auth_failures (throttle_key, window_start, failures) VALUES (?, UNIX_TIMESTAMP(), 1) "
      "ON DUPLICATE KEY UPDATE "
      "failures = IF(window_start + ? <= UNIX_TIMESTAMP(), 1, failures + 1), "
      "window_start = IF(window_start + ? <= UNIX_TIMESTAMP(), UNIX_TIMESTAMP(), window_start)",
      {k, window, window});
  AuthFailureCount count;
  Rows rows = db.query(
      "SELECT failures, window_start + ? - UNIX_TIMESTAMP() FROM auth_failures WHERE throttle_key = ?",
      {window, k});
  if (rows.next()) {
    count.failures_before = rows.integer(0) - 1;
    count.seconds_left = rows.integer(1);
  }
  // Bounded housekeeping: failures are rare, so a few stale rows per failure keep the table small.
  db.execute("DELETE FROM auth_failures WHERE window_start < UNIX_TIMESTAMP() - ? LIMIT 8", {window * 2});
  return count;
}

}  // namespace cal
