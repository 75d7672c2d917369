// The response cache's watcher (`[server] cache_lease_ms`, docs/performance.md): a thread with its own
// database connection that reads the data version every half lease while visitors' requests
// come, so that a cached answer can be served without a round trip of its own
// (VersionFlights::fresh) and writes are applied within the lease. Idle for a second, it stops
// reading until the next request, which then waits for a read as without a lease.
#pragma once

#include "cal/cache/response_cache.h"
#include "cal/core/config.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace cal {

class CacheWatcher {
 public:
  CacheWatcher(ResponseCache& cache, const Config& config);
  ~CacheWatcher();  // stops and joins the thread
  CacheWatcher(const CacheWatcher&) = delete;
  CacheWatcher& operator=(const CacheWatcher&) = delete;

 private:
  void run();

  ResponseCache& cache_;
  const Config& config_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace cal
