// The fragment cache with [server] response_cache = false (how make bench measures uncached
// answers): no answer is kept, yet each GET reads the data version, so event records rendered for
// one answer are written again by the next, still never older than a write.
#include <unistd.h>

#include "ops/ops_stack.h"
#include "support/client.h"
#include "support/events.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

namespace caltest {
namespace {

using events::array_size;
using events::event_body;
using events::int_at;

long long statements(const HttpResponse& r) { return std::stoll(r.header("x-cal-statements")); }

// The statements of a general log excerpt that look a list filter's terms up.
std::size_t term_lookups(const std::string& logged) {
  std::size_t lookups = 0;
  for (std::size_t at = 0; (at = logged.find("SELECT id, slug FROM terms", at)) != std::string::npos; ++at)
    ++lookups;
  return lookups;
}

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
  // The first read the records' links, then the venue and category they name: two statements.
  CHECK(statements(second) == statements(first) - 2);
  CHECK(second.body == first.body);
  const HttpResponse renamed = send({.url = stack.url("/cal/events/v1/events/" + a),
                                     .method = "POST",
                                     .body = "{\"title\":\"Renamed\"}",
                                     .headers = {stack.admin(), "Content-Type: application/json"}});
  REQUIRE_MESSAGE(renamed.status == 200, describe(renamed));
  const HttpResponse after = send({.url = list});
  CHECK(string_at(after.json(), {"events", "0", "title"}) == "Renamed");
  CHECK(string_at(after.json(), {"events", "1", "title"}) == "Second");
  // The renamed event's links read again; its venue and category are still kept.
  CHECK(statements(after) == statements(second) + 1);
}

}  // namespace caltest

namespace caltest {

// The default list's page with every record kept is read as keys (find_event_key_page()) and
// counted in the same statement, which reads the visibility index, event_details and the rollups,
// no row of posts; the records not kept come with their relations in the one statement that reads
// those. A category's list too reads keys: its links and event_details; its category is looked
// up once.
TEST_CASE("fragments without the response cache: a page of kept records reads no event rows") {
  OpsStack stack("fragment-keys", "[server]\nresponse_cache = false\nstatement_count_header = true\n");
  std::string ids[3];
  for (int i = 0; i < 3; ++i) {
    const HttpResponse r =
        send({.url = stack.url("/cal/events/v1/events"),
              .method = "POST",
              .body = event_body("Keyed " + std::to_string(i), "2031-07-0" + std::to_string(i + 1) + " 10:00",
                                 "2031-07-0" + std::to_string(i + 1) + " 11:00",
                                 "\"venue\":{\"venue\":\"Hall\"},\"categories\":[\"Talks\"]"),
              .headers = {stack.admin(), "Content-Type: application/json"}});
    REQUIRE_MESSAGE(r.status == 201, describe(r));
    ids[i] = std::to_string(int_at(r.json(), {"id"}));
  }
  const std::string list = stack.url("/cal/events/v1/events?start_date=2031-07-01&end_date=2031-07-31");
  REQUIRE(send({.url = stack.url("/cal/events/v1/events?per_page=1")}).status == 200);
  const HttpResponse first = send({.url = list});  // renders and keeps the three records
  REQUIRE_MESSAGE(first.status == 200, describe(first));
  REQUIRE(array_size(first.json(), {"events"}) == 3);
  // The server's indexer reads new events' texts in the background (docs/search.md): done first.
  for (int i = 0; i < 100 && stack.sql("SELECT COUNT(*) FROM search_pending") != "0"; ++i) usleep(100000);
  REQUIRE(stack.sql("SELECT COUNT(*) FROM search_pending") == "0");
  // The statements of one GET of the list.
  HttpResponse kept;
  const std::string logged = stack.logged_while([&] { kept = send({.url = list}); }, "event_details");
  CHECK(kept.body == first.body);
  CHECK(statements(kept) == statements(first) - 2);  // no links, no venue or category
  // One statement pages and counts (the count planned with the duration bounds the previous list
  // read, checked against those it reads), and it reads no row of posts.
  CHECK_MESSAGE(std::count(logged.begin(), logged.end(), '\n') == 1, logged);
  CHECK_MESSAGE(logged.find("SUM(d.events)") != std::string::npos, logged);
  CHECK_MESSAGE(logged.find("posts") == std::string::npos, logged);
  // One record written: its row comes with its links (its venue and category kept); the others
  // stay as kept.
  const HttpResponse renamed = send({.url = stack.url("/cal/events/v1/events/" + ids[1]),
                                     .method = "POST",
                                     .body = "{\"title\":\"Keyed renamed\"}",
                                     .headers = {stack.admin(), "Content-Type: application/json"}});
  REQUIRE_MESSAGE(renamed.status == 200, describe(renamed));
  const HttpResponse after = send({.url = list});
  CHECK(statements(after) == statements(kept) + 1);
  CHECK(string_at(after.json(), {"events", "0", "title"}) == "Keyed 0");
  CHECK(string_at(after.json(), {"events", "1", "title"}) == "Keyed renamed");
  CHECK(string_at(after.json(), {"events", "2", "title"}) == "Keyed 2");
  // A category's list of the same records is read as keys as well: its page statement walks the
  // category's links and reads event_details' copies; no statement reads posts.
  const std::string talks = stack.sql("SELECT id FROM terms WHERE name = 'Talks'");
  const std::string by_category = list + "&categories=" + talks;
  REQUIRE(send({.url = by_category}).status == 200);
  HttpResponse category_kept;
  const std::string category_logged = stack.logged_while([&] { category_kept = send({.url = by_category}); });
  REQUIRE_MESSAGE(category_kept.status == 200, describe(category_kept));
  CHECK(events::ids_in(category_kept.json()) == events::ids_in(after.json()));
  CHECK_MESSAGE(category_logged.find("term_relationships") != std::string::npos, category_logged);
  CHECK_MESSAGE(category_logged.find("posts") == std::string::npos, category_logged);
  // The validator finds the category by its id among the rows kept for the records (no
  // statement) and hands the id to the list; by its slug it looks it up, once.
  CHECK_MESSAGE(term_lookups(category_logged) == 0, category_logged);
  HttpResponse by_slug;
  const std::string slug_logged =
      stack.logged_while([&] { by_slug = send({.url = list + "&categories=talks"}); });
  CHECK(events::ids_in(by_slug.json()) == events::ids_in(category_kept.json()));
  CHECK_MESSAGE(term_lookups(slug_logged) == 1, slug_logged);
  // The same bytes as a service rendering every record afresh.
  stack.down();
  stack.up();
  const HttpResponse fresh = send({.url = list});
  CHECK(fresh.body == after.body);
}

// A filter's term found among the kept rows is as current as a statement's: a term renamed,
// deleted, or of the other taxonomy is looked up (and refused) as before.
TEST_CASE("fragments without the response cache: a kept term answers a filter until it changes") {
  OpsStack stack("fragment-terms", "[server]\nresponse_cache = false\nstatement_count_header = true\n");
  const HttpResponse created = send({.url = stack.url("/cal/events/v1/events"),
                                     .method = "POST",
                                     .body = event_body("Filtered", "2031-08-01 10:00", "2031-08-01 11:00",
                                                        "\"categories\":[\"Talks\"],\"tags\":[\"Evening\"]"),
                                     .headers = {stack.admin(), "Content-Type: application/json"}});
  REQUIRE_MESSAGE(created.status == 201, describe(created));
  const std::string talks = stack.sql("SELECT id FROM terms WHERE name = 'Talks'");
  const std::string evening = stack.sql("SELECT id FROM terms WHERE name = 'Evening'");
  const std::string list = stack.url("/cal/events/v1/events?start_date=2031-08-01&end_date=2031-08-31");
  REQUIRE(send({.url = list}).status == 200);  // renders the record, keeps its terms
  HttpResponse kept;
  CHECK(term_lookups(stack.logged_while([&] { kept = send({.url = list + "&categories=" + talks}); })) == 0);
  CHECK(array_size(kept.json(), {"events"}) == 1);
  // A tag's id among the categories: kept, but of the other taxonomy, so looked up and refused.
  HttpResponse tag_as_category;
  CHECK(term_lookups(stack.logged_while(
            [&] { tag_as_category = send({.url = list + "&categories=" + evening}); })) == 1);
  CHECK(error_mismatch(tag_as_category, 400, "rest_invalid_param") == "");
  // Renamed: the kept row is dropped with the change, the next filter looks the term up again.
  const HttpResponse renamed = send({.url = stack.url("/cal/events/v1/categories/" + talks),
                                     .method = "POST",
                                     .body = "{\"name\":\"Lectures\"}",
                                     .headers = {stack.admin(), "Content-Type: application/json"}});
  REQUIRE_MESSAGE(renamed.status == 200, describe(renamed));
  HttpResponse after_rename;
  CHECK(term_lookups(
            stack.logged_while([&] { after_rename = send({.url = list + "&categories=" + talks}); })) == 1);
  CHECK(array_size(after_rename.json(), {"events"}) == 1);
  // Deleted (kept again by the list just read): the filter names no term any more.
  REQUIRE(send({.url = list}).status == 200);
  const HttpResponse deleted = send({.url = stack.url("/cal/events/v1/categories/" + talks + "?force=true"),
                                     .method = "DELETE",
                                     .headers = {stack.admin()}});
  REQUIRE_MESSAGE(deleted.status == 200, describe(deleted));
  CHECK(error_mismatch(send({.url = list + "&categories=" + talks}), 400, "rest_invalid_param") == "");
}

}  // namespace caltest
