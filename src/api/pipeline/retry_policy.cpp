// The retry policy for database failures (see retry_policy.h).
#include "api/pipeline/retry_policy.h"

#include <chrono>
#include <thread>

namespace cal {
namespace {

// How often a request that hit a deadlock or lock wait timeout is run again before 503.
constexpr int kConflictRetries = 4;

}  // namespace

bool retry_lost_connection(Db& db, int attempt) {
  if (attempt != 0 || db.wrote_since_mark()) return false;
  db.reset();
  return true;
}

bool retry_conflict(int attempt) {
  if (attempt >= kConflictRetries) return false;
  std::this_thread::sleep_for(std::chrono::milliseconds(10 << attempt));  // 10, 20, 40, 80 ms
  return true;
}

}  // namespace cal
