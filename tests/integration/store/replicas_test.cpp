// Read replicas (docs/scaling-out.md): reads spread over replicas, read-your-writes by GTID, lagging, dead
// and returning replicas, and a dead primary. Suite "replicas": scripts/run-tests.sh runs it
// against a third stack with two GTID replicas (STACK_REPLICAS=2, max_replica_lag = 3,
// statement_count_header on, so answers name the replica that served them in X-Cal-Replica);
// elsewhere (CAL_TEST_REPLICAS unset or 0) the cases are skipped.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "support/client.h"
#include "support/commands.h"
#include "support/events.h"
#include "support/reliability.h"

namespace caltest {
namespace {

using namespace events;
using std::chrono::seconds;

bool replicas_on() {
  const char* v = std::getenv("CAL_TEST_REPLICAS");
  return v != nullptr && std::atoi(v) > 0;
}

// SQL on replica k (from 1) or, for k = 0, the primary of the stack under test.
int sql_on(int k, const std::string& sql) {
  const std::string dir = test_stack_dir();
  const std::string socket =
      k == 0 ? dir + "/mysqld.sock" : dir + "/replica-" + std::to_string(k) + "/mysqld.sock";
  return run("mariadb --no-defaults --user=root --socket='" + socket + "' -e \"" + sql + "\"").exit_code;
}

// Starts whatever of the stack (and its replicas) is not running.
void stack_up() {
  const std::string base = base_url();  // http://127.0.0.1:PORT/api
  const std::string port =
      base.substr(base.rfind(':') + 1, base.find('/', base.rfind(':')) - base.rfind(':') - 1);
  const char* ctl = std::getenv("CAL_TEST_CTL");
  REQUIRE(ctl != nullptr);
  const std::string bin(ctl, std::string(ctl).find(' '));
  const std::string build = bin.substr(0, bin.rfind('/'));
  REQUIRE(run("STACK_REPLICAS=2 scripts/stack.sh up '" + test_stack_dir() + "' " + port + " '" + build +
              "' >/dev/null 2>&1")
              .exit_code == 0);
}

// Kills the MariaDB server of `sub` ("" = the primary, "replica-2", ...) at once.
void kill_server(const std::string& sub) {
  const std::string pidfile = test_stack_dir() + (sub.empty() ? "" : "/" + sub) + "/mysqld.pid";
  REQUIRE(run("kill -9 $(cat '" + pidfile + "')").exit_code == 0);
}

// Polls `path` as a visitor until `ok` holds for the answer (up to `limit`).
template <class Ok>
bool eventually(const std::string& path, Ok ok, seconds limit = seconds(20)) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (ok(get(path))) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return false;
}

// Visitors' reads on `threads` threads for `run_for`, calling `midway` once after `after`;
// returns how many answers were 5xx (or no answer at all).
int reads_under(std::function<void()> midway, seconds after, seconds run_for, const std::string& path) {
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  std::thread load([&] {
    run_parallel(4, [&](int) {
      while (!stop) {
        try {
          const HttpResponse r = get(path);
          if (r.status >= 500) {
            ++bad;
            MESSAGE(describe(r));
          }
        } catch (const std::exception& e) {
          ++bad;
          MESSAGE(e.what());
        }
      }
    });
  });
  std::this_thread::sleep_for(after);
  midway();
  std::this_thread::sleep_for(run_for - after);
  stop = true;
  load.join();
  return bad.load();
}

}  // namespace

TEST_CASE(
    "reads go to the replicas; a writer presenting its GTID sees its write, a visitor reads the lagging "
    "replica until it is out of rotation, and it is taken back once replicating" *
    doctest::test_suite("replicas") * doctest::skip(!replicas_on())) {
  const std::string admin = bearer(admin_token());
  REQUIRE(eventually(
      kEvents, [](const HttpResponse& r) { return r.status == 200 && !r.header("x-cal-replica").empty(); }));
  REQUIRE(sql_on(1, "STOP SLAVE") == 0);
  REQUIRE(sql_on(2, "STOP SLAVE") == 0);
  const std::string word = unique("replicated");
  const HttpResponse created =
      post_json(kEvents,
                "{\"title\":\"" + word + "\",\"status\":\"publish\",\"start_date\":\"" +
                    days_ahead(3, "10:00") + "\",\"end_date\":\"" + days_ahead(3, "11:00") + "\"}",
                {admin});
  REQUIRE_MESSAGE(created.status == 201, describe(created));
  const std::string gtid = created.header("x-cal-gtid");
  REQUIRE(!gtid.empty());
  CHECK(created.header("set-cookie").find("cal_gtid=" + gtid) != std::string::npos);
  const long long id = created.json()["id"].GetInt64();
  // Both replicas stopped before the write: a visitor and a caller without the position read the past.
  const HttpResponse visitor = get(path_of(id));
  CHECK_MESSAGE(visitor.status == 404, describe(visitor));
  CHECK(!visitor.header("x-cal-replica").empty());
  CHECK(get(path_of(id), {admin}).status == 404);
  // The writer presenting its write's GTID (header, or the cookie a browser sends back) reads it.
  const HttpResponse mine = get(path_of(id), {admin, "X-Cal-GTID: " + gtid});
  CHECK_MESSAGE(mine.status == 200, describe(mine));
  CHECK(get(path_of(id), {"Cookie: a=b; cal_gtid=" + gtid}).status == 200);
  // Lagging by more than max_replica_lag (3 s), the replicas are out of rotation: the primary answers.
  CHECK(eventually(path_of(id), [](const HttpResponse& r) {
    return r.status == 200 && r.header("x-cal-replica").empty();
  }));
  // Replicating again, they are taken back.
  REQUIRE(sql_on(1, "START SLAVE") == 0);
  REQUIRE(sql_on(2, "START SLAVE") == 0);
  CHECK(eventually(path_of(id), [](const HttpResponse& r) {
    return r.status == 200 && !r.header("x-cal-replica").empty();
  }));
}

TEST_CASE("a writer presenting its GTID sees its write on a replica whose cache rests on the lease" *
          doctest::test_suite("replicas") * doctest::skip(!replicas_on())) {
  const std::string admin = bearer(admin_token());
  const std::string word = unique("leased_replica");
  const long long id = create_id("Replicated 0 " + word, days_ahead(3, "12:00"), days_ahead(3, "13:00"));
  const std::string path = path_of(id);
  REQUIRE(eventually(
      path, [](const HttpResponse& r) { return r.status == 200 && !r.header("x-cal-replica").empty(); }));
  // Visitors keep both replica caches' last version reads younger than the lease. (Whether the
  // last one began before the replica applied the write varies: eight rounds, so that a read
  // resting on the lease is all but certain to show the old title in one.)
  const BackgroundLoad visitors([&] { get(path); });
  for (int round = 1; round <= 8; ++round) {
    CAPTURE(round);
    const std::string title = "Replicated " + std::to_string(round) + " " + word;
    // Both replicas apply the write only some 0.3 s after it is acknowledged (a global read lock
    // holds their SQL threads back): well after the lease, within the 0.5 s a reader waits.
    std::jthread hold_1([] { sql_on(1, "FLUSH TABLES WITH READ LOCK; DO SLEEP(0.3); UNLOCK TABLES"); });
    std::jthread hold_2([] { sql_on(2, "FLUSH TABLES WITH READ LOCK; DO SLEEP(0.3); UNLOCK TABLES"); });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const HttpResponse edited = post_json(path, "{\"title\":\"" + title + "\"}", {admin});
    const std::string gtid = edited.header("x-cal-gtid");
    const HttpResponse mine = get(path, {"X-Cal-GTID: " + gtid});
    hold_1.join();
    hold_2.join();
    REQUIRE_MESSAGE(edited.status == 200, describe(edited));
    REQUIRE(!gtid.empty());
    CHECK_MESSAGE(mine.status == 200, describe(mine));
    CHECK(!mine.header("x-cal-replica").empty());  // the replica, once it applied the write
    CHECK(string_at(mine.json(), {"title"}) == title);
  }
}

TEST_CASE("a replica killed mid-load costs no read a 5xx, and is taken back once it runs again" *
          doctest::test_suite("replicas") * doctest::skip(!replicas_on())) {
  const std::string list = std::string(kEvents) + "?per_page=5";
  CHECK(reads_under([] { kill_server("replica-2"); }, seconds(1), seconds(5), list) == 0);
  stack_up();
  CHECK(eventually(list, [](const HttpResponse& r) { return r.header("x-cal-replica") == "2"; }));
}

TEST_CASE(
    "with the primary down, reads keep working from the replicas and writes answer 503; nothing is lost" *
    doctest::test_suite("replicas") * doctest::skip(!replicas_on())) {
  const std::string admin = bearer(admin_token());
  const long long id = create_id(unique("before the fall"), days_ahead(5, "10:00"), days_ahead(5, "11:00"));
  REQUIRE(eventually(path_of(id), [](const HttpResponse& r) { return r.status == 200; }));
  const std::string list = std::string(kEvents) + "?per_page=5";
  CHECK(reads_under([] { kill_server(""); }, seconds(1), seconds(5), list) == 0);
  CHECK(get(path_of(id)).status == 200);
  CHECK(get(path_of(id), {admin}).status == 200);
  const HttpResponse write =
      post_json(kEvents, "{\"title\":\"nope\",\"start_date\":\"" + days_ahead(5, "10:00") + "\"}", {admin});
  CHECK(error_mismatch(write, 503, "rest_db_unavailable") == "");
  stack_up();
  // The primary is back: writes work again, and replicate.
  const long long after = create_id(unique("after the fall"), days_ahead(5, "12:00"), days_ahead(5, "13:00"));
  CHECK(eventually(path_of(after), [](const HttpResponse& r) {
    return r.status == 200 && !r.header("x-cal-replica").empty();
  }));
  CHECK(get(path_of(id)).status == 200);
}

// A window past an infinite series' horizon must be extended first, and a replica cannot write:
// the primary extends and answers it; the replicas answer the same window once replicated.
TEST_CASE("a window past a series' horizon is extended and answered by the primary, then by replicas" *
          doctest::test_suite("replicas") * doctest::skip(!replicas_on())) {
  using namespace events;
  const std::string tomorrow = date_text(utc_today() + std::chrono::days{1});
  const long long series =
      id_of(create(event_body(unique("Weekly on replicas"), tomorrow + " 08:00", tomorrow + " 09:00",
                              "\"timezone\":\"UTC\",\"recurrence\":[\"RRULE:FREQ=WEEKLY\"]")));
  REQUIRE(eventually(path_of(series), [](const HttpResponse& r) {
    return r.status == 200 && !r.header("x-cal-replica").empty();
  }));
  // Seven years ahead: past the 60 months materialised when written.
  const int days = 7 * 365 + 2;
  const std::string window = path_of(series) +
                             "/occurrences?per_page=1&start_date=" + date_text(utc_today()) +
                             "&end_date=" + date_text(utc_today() + std::chrono::days{days});
  const std::string expected = std::to_string((days - 1) / 7 + 1);
  const HttpResponse first = get(window);
  REQUIRE_MESSAGE(first.status == 200, describe(first));
  CHECK(first.header("X-WP-Total") == expected);
  CHECK(first.header("x-cal-replica").empty());
  CHECK(eventually(window, [&](const HttpResponse& r) {
    return r.status == 200 && !r.header("x-cal-replica").empty() && r.header("X-WP-Total") == expected;
  }));
}

}  // namespace caltest
