// Shared data version reads (see cal/cache/version_flights.h).
#include "cal/cache/version_flights.h"

namespace cal {

bool VersionFlights::wait_or_lead(std::unique_lock<std::mutex>& lock, std::uint64_t n) {
  for (;;) {
    if (done_ >= n) return false;
    if (started_ < n && done_ == started_) {
      started_ = n;
      return true;
    }
    landed_.wait(lock);
  }
}

void VersionFlights::land(std::uint64_t n, const std::optional<DataVersion>& result) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = n;
    result_ = result;
    result_started_at_ = started_at_;
  }
  landed_.notify_all();
}

std::optional<DataVersion> VersionFlights::fresh(Clock::time_point now, Clock::duration max_age) {
  last_demand_.store(now.time_since_epoch().count());
  std::lock_guard<std::mutex> lock(mutex_);
  if (!result_ || done_ == 0 || now - result_started_at_ > max_age) return std::nullopt;
  DataVersion v = *result_;
  const auto elapsed = std::chrono::ceil<std::chrono::seconds>(now - result_started_at_);
  v.db_now += elapsed.count() + 1;
  leased_.fetch_add(1, std::memory_order_relaxed);
  return v;
}

}  // namespace cal
