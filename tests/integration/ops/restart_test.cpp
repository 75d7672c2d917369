// SIGTERM (docs/operations.md): the service stops accepting, finishes the requests in flight and
// exits 0; restarted under a load of writes, no acknowledged write is lost and nginx saw no
// answer cut off (its only 502s are connections refused while no process listened). A request
// stuck longer than server.shutdown_seconds does not keep the process from exiting.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "ops/ops_stack.h"

namespace caltest {
namespace {

using namespace std::chrono_literals;

bool alive(long long pid) { return pid > 0 && kill(static_cast<pid_t>(pid), 0) == 0; }

// Waits up to `limit` for `pid` to end; whether it did.
bool ended_within(long long pid, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (alive(pid) && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(20ms);
  return !alive(pid);
}

std::string create_body(const std::string& title) {
  return "{\"title\":\"" + title + "\",\"status\":\"publish\",\"start_date\":\"2032-03-03 10:00\"," +
         "\"end_date\":\"2032-03-03 11:00\"}";
}

}  // namespace

TEST_CASE("a restart under a load of writes loses no acknowledged write and cuts off no answer") {
  OpsStack stack("restart", "");
  const long long old_pid = stack.service_pid();
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::map<long long, std::string> acknowledged;  // id -> title
  std::map<long, int> statuses;
  std::thread load([&] {
    run_parallel(4, [&](int w) {
      for (int i = 0; !stop; ++i) {
        const std::string title = "restart-" + std::to_string(w) + "-" + std::to_string(i);
        long status = 0;
        long long id = 0;
        try {
          const HttpResponse r = send({.url = stack.url("/cal/events/v1/events"),
                                       .method = "POST",
                                       .body = create_body(title),
                                       .headers = {stack.admin(), "Content-Type: application/json"},
                                       .timeout_ms = 20000});
          status = r.status;
          if (status == 201) id = r.json()["id"].GetInt64();
        } catch (const std::exception&) {
          status = -1;  // no answer at all
        }
        std::lock_guard<std::mutex> lock(mutex);
        ++statuses[status];
        if (id > 0) acknowledged[id] = title;
        if (status != 201) std::this_thread::sleep_for(20ms);
      }
    });
  });
  std::this_thread::sleep_for(1s);
  REQUIRE(kill(static_cast<pid_t>(old_pid), SIGTERM) == 0);
  CHECK(ended_within(old_pid, 10s));
  stack.up();  // the new process, as a supervisor would start it
  CHECK(stack.service_pid() != old_pid);
  std::this_thread::sleep_for(1s);
  stop = true;
  load.join();

  std::string seen;
  for (const auto& [status, n] : statuses) seen += std::to_string(status) + ": " + std::to_string(n) + "  ";
  CAPTURE(seen);
  CHECK(statuses[201] > 20);
  // Only 201 and, while no process listened, nginx's 502 for a refused connection.
  for (const auto& [status, n] : statuses) CHECK_MESSAGE((status == 201 || status == 502), status);
  const std::string nginx_errors = read_text_file(stack.dir() + "/nginx/error.log");
  CHECK_MESSAGE(nginx_errors.find("prematurely closed") == std::string::npos, nginx_errors);
  CHECK_MESSAGE(nginx_errors.find("reset by peer") == std::string::npos, nginx_errors);
  const std::string log = read_text_file(stack.dir() + "/calendar-fcgi.log");
  CHECK_MESSAGE(log.find("stopped, every request in flight answered") != std::string::npos, log);
  // Every acknowledged write is there, as acknowledged.
  int missing = 0;
  for (const auto& [id, title] : acknowledged) {
    const HttpResponse r =
        send({.url = stack.url("/cal/events/v1/events/" + std::to_string(id)), .headers = {stack.admin()}});
    if (r.status != 200 || r.body.find("\"" + title + "\"") == std::string::npos) {
      ++missing;
      MESSAGE(id << " " << title << ": " << r.status);
    }
  }
  CHECK(missing == 0);
}

TEST_CASE("a request stuck past server.shutdown_seconds does not keep the process from exiting") {
  OpsStack stack("stuck", "[server]\nshutdown_seconds = 1\n");
  const long long pid = stack.service_pid();
  // A table locked by another session: the create waits on it (innodb_lock_wait_timeout is longer).
  const std::string lock = "mariadb --no-defaults --socket=" + stack.dir() +
                           "/mysqld.sock -uroot calendar -e 'LOCK TABLES posts WRITE; SELECT SLEEP(6)' "
                           ">/dev/null 2>&1 & echo $!";
  const Run locker = run(lock);
  REQUIRE(locker.exit_code == 0);
  std::this_thread::sleep_for(500ms);
  std::thread stuck([&] {
    try {
      send({.url = stack.url("/cal/events/v1/events"),
            .method = "POST",
            .body = create_body("stuck"),
            .headers = {stack.admin(), "Content-Type: application/json"},
            .timeout_ms = 15000});
    } catch (const std::exception&) {
    }
  });
  std::this_thread::sleep_for(500ms);
  const auto signalled = std::chrono::steady_clock::now();
  REQUIRE(kill(static_cast<pid_t>(pid), SIGTERM) == 0);
  CHECK(ended_within(pid, 4s));
  const auto took = std::chrono::steady_clock::now() - signalled;
  CHECK(took >= 900ms);  // it did wait for the request, as long as allowed
  stuck.join();
  run("kill " + locker.out.substr(0, locker.out.find('\n')) + " 2>/dev/null");
  const std::string log = read_text_file(stack.dir() + "/calendar-fcgi.log");
  CHECK_MESSAGE(log.find("requests still running after 1 s, exiting") != std::string::npos, log);
}

}  // namespace caltest
