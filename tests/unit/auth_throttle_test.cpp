// Failed-authentication throttling (cal/api/access/auth_throttle.h) with an injected clock.
#include "cal/api/access/auth_throttle.h"
#include "cal/api/pipeline/error.h"

#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace {

using std::chrono::seconds;
using TimePoint = std::chrono::steady_clock::time_point;

// A clock the test moves by hand.
struct FakeClock {
  TimePoint now{std::chrono::hours(1000)};
  cal::AuthThrottle::Clock fn() {
    return [this] { return now; };
  }
};

// One step of a scenario: at `at` seconds, a failure from `address` for `login`; the throttle
// must answer `wait` (0 = plain 401).
struct Step {
  int at;
  const char* address;
  const char* login;
  int wait;
};

struct Scenario {
  const char* name;
  cal::AuthThrottleLimits limits;
  std::vector<Step> steps;
};

std::vector<Step> repeat(int count, int from, int every, const char* address, const char* login, int wait) {
  std::vector<Step> steps;
  for (int i = 0; i < count; ++i) steps.push_back({from + i * every, address, login, wait});
  return steps;
}

std::vector<Step> join(std::initializer_list<std::vector<Step>> parts) {
  std::vector<Step> all;
  for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

const cal::AuthThrottleLimits kSmall{3, 5, seconds(60), 100};

const Scenario kScenarios[] = {
    {"ten failures of one login pass, the eleventh waits for the first to leave the window",
     {},
     join({repeat(10, 0, 1, "10.0.0.1", "alice", 0), {{10, "10.0.0.1", "alice", 50}}})},
    {"the login limit holds from any address",
     {},
     join({repeat(10, 0, 0, "10.0.0.1", "alice", 0), {{5, "10.9.9.9", "alice", 55}}})},
    {"another login from the same address is not throttled by the first",
     {},
     join({repeat(10, 0, 0, "10.0.0.1", "alice", 0),
           {{1, "10.0.0.1", "alice", 59}, {1, "10.0.0.1", "bob", 0}}})},
    {"a throttled failure counts, so a client that keeps failing stays throttled", kSmall,
     join({repeat(3, 0, 0, "a", "u", 0),
           {{30, "a", "u", 30}, {59, "a", "u", 1}, {60, "a", "u", 0}, {61, "a", "u", 29}}})},
    {"after the window the login may fail again", kSmall,
     join({repeat(3, 0, 0, "a", "u", 0), {{60, "a", "u", 0}, {60, "a", "u", 0}, {60, "a", "u", 0}}})},
    {"the address limit counts failures without a login (Bearer)", kSmall,
     join({repeat(5, 0, 0, "10.0.0.2", "", 0), {{0, "10.0.0.2", "", 60}, {0, "10.0.0.3", "", 0}}})},
    {"the address limit counts failures of every login",
     kSmall,
     {{0, "b", "l1", 0},
      {0, "b", "l2", 0},
      {0, "b", "l3", 0},
      {0, "b", "l4", 0},
      {0, "b", "", 0},
      {10, "b", "l5", 50}}},
    {"the default address limit is one hundred",
     {},
     join({repeat(100, 0, 0, "10.0.0.4", "", 0), {{0, "10.0.0.4", "", 60}}})},
    {"Retry-After rounds up to whole seconds and is at least one", kSmall,
     join({repeat(3, 0, 0, "c", "w", 0), {{59, "c", "w", 1}}})},
};

}  // namespace

TEST_CASE("failed authentications are throttled per login and per address") {
  for (const Scenario& s : kScenarios) {
    CAPTURE(s.name);
    FakeClock clock;
    const TimePoint start = clock.now;
    cal::AuthThrottle throttle(s.limits, clock.fn());
    int index = 0;
    for (const Step& step : s.steps) {
      CAPTURE(index);
      CAPTURE(step.at);
      clock.now = start + seconds(step.at);
      CHECK(throttle.record_failure(step.address, step.login) == step.wait);
      ++index;
    }
  }
}

TEST_CASE("the throttle's memory is bounded by max_keys per kind") {
  FakeClock clock;
  cal::AuthThrottle throttle({10, 100, seconds(60), 50}, clock.fn());
  for (int i = 0; i < 5000; ++i) {
    CHECK(throttle.record_failure("10.1." + std::to_string(i), "login" + std::to_string(i)) == 0);
    clock.now += std::chrono::milliseconds(1);
  }
  CHECK(throttle.tracked_keys() <= 100);
  // A login 10 KB long shares the key of its first 64 bytes.
  const std::string long_login(10000, 'x');
  for (int i = 0; i < 10; ++i) throttle.record_failure("addr", long_login + std::to_string(i));
  CHECK(throttle.record_failure("addr", long_login) > 0);
}

TEST_CASE("the throttle is safe under concurrent use") {
  cal::AuthThrottle throttle({10, 1000000, seconds(60), 100000});
  std::atomic<int> throttled{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i)
        if (throttle.record_failure("10.2.0." + std::to_string(t),
                                    i % 2 ? "shared" : "own" + std::to_string(t)) > 0)
          ++throttled;
    });
  }
  for (auto& th : threads) th.join();
  // "shared" got 2000 failures: all but its first ten were throttled; each "own<t>" 250 → 240.
  CHECK(throttled.load() == (2000 - 10) + 8 * (250 - 10));
}

TEST_CASE("authenticate_throttled turns the eleventh 401 into 429 rest_too_many_requests") {
  FakeClock clock;
  cal::AuthThrottle throttle({}, clock.fn());
  cal::DatabaseConfig unreachable;
  unreachable.socket = "/nonexistent/mysqld.sock";
  // Never connected: these credentials fail before any lookup, and the shared counters cannot be
  // written, so the in-process throttle counts.
  cal::Db db(unreachable);
  const cal::Locale locale;
  cal::Request request;
  request.remote_addr = "192.0.2.7";
  request.headers["authorization"] = "Basic dXNlcjo=";  // "user:" (an empty password)
  for (int i = 0; i < 10; ++i) {
    CAPTURE(i);
    try {
      cal::authenticate_throttled(request, db, locale, throttle);
      FAIL("no error");
    } catch (const cal::ApiError& e) {
      CHECK(e.status == 401);
      CHECK(e.code == "rest_invalid_credentials");
      CHECK(e.retry_after == 0);
    }
  }
  clock.now += seconds(15);
  try {
    cal::authenticate_throttled(request, db, locale, throttle);
    FAIL("no error");
  } catch (const cal::ApiError& e) {
    CHECK(e.status == 429);
    CHECK(e.code == "rest_too_many_requests");
    CHECK(e.retry_after == 45);
  }
  // No credentials at all: a visitor, never throttled.
  request.headers.erase("authorization");
  CHECK(cal::authenticate_throttled(request, db, locale, throttle).is_visitor());
}

TEST_CASE("throttle_wait: 401 below the limit, else the rest of the window, at least one second") {
  CHECK(cal::throttle_wait(0, 10, 60) == 0);
  CHECK(cal::throttle_wait(9, 10, 1) == 0);
  CHECK(cal::throttle_wait(10, 10, 45) == 45);
  CHECK(cal::throttle_wait(250, 10, 0) == 1);  // the window ends this second
  CHECK(cal::throttle_wait(11, 10, -3) == 1);  // clock skew between reads: never 0 or less
  CHECK(cal::throttle_wait(100, 100, 60) == 60);
}
