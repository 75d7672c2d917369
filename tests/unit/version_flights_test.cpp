// Shared data version reads (cal/cache/version_flights.h): every caller gets a read that started
// after it called, never an older one, and concurrent callers share reads.
#include "cal/cache/version_flights.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

TEST_CASE("version flights never hand out a read older than the call, and share reads") {
  cal::VersionFlights flights;
  std::atomic<long long> writes{0};  // "acknowledged writes": the version a read sees
  std::atomic<int> reads{0};
  std::atomic<bool> stale{false};
  constexpr int kThreads = 6, kCalls = 300;
  auto read = [&](const std::optional<cal::DataVersion>&) {
    ++reads;
    const long long seen = writes.load();
    std::this_thread::sleep_for(std::chrono::microseconds(200));  // a round trip
    cal::DataVersion v;
    v.version = seen;
    return std::optional<cal::DataVersion>(v);
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kCalls; ++i) {
        const long long acknowledged = writes.load();  // every write done before the call
        const auto v = flights.get(read);
        if (!v || v->version < acknowledged) stale = true;
        if (i % 10 == 0) ++writes;
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK_FALSE(stale.load());
  CHECK(reads.load() < kThreads * kCalls);  // shared
  MESSAGE(reads.load() << " reads for " << kThreads * kCalls << " calls");
}

TEST_CASE("a failed or throwing read lands its flight: waiters get nullopt and nobody hangs") {
  cal::VersionFlights flights;
  using Previous = const std::optional<cal::DataVersion>&;
  CHECK(!flights.get([](Previous) { return std::optional<cal::DataVersion>(); }).has_value());
  CHECK_THROWS(
      flights.get([](Previous) -> std::optional<cal::DataVersion> { throw std::runtime_error("gone"); }));
  cal::DataVersion v;
  v.version = 7;
  const auto after = flights.get([&](Previous) { return std::optional<cal::DataVersion>(v); });
  REQUIRE(after.has_value());
  CHECK(after->version == 7);
  // The next flight is told what the last one read.
  long long seen = 0;
  flights.get([&](Previous previous) {
    seen = previous ? previous->version : -1;
    return previous;
  });
  CHECK(seen == 7);
}

TEST_CASE("with a lease, the last read is handed out without waiting only while it is young enough") {
  using Clock = cal::VersionFlights::Clock;
  cal::VersionFlights flights;
  const auto lease = std::chrono::milliseconds(20);
  CHECK(!flights.fresh(Clock::now(), lease));  // nothing read yet
  const Clock::time_point before = Clock::now();
  flights.get([](const std::optional<cal::DataVersion>&) {
    cal::DataVersion v;
    v.version = 7;
    v.db_now = 1000;
    return std::optional<cal::DataVersion>(v);
  });
  const auto young = flights.fresh(Clock::now(), lease);
  REQUIRE(young);
  CHECK(young->version == 7);
  CHECK(young->db_now >= 1001);  // the database clock may have moved on since: never behind
  CHECK(flights.last_demand() >= before);
  CHECK(!flights.fresh(Clock::now() + lease + std::chrono::milliseconds(1), lease));  // too old
  const auto later = flights.fresh(Clock::now() + std::chrono::milliseconds(2500), std::chrono::seconds(5));
  REQUIRE(later);
  CHECK(later->db_now >= 1000 + 3);  // 2.5 s later: at least 3 s on, rounded up
  // A failed read is nothing to hand out.
  flights.get([](const std::optional<cal::DataVersion>&) { return std::optional<cal::DataVersion>(); });
  CHECK(!flights.fresh(Clock::now(), lease));
}

TEST_CASE("the flights count their reads and the versions the lease handed out, for the metrics") {
  using Clock = cal::VersionFlights::Clock;
  cal::VersionFlights flights;
  const auto read = [](const std::optional<cal::DataVersion>&) {
    return std::optional<cal::DataVersion>(cal::DataVersion{});
  };
  CHECK(flights.reads() == 0);
  CHECK(flights.leased() == 0);
  CHECK(!flights.fresh(Clock::now(), std::chrono::seconds(5)));  // nothing to hand out: not counted
  CHECK(flights.leased() == 0);
  flights.get(read);
  flights.get(read);
  CHECK(flights.reads() == 2);
  REQUIRE(flights.fresh(Clock::now(), std::chrono::seconds(5)));
  REQUIRE(flights.fresh(Clock::now(), std::chrono::seconds(5)));
  CHECK(!flights.fresh(Clock::now() + std::chrono::seconds(6), std::chrono::seconds(5)));  // too old
  CHECK(flights.leased() == 2);
  CHECK(flights.reads() == 2);
}
