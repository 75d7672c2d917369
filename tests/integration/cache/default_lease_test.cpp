// The response cache's lease in the default configuration (`[server] cache_lease_ms`, on unless
// set to 0; docs/performance.md): cached answers rest on the watcher's version reads instead of a
// round trip each, yet a write through the service is in every reader's next answer at once, on
// the process that made it and on another one sharing the database (the nginx-over-TCP
// deployment of scripts/deploy-stacks.sh). Writes by hand in SQL: response_cache_test.cpp.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <thread>

#include "support/client.h"
#include "support/commands.h"
#include "support/events.h"
#include "support/metrics.h"
#include "support/reliability.h"

namespace caltest {
namespace {

using namespace events;

// X-Cal-Statements: 0 marks an answer from the cache (the stack runs with the header on).
bool from_cache(const HttpResponse& r) { return r.status == 200 && r.header("x-cal-statements") == "0"; }

// The REST root of the second process (nginx over TCP to its own calendar-fcgi, same database), or ""
// when hand runs opted out of the deployments (CAL_TEST_NO_DEPLOY=1).
std::string other_process_root() {
  const char* v = std::getenv("CAL_TEST_NGINX_TCP_PREFIX");
  if (v != nullptr && *v != '\0') return v;
  const char* opted_out = std::getenv("CAL_TEST_NO_DEPLOY");
  REQUIRE_MESSAGE((opted_out != nullptr && std::string(opted_out) == "1"),
                  "CAL_TEST_NGINX_TCP_PREFIX is not set: the deployment did not start");
  MESSAGE("CAL_TEST_NO_DEPLOY=1: the second process is not tested");
  return "";
}

HttpResponse get_at(const std::string& root, const std::string& path) { return send({.url = root + path}); }

}  // namespace

TEST_CASE("by default, cached answers rest on the cache lease instead of a version read each") {
  REQUIRE(cache_lease().count() > 0);  // the default stack states no lease: the default is on
  const long long id =
      create_id("Leased by default " + unique("dl"), days_ahead(6, "10:00"), days_ahead(6, "11:00"));
  get(path_of(id));
  const std::string leased = "calendar_response_cache_leased_total{cache=\"primary\"}";
  const HttpResponse before = send({.url = metrics_url()});
  REQUIRE(before.status == 200);
  for (int i = 0; i < 40; ++i) CHECK(from_cache(get(path_of(id))));
  const HttpResponse after = send({.url = metrics_url()});
  REQUIRE(after.status == 200);
  // Back to back, nearly every lookup finds the watcher's last read young enough; at least some must.
  CHECK(metric_sample(after.body, leased) > metric_sample(before.body, leased));
}

TEST_CASE(
    "with the default lease, a write through the service is in the next answer of this and another process") {
  const std::string other = other_process_root();
  const std::string word = unique("dlw");
  const long long id = create_id("Written 0 " + word, days_ahead(6, "12:00"), days_ahead(6, "13:00"));
  const std::string path = path_of(id);
  const std::string list = std::string(kEvents) + "?search=" + word;
  // Readers on both processes keep the lease in use and the answers cached.
  const BackgroundLoad readers([&] {
    get_at(base_url(), path);
    get_at(base_url(), list);
    if (!other.empty()) {
      get_at(other, path);
      get_at(other, list);
    }
  });
  std::this_thread::sleep_for(cache_lease() * 5);
  REQUIRE(from_cache(get(path)));
  if (!other.empty()) REQUIRE(from_cache(get_at(other, path)));
  for (int i = 1; i <= 10; ++i) {
    CAPTURE(i);
    const std::string title = "Written " + std::to_string(i) + " " + word;
    // Written through this process or the other, alternately; read at once on both.
    const std::string writer = other.empty() || i % 2 == 1 ? base_url() : other;
    const HttpResponse edited = send({.url = writer + path,
                                      .method = "POST",
                                      .body = "{\"title\":\"" + title + "\"}",
                                      .headers = {admin(), "Content-Type: application/json"}});
    REQUIRE_MESSAGE(edited.status == 200, describe(edited));
    CHECK(string_at(get_at(base_url(), path).json(), {"title"}) == title);
    CHECK(string_at(get_at(base_url(), list).json(), {"events", "0", "title"}) == title);
    if (!other.empty()) {
      CHECK(string_at(get_at(other, path).json(), {"title"}) == title);
      CHECK(string_at(get_at(other, list).json(), {"events", "0", "title"}) == title);
    }
  }
  CHECK(from_cache(get(path)));
}

TEST_CASE("a write's answer waits out the lease on the release queue, its worker thread serving on") {
  const std::string held = "calendar_lease_held_answers_total";
  const HttpResponse before = send({.url = metrics_url()});
  REQUIRE(before.status == 200);
  const std::string body =
      event_body("Held " + unique("held"), days_ahead(7, "10:00"), days_ahead(7, "11:00"));
  std::chrono::milliseconds took{};
  const HttpResponse created = send({.url = base_url() + kEvents,
                                     .method = "POST",
                                     .body = body,
                                     .headers = {admin(), "Content-Type: application/json"}},
                                    &took);
  REQUIRE(created.status == 201);
  // Acknowledged no sooner than the lease after its commit, as before; but held by the queue.
  CHECK(took >= cache_lease());
  const HttpResponse after = send({.url = metrics_url()});
  REQUIRE(after.status == 200);
  CHECK(metric_sample(after.body, held) >= metric_sample(before.body, held) + 1);
  CHECK(metric_sample(after.body, "calendar_lease_held_answers") >= 0);
}

}  // namespace caltest
