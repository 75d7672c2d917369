// The admin tool and plain-CGI mode, run as real processes against the test stack's database.
#include "support/client.h"
#include "support/commands.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

using caltest::ctl;
using caltest::run;
using caltest::Run;
using caltest::service_command;

namespace {

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

const std::string kEvents = "/cal/events/v1/events";

}  // namespace

TEST_CASE("calendarctl user add prints only a working password") {
  const std::string login = caltest::unique("ctl");
  const Run r = run(ctl() + " user add " + login + " --role editor");
  REQUIRE(r.exit_code == 0);
  const std::string password = trim(r.out);
  CHECK(password.size() == 22);
  CHECK(password.find('\n') == std::string::npos);
  // The password authenticates (an editor's empty create gets 400, not 401).
  CHECK(caltest::post_json(kEvents, "{}", {caltest::bearer(password)}).status == 400);
  CHECK(caltest::post_json(kEvents, "{}", {caltest::basic(login, password)}).status == 400);
  CHECK(caltest::post_json(kEvents, "{}", {caltest::basic("someone-else", password)}).status == 401);
  const Run list = run(ctl() + " user list");
  CHECK(list.exit_code == 0);
  CHECK(list.out.find(" " + login + " editor") != std::string::npos);
}

TEST_CASE("calendarctl refuses duplicate logins, unknown roles and bad commands") {
  const std::string login = caltest::unique("dup");
  REQUIRE(run(ctl() + " user add " + login + " --role author").exit_code == 0);
  const Run again = run(ctl() + " user add " + login + " --role author 2>/dev/null");
  CHECK(again.exit_code != 0);
  CHECK(again.out.empty());
  CHECK(run(ctl() + " user add " + caltest::unique("r") + " --role king 2>/dev/null").exit_code != 0);
  CHECK(run(ctl() + " user add " + caltest::unique("r") + " 2>/dev/null").exit_code != 0);
  CHECK(run(ctl() + " user add 'bad login' --role author 2>/dev/null").exit_code != 0);
  CHECK(run(ctl() + " frobnicate 2>/dev/null").exit_code != 0);
  CHECK(run(ctl() + " password add nobody-" + caltest::unique("x") + " 2>/dev/null").exit_code != 0);
}

// A migration of a million events runs statements for minutes: calendarctl waits for them,
// whatever [database] read_timeout the service uses. Here a table lock held for 6 seconds makes
// its statement slower than a 1-second read timeout.
TEST_CASE("calendarctl waits for a slow statement beyond the service's read timeout") {
  const char* dir = std::getenv("CAL_TEST_DIR");
  REQUIRE_MESSAGE(dir != nullptr, "scripts/run-tests.sh sets CAL_TEST_DIR");
  const std::string hold = "mariadb --no-defaults --socket='" + std::string(dir) +
                           "/mysqld.sock' --user=root calendar -e 'LOCK TABLES users WRITE; SELECT SLEEP(6); "
                           "UNLOCK TABLES' >/dev/null 2>&1";
  std::thread holder([&] { run(hold); });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const std::string login = caltest::unique("slow");
  const Run r = run(ctl() + " --database.read_timeout=1 user add " + login + " --role subscriber 2>&1");
  holder.join();
  CHECK_MESSAGE(r.exit_code == 0, r.out);
}

// `make start` runs migrate while the service may be writing: a batch of the pending events that
// meets its locks is tried again, then left pending (searches find it with LIKE, the service's
// indexer indexes it), and migrate still succeeds. Here a session holds every search word for
// ten seconds and new sessions wait a second for a lock.
TEST_CASE("calendarctl migrate leaves events pending when a writer holds what indexing needs") {
  const char* dir = std::getenv("CAL_TEST_DIR");
  REQUIRE_MESSAGE(dir != nullptr, "scripts/run-tests.sh sets CAL_TEST_DIR");
  const std::string client =
      "mariadb --no-defaults --socket='" + std::string(dir) + "/mysqld.sock' --user=root calendar";
  const caltest::HttpResponse created = caltest::post_json(
      kEvents, R"({"title":"Migrate lock","start_date":"2049-01-01 10:00","end_date":"2049-01-01 11:00"})",
      {caltest::bearer(caltest::admin_token())});
  REQUIRE_MESSAGE(created.status == 201, caltest::describe(created));
  const std::string id = std::to_string(created.json()["id"].GetInt64());
  const std::string word =
      "zqmigratelock" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 1000000);
  const auto pending = [&] {
    return trim(
        run(client + " -N -e \"SELECT COUNT(*) FROM search_pending WHERE event_id = " + id + "\"").out);
  };
  REQUIRE(run(client + " -e \"UPDATE posts SET title = 'Migrate " + word + "' WHERE id = " + id + "\"")
              .exit_code == 0);
  REQUIRE(pending() == "1");
  std::thread holder([&] {
    run(client +
        " -e 'START TRANSACTION; SELECT COUNT(*) FROM search_words FOR UPDATE; DO SLEEP(10); ROLLBACK' "
        ">/dev/null 2>&1");
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  run(client + " -e 'SET GLOBAL innodb_lock_wait_timeout = 1'");
  const Run held = run(ctl() + " migrate 2>&1");
  run(client + " -e 'SET GLOBAL innodb_lock_wait_timeout = 50'");
  holder.join();
  CHECK_MESSAGE(held.exit_code == 0, held.out);
  CHECK(held.out.find("left pending") != std::string::npos);
  CHECK(pending() == "1");
  // Once the lock is gone, the next migrate indexes it.
  const Run free = run(ctl() + " migrate 2>&1");
  CHECK_MESSAGE(free.exit_code == 0, free.out);
  CHECK(pending() == "0");
}

TEST_CASE("calendarctl password add and revoke") {
  const std::string login = caltest::unique("pw");
  const std::string first = trim(run(ctl() + " user add " + login + " --role editor").out);
  const Run second = run(ctl() + " password add " + login);
  REQUIRE(second.exit_code == 0);
  const std::string token = trim(second.out);
  CHECK(token != first);
  CHECK(caltest::post_json(kEvents, "{}", {caltest::bearer(token)}).status == 400);
  CHECK(run(ctl() + " password revoke " + login + " 2>/dev/null").exit_code == 0);
  CHECK(caltest::post_json(kEvents, "{}", {caltest::bearer(token)}).status == 401);
  CHECK(caltest::post_json(kEvents, "{}", {caltest::bearer(first)}).status == 401);
}

TEST_CASE("started as plain CGI, calendar-fcgi answers the one request in its environment") {
  const std::string service = service_command();
  const std::string env =
      "REQUEST_METHOD=GET SCRIPT_NAME=/cgi/api PATH_INFO=/cal/events/v1/nowhere QUERY_STRING= "
      "HTTP_HOST=example.org SERVER_PORT=80 ";
  const Run r = run(env + service + " </dev/null 2>/dev/null");
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("Status: 404 Not Found\r\n", 0) == 0);
  CHECK(r.out.find("Content-Type: application/json; charset=UTF-8\r\n") != std::string::npos);
  CHECK(r.out.find("\"code\":\"rest_no_route\"") != std::string::npos);
  const Run index =
      run("REQUEST_METHOD=GET SCRIPT_NAME=/cgi/api PATH_INFO=/cal/events/v1 HTTP_HOST=example.org " +
          service + " </dev/null 2>/dev/null");
  CHECK(index.out.rfind("Status: 200 OK\r\n", 0) == 0);
  CHECK(index.out.find("\"href\":\"http://example.org/cgi/api/\"") != std::string::npos);
}

// libical and ICU cost a CGI process 1.4 ms to load: it loads them for a feed only (the loader's
// LD_DEBUG=files trace names each library as it is mapped).
TEST_CASE("started as plain CGI, calendar-fcgi loads libical for an iCalendar feed only") {
  const std::string env = "LD_DEBUG=files REQUEST_METHOD=GET SCRIPT_NAME=/cgi/api HTTP_HOST=example.org ";
  const Run list = run(env + "PATH_INFO=/cal/events/v1/events QUERY_STRING=per_page=1 " + service_command() +
                       " </dev/null 2>&1");
  CHECK(list.out.find("Status: 200 OK\r\n") != std::string::npos);
  CHECK(list.out.find("file=libc.so") != std::string::npos);  // the trace is there
  CHECK(list.out.find("libical.so") == std::string::npos);
  const Run feed = run(env + "PATH_INFO=/cal/events/v1/events QUERY_STRING=ical=1 " + service_command() +
                       " </dev/null 2>&1");
  CHECK(feed.out.find("Status: 200 OK\r\n") != std::string::npos);
  CHECK(feed.out.find("BEGIN:VCALENDAR") != std::string::npos);
  CHECK(feed.out.find("libical.so") != std::string::npos);
}
