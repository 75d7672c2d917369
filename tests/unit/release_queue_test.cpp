// The queue that holds writes' answers until the cache lease has passed
// (cal/http/release_queue.h): never before their moment, in the order of their moments, all of
// them run by stop(), and the caller free meanwhile.
#include "cal/http/release_queue.h"

#include <doctest/doctest.h>

#include <chrono>
#include <mutex>
#include <vector>

using namespace std::chrono_literals;
using Clock = cal::ReleaseQueue::Clock;

namespace {

// What the releases saw: their names, and whether each ran at or after its moment.
struct Log {
  std::mutex mutex;
  std::vector<int> order;
  std::vector<bool> on_time;

  std::function<void()> release(int name, Clock::time_point when) {
    return [this, name, when] {
      const bool in_time = Clock::now() >= when;
      std::lock_guard<std::mutex> lock(mutex);
      order.push_back(name);
      on_time.push_back(in_time);
    };
  }
};

}  // namespace

TEST_CASE("held releases run at or after their moments, in the order of the moments") {
  Log log;
  const Clock::time_point start = Clock::now();
  {
    cal::ReleaseQueue queue;
    const auto later = start + 60ms, sooner = start + 20ms, same = start + 20ms, past = start - 1s;
    queue.hold(later, log.release(3, later));
    queue.hold(sooner, log.release(1, sooner));
    queue.hold(same, log.release(2, same));  // an equal moment: after the one held before it
    queue.hold(past, log.release(0, past));
    // hold() returned at once: the caller was not kept for any of the moments.
    CHECK(Clock::now() < sooner);
    queue.stop();
    CHECK(queue.held() == 0);
  }
  CHECK(log.order == std::vector<int>{0, 1, 2, 3});
  CHECK(log.on_time == std::vector<bool>{true, true, true, true});
  CHECK(Clock::now() >= start + 60ms);
}

TEST_CASE("a release held after stop() runs on the caller's thread, at its moment") {
  Log log;
  cal::ReleaseQueue queue;
  queue.stop();
  const Clock::time_point when = Clock::now() + 10ms;
  queue.hold(when, log.release(7, when));
  CHECK(log.order == std::vector<int>{7});
  CHECK(log.on_time == std::vector<bool>{true});
}

TEST_CASE("a queue destroyed with releases held runs them first") {
  Log log;
  const Clock::time_point when = Clock::now() + 15ms;
  {
    cal::ReleaseQueue queue;
    queue.hold(when, log.release(1, when));
    queue.hold(when, log.release(2, when));
  }
  CHECK(log.order == std::vector<int>{1, 2});
  CHECK(log.on_time == std::vector<bool>{true, true});
}
