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
  }
  landed_.notify_all();
}

}  // namespace cal
