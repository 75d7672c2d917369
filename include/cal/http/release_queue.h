// Answers held back until a moment: a write's answer waits out the cache lease (docs/api.md,
// "Cache lease") on this queue's one thread instead of on the worker that built it, so the worker
// takes the next request meanwhile.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

namespace cal {

class ReleaseQueue {
 public:
  using Clock = std::chrono::steady_clock;

  ReleaseQueue();
  ~ReleaseQueue();  // stop()
  ReleaseQueue(const ReleaseQueue&) = delete;
  ReleaseQueue& operator=(const ReleaseQueue&) = delete;

  // Runs `release` on the queue's thread at `when` (at once when that has passed), in the order
  // of their moments.
  void hold(Clock::time_point when, std::function<void()> release);

  // Runs every release still held, each at its moment, then ends the thread; hold() after it
  // runs the release on the caller's thread at its moment.
  void stop();

  // The releases held and not yet run.
  std::size_t held() const;

 private:
  void run();

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  // By moment, then by the order held (equal moments run in that order).
  std::map<std::pair<Clock::time_point, unsigned long long>, std::function<void()>> held_;
  unsigned long long next_order_ = 0;
  bool stopping_ = false;
  bool running_ = true;  // false once the thread has ended
  std::thread thread_;
};

}  // namespace cal
