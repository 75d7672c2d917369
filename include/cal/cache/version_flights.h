// Shared reads of the data version for the response cache: concurrent requests share
// one database round trip instead of one each, without ever using a read that began before they
// arrived (which could miss a write acknowledged in between).
#pragma once

#include "cal/store/data_version.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>

namespace cal {

// A request that finds no read in flight starts one (a "flight") on its own connection and
// hands the result to everyone who waited for it. A request that finds a flight already under
// way cannot use it (it may have been sent before a write this request must see); it waits for
// that flight to land and takes the next one, starting it itself if nobody has yet. With N
// worker threads busy, a version read serves up to N - 1 other requests.
//
// With a lease (`[server] cache_lease_ms`), fresh() hands out the last read without waiting when
// it started recently enough; a watcher thread keeps reading while requests come.
class VersionFlights {
 public:
  // The data version as read by a flight that started after this call began; nullopt when that
  // read failed (the caller then answers without the cache). `read(previous)` (returning
  // std::optional<DataVersion>; `previous` is the last flight's result) runs on the calling
  // thread, with its connection, when this thread leads a flight.
  template <typename Read>
  std::optional<DataVersion> get(Read read);

  using Clock = std::chrono::steady_clock;

  // The last read that landed, if it started no earlier than `max_age` before `now`, with its
  // database clock moved on by the time elapsed since it started (rounded up, plus the second
  // it may have been read at the end of). Records the demand (last_demand()).
  std::optional<DataVersion> fresh(Clock::time_point now, Clock::duration max_age);

  // When fresh() was last called.
  Clock::time_point last_demand() const { return Clock::time_point(Clock::duration(last_demand_.load())); }

  // For the metrics: the reads flown (database round trips), and the versions fresh() handed
  // out (answers checked without a read of their own).
  std::uint64_t reads() const { return reads_.load(std::memory_order_relaxed); }
  std::uint64_t leased() const { return leased_.load(std::memory_order_relaxed); }

 private:
  // Under `lock`: waits until flight `n` has landed (false), or until it may start, one flight
  // being in the air at a time (true: this thread flies it).
  bool wait_or_lead(std::unique_lock<std::mutex>& lock, std::uint64_t n);
  void land(std::uint64_t n, const std::optional<DataVersion>& result);

  std::mutex mutex_;
  std::condition_variable landed_;
  std::uint64_t started_ = 0;              // flights begun, numbered 1..started_
  std::uint64_t done_ = 0;                 // flights landed, numbered 1..done_
  std::optional<DataVersion> result_;      // of flight done_
  Clock::time_point started_at_{};         // when the flight in the air (or the last) started
  Clock::time_point result_started_at_{};  // when flight done_ started
  std::atomic<Clock::rep> last_demand_{0};
  std::atomic<std::uint64_t> reads_{0};
  std::atomic<std::uint64_t> leased_{0};
};

template <typename Read>
std::optional<DataVersion> VersionFlights::get(Read read) {
  std::unique_lock<std::mutex> lock(mutex_);
  // The first flight that starts from now on: one in the air may have left before this request
  // arrived, so it does not count.
  const std::uint64_t needed = started_ + 1;
  if (!wait_or_lead(lock, needed)) return result_;
  const std::optional<DataVersion> previous = result_;
  started_at_ = Clock::now();
  lock.unlock();
  reads_.fetch_add(1, std::memory_order_relaxed);
  std::optional<DataVersion> result;
  // Lands even if `read` throws, so that no waiter waits for ever.
  struct Lander {
    VersionFlights& flights;
    std::uint64_t n;
    const std::optional<DataVersion>& result;
    ~Lander() { flights.land(n, result); }
  } lander{*this, needed, result};
  result = read(previous);
  return result;
}

}  // namespace cal
