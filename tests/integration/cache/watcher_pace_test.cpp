// The lease watcher's pace (src/api/pipeline/cache_watcher.cpp): while visitors' requests come it
// reads the data version every half lease, each read a statement MariaDB runs whether or not
// anything changed, and none once requests have stopped for a second. Counted by the metrics'
// version reads, on a stack of its own with a long lease, so that no request of the test is old
// enough to read the version itself.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>

#include "ops/ops_stack.h"
#include "support/client.h"
#include "support/metrics.h"

namespace caltest {
namespace {

double version_reads(const OpsStack& stack) {
  const HttpResponse m = send({.url = stack.url("/metrics")});
  REQUIRE_MESSAGE(m.status == 200, describe(m));
  return metric_sample(m.body, "calendar_response_cache_version_reads_total{cache=\"primary\"}");
}

}  // namespace

TEST_CASE("the lease watcher reads the version every half lease while requests come, then rests") {
  OpsStack stack("watcher-pace", "[server]\ncache_lease_ms = 400\n[metrics]\nenabled = true\n");
  const std::string root = stack.url("/");
  REQUIRE(send({.url = root}).status == 200);
  const double before = version_reads(stack);
  // Three seconds of a request every 50 ms: at half the lease, a read every 200 ms (and the time
  // the read takes), 15 at most; at a quarter it was twice that.
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::seconds(3)) {
    REQUIRE(send({.url = root}).status == 200);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const double busy = version_reads(stack) - before;
  CHECK(busy >= 6);
  CHECK(busy <= 18);
  // A second and a half without requests, then three more seconds of quiet: no read.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const double rested = version_reads(stack);
  std::this_thread::sleep_for(std::chrono::seconds(3));
  CHECK(version_reads(stack) - rested <= 1);
}

}  // namespace caltest
