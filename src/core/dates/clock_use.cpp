// The per-thread clock-use record (see cal/core/dates/clock_use.h).
#include "cal/core/dates/clock_use.h"

#include <chrono>

namespace cal {
namespace {

thread_local ClockUse t_use;

}  // namespace

Seconds unmarked_now() {
  return std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
}

void note_valid_until(Seconds instant) {
  if (!t_use.valid_until || instant < *t_use.valid_until) t_use.valid_until = instant;
}

void note_clock_use() { note_valid_until(unmarked_now() + std::chrono::seconds(1)); }

ClockUse clock_use() { return t_use; }

void reset_clock_use() { t_use = ClockUse{}; }

}  // namespace cal
