// Integration tests of how the venue and organizer lists run (DESIGN.md performance rules): a
// constant number of SQL statements whatever per_page is, counted by the service itself
// (X-Cal-Statements: scripts/run-tests.sh runs the stack with [server] statement_count_header = true).
#include <doctest/doctest.h>

#include <string>

#include "support/linked.h"

namespace caltest {
namespace {

TEST_CASE("a linked list page costs the same number of statements for 1 or 20 records") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string word = unique("lcount");
    // 21 records with images; one event linking the venue/organizers, for the filters.
    std::string ids;
    for (int i = 0; i < 21; ++i) {
      const long long id = create_record_id(
          res, word + " " + std::to_string(i),
          "\"image\":" + json_string("https://c.example/" + word + std::to_string(i % 3) + ".png"));
      if (i < 1 || std::string(res.kind) == "organizer") ids += (ids.empty() ? "" : ",") + std::to_string(id);
    }
    const std::string link =
        std::string(res.kind) == "venue" ? "\"venue\":" + ids : "\"organizer\":[" + ids + "]";
    const long long event = create_event("2099-01-01 10:00", "2099-01-01 11:00", link);
    for (const std::string& query :
         {"?search=" + word, "?search=" + word + "&has_events=false&only_with_upcoming=true",
          "?event=" + std::to_string(event) + "&status=publish,draft"}) {
      CAPTURE(query);
      const std::string base = res.collection + query + "&per_page=";
      const HttpResponse one = get(base + "1", {bearer(admin_token())});
      REQUIRE_MESSAGE(one.status == 200, describe(one));
      REQUIRE_MESSAGE(
          !one.header("x-cal-statements").empty(),
          "X-Cal-Statements missing: scripts/run-tests.sh runs the stack with statement_count_header = true");
      const HttpResponse twenty = get(base + "20", {bearer(admin_token())});
      REQUIRE_MESSAGE(twenty.status == 200, describe(twenty));
      CHECK(one.header("x-cal-statements") == twenty.header("x-cal-statements"));
      // Authentication + (event check) + count + ids + records with their images.
      CHECK(std::stoi(one.header("x-cal-statements")) <= 5);
      CHECK(std::stoi(twenty.header("x-cal-statements")) <= 5);
    }
    // A visitor: count + ids + records with their images.
    const HttpResponse visitor = get(collection + "?search=" + word + "&per_page=20");
    REQUIRE_MESSAGE(visitor.status == 200, describe(visitor));
    CHECK(std::stoi(visitor.header("x-cal-statements")) <= 3);
    CHECK(visitor.body.find("c.example/" + word + "2.png") != std::string::npos);
  }
}

}  // namespace
}  // namespace caltest
