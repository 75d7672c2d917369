// The fragment cache with [server] response_cache = false (how make bench measures uncached
// answers): no answer is kept, yet each GET reads the data version, so event records rendered for
// one answer are written again by the next, still never older than a write.
#include <unistd.h>

#include "ops/ops_stack.h"
#include "support/client.h"
#include "support/events.h"

#include <doctest/doctest.h>

#include <string>

namespace caltest {
namespace {

using events::array_size;
using events::event_body;
using events::int_at;

long long statements(const HttpResponse& r) { return std::stoll(r.header("x-cal-statements")); }

}  // namespace

TEST_CASE("fragments without the response cache: the same list again reads no relations, and sees writes") {
  OpsStack stack("fragments", "[server]\nresponse_cache = false\nstatement_count_header = true\n");
  const auto create = [&](const std::string& title) {
    const HttpResponse r =
        send({.url = stack.url("/cal/events/v1/events"),
              .method = "POST",
              .body = event_body(title, "2031-06-05 10:00", "2031-06-05 11:00",
                                 "\"venue\":{\"venue\":\"Hall\"},\"categories\":[\"Talks\"]"),
              .headers = {stack.admin(), "Content-Type: application/json"}});
    REQUIRE_MESSAGE(r.status == 201, describe(r));
    return std::to_string(int_at(r.json(), {"id"}));
  };
  const std::string a = create("First");
  create("Second");
  const std::string list = stack.url("/cal/events/v1/events?start_date=2031-06-01&end_date=2031-06-30");
  // A process's first list also reads how far infinite series reach (series_horizon.cpp).
  REQUIRE(send({.url = stack.url("/cal/events/v1/events?per_page=1")}).status == 200);
  const HttpResponse first = send({.url = list});
  REQUIRE_MESSAGE(first.status == 200, describe(first));
  REQUIRE(array_size(first.json(), {"events"}) == 2);
  const HttpResponse second = send({.url = list});
  CHECK(statements(second) == statements(first) - 1);
  CHECK(second.body == first.body);
  const HttpResponse renamed = send({.url = stack.url("/cal/events/v1/events/" + a),
                                     .method = "POST",
                                     .body = "{\"title\":\"Renamed\"}",
                                     .headers = {stack.admin(), "Content-Type: application/json"}});
  REQUIRE_MESSAGE(renamed.status == 200, describe(renamed));
  const HttpResponse after = send({.url = list});
  CHECK(string_at(after.json(), {"events", "0", "title"}) == "Renamed");
  CHECK(string_at(after.json(), {"events", "1", "title"}) == "Second");
  CHECK(statements(after) == statements(first));  // the renamed event's relations read again
}

}  // namespace caltest
