// The health check with read replicas (the `replicas` suite, docs/operations.md): each replica is
// listed with its lag; with every replica behind by more than max_replica_lag (3 s on that stack)
// the replicas check fails and the answer is 503, and it is 200 again once they catch up.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "support/client.h"
#include "support/commands.h"
#include "support/reliability.h"

namespace caltest {
namespace {

bool replicas_on() {
  const char* v = std::getenv("CAL_TEST_REPLICAS");
  return v != nullptr && std::atoi(v) > 0;
}

int sql_on_replica(int k, const std::string& sql) {
  const std::string socket = test_stack_dir() + "/replica-" + std::to_string(k) + "/mysqld.sock";
  return run("mariadb --no-defaults --user=root --socket='" + socket + "' -e \"" + sql + "\"").exit_code;
}

// Polls the health check until its answer has `status` and contains `text` (up to 20 s).
HttpResponse health_until(long status, const std::string& text) {
  HttpResponse r;
  for (int i = 0; i < 100; ++i) {
    r = get("/cal/events/v1/health");
    if (r.status == status && r.body.find(text) != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return r;
}

}  // namespace

TEST_CASE("health lists the replicas; every replica too far behind fails it with 503, caught up it is 200" *
          doctest::test_suite("replicas") * doctest::skip(!replicas_on())) {
  const HttpResponse ok = health_until(200, "replica 2 serving");
  CHECK_MESSAGE(ok.status == 200, ok.body);
  CHECK(string_at(ok.json(), {"checks", "replicas", "status"}) == "ok");
  REQUIRE(sql_on_replica(1, "STOP SLAVE") == 0);
  REQUIRE(sql_on_replica(2, "STOP SLAVE") == 0);
  const HttpResponse created =
      post_json("/cal/events/v1/events",
                "{\"title\":\"" + unique("lagging") +
                    "\",\"start_date\":\"2033-01-01 10:00\",\"end_date\":\"2033-01-01 11:00\"}",
                {bearer(admin_token())});
  CHECK(created.status == 201);
  const HttpResponse behind = health_until(503, "replica 2 excluded");
  REQUIRE(sql_on_replica(1, "START SLAVE") == 0);
  REQUIRE(sql_on_replica(2, "START SLAVE") == 0);
  CHECK_MESSAGE(behind.status == 503, behind.body);
  CHECK(string_at(behind.json(), {"checks", "replicas", "status"}) == "failing");
  CHECK(string_at(behind.json(), {"checks", "database", "status"}) == "ok");
  CHECK_MESSAGE(behind.body.find("replica 1 excluded") != std::string::npos, behind.body);
  const HttpResponse back = health_until(200, "replica 1 serving");
  CHECK_MESSAGE(back.status == 200, back.body);
}

}  // namespace caltest
