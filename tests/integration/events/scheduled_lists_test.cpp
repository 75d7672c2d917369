// A scheduled event whose date has passed reads as published (docs/api.md §4.1), so a visitor's
// list looks for such events beside the published ones: a part of its statements that MariaDB
// plans at every execution. While the data version the request read finds none due and none
// coming due within a minute, the lists leave that part out (read from MariaDB's general log);
// once one may come due they look again, and list it when it has.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>

#include "ops/ops_stack.h"
#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using events::event_body;
using events::int_at;

// A list query no earlier request asked, so that no cached answer stands for it.
std::string fresh(const std::string& url) {
  static int per_page = 10;
  return url + "&per_page=" + std::to_string(++per_page);
}

}  // namespace

TEST_CASE("lists look for due scheduled events only while one may be due") {
  OpsStack stack("scheduled-lists", "[server]\nstatement_count_header = true\n");
  const auto create = [&](const std::string& title, const std::string& extra) {
    const HttpResponse r = send({.url = stack.url("/cal/events/v1/events"),
                                 .method = "POST",
                                 .body = event_body(title, "2031-08-05 10:00", "2031-08-05 11:00", extra),
                                 .headers = {stack.admin(), "Content-Type: application/json"}});
    REQUIRE_MESSAGE(r.status == 201, describe(r));
    return r.json();
  };
  const std::string category =
      std::to_string(int_at(create("Published", "\"categories\":[\"Talks\"]"), {"categories", "0", "id"}));
  const std::string list = stack.url("/cal/events/v1/events?start_date=2031-08-01&end_date=2031-08-31");
  const std::string by_category = list + "&categories=" + category;
  // The list's statements that read event_details, and its total.
  const auto listed = [&](const std::string& url) {
    HttpResponse r;
    const std::string logged = stack.logged_while([&] { r = send({.url = fresh(url)}); }, "event_details");
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    return std::make_pair(logged, r.header("x-wp-total"));
  };

  for (const std::string& url : {list, by_category}) {
    CAPTURE(url);
    const auto [logged, total] = listed(url);
    CHECK(total == "1");
    CHECK_MESSAGE(logged.find("event_details_due") == std::string::npos, logged);
  }

  const auto scheduled = create("Scheduled", "\"date\":\"+3 seconds\",\"categories\":[" + category + "]");
  REQUIRE(string_at(scheduled, {"status"}) == "future");
  for (const std::string& url : {list, by_category}) {
    CAPTURE(url);
    const auto [logged, total] = listed(url);
    CHECK(total == "1");
    CHECK_MESSAGE(logged.find("event_details_due") != std::string::npos, logged);
  }
  // Due: stored `future` still, listed as published.
  std::this_thread::sleep_for(std::chrono::milliseconds(4200));
  for (const std::string& url : {list, by_category}) {
    CAPTURE(url);
    const auto [logged, total] = listed(url);
    CHECK(total == "2");
    CHECK_MESSAGE(logged.find("event_details_due") != std::string::npos, logged);
  }
}

}  // namespace caltest
