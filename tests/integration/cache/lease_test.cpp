// The response cache with a lease (`[server] cache_lease_ms`, docs/configuration.md): cached answers rest on
// the watcher's version reads instead of one of their own, and every write through the service
// waits out the lease before it is acknowledged, so that no visitor is ever answered from before
// a write acknowledged to anyone. Runs against the second stack of scripts/run-tests.sh (suite
// "lease-on", CAL_TEST_LEASE=on, cache_lease_ms = 20).
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

bool from_cache(const std::string& path) { return get(path).header("x-cal-statements") == "0"; }

TEST_CASE("with a cache lease, the next visitor sees every acknowledged write" *
          doctest::test_suite("lease-on") * doctest::skip(!lease_on())) {
  const std::string word = unique("lease");
  const long long id = create_id("Leased 0 " + word, days_ahead(4, "10:00"), days_ahead(4, "11:00"));
  const std::string list = std::string(kEvents) + "?search=" + word;
  get(path_of(id));
  get(list);
  REQUIRE(from_cache(path_of(id)));  // answers do come from the cache
  REQUIRE(from_cache(list));
  for (int i = 1; i <= 25; ++i) {
    const std::string title = "Leased " + std::to_string(i) + " " + word;
    const auto started = std::chrono::steady_clock::now();
    const HttpResponse edited = post_json(path_of(id), "{\"title\":\"" + title + "\"}", {admin()});
    REQUIRE_MESSAGE(edited.status == 200, describe(edited));
    if (i == 1)  // the write waited out the lease before its answer left
      CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(20));
    CHECK(string_at(get(path_of(id)).json(), {"title"}) == title);
    CHECK(string_at(get(list).json(), {"events", "0", "title"}) == title);
    CHECK(from_cache(path_of(id)));
  }
}

}  // namespace
}  // namespace caltest
