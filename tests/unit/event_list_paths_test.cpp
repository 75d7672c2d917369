// Which engine serves which event list (docs/architecture.md, the list plans): authors' lists and the
// link-filtered ones are ordered index scans, not the general query.
#include "store/event_link_list.h"
#include "store/event_window_list.h"
#include "cal/store/events.h"

#include <doctest/doctest.h>

#include <string>

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("an author's list is the published list plus their own rows from the author index") {
  cal::EventFilter author;
  author.visibility.scope = cal::ReadScope::kPublishedAndOwn;
  author.visibility.user_id = 7;
  REQUIRE(cal::window_list_applies(author));
  const std::string sql = cal::event_page_sql(author);
  CHECK(has(sql, "FORCE INDEX (event_details_author_start)"));
  CHECK(has(sql, "FORCE INDEX (event_details_status_start)"));
  // Only statuses no published row has: the own part alone.
  author.visibility.statuses = {"draft"};
  const std::string own = cal::event_page_sql(author);
  CHECK(has(own, "event_details_author_start"));
  CHECK(!has(own, "event_details_status_start"));
}

TEST_CASE("a link filter drives the list from its table's list index; include goes the general way") {
  struct Case {
    const char* name;
    void (*set)(cal::EventFilter&);
    const char* index;
  };
  const Case cases[] = {
      {"category", [](cal::EventFilter& f) { f.categories = {3}; }, "term_relationships_list"},
      {"tag", [](cal::EventFilter& f) { f.tags = {4}; }, "term_relationships_list"},
      {"venue", [](cal::EventFilter& f) { f.venues = {5}; }, "event_venues_list"},
      {"organizer", [](cal::EventFilter& f) { f.organizers = {6}; }, "event_organizers_list"},
      // The venue (fewer events) drives when a category is there too.
      {"venue and category",
       [](cal::EventFilter& f) {
         f.venues = {5};
         f.categories = {3};
       },
       "event_venues_list"},
  };
  for (const Case& c : cases) {
    cal::EventFilter f;
    c.set(f);
    f.search.required = {"jazz"};
    CHECK_MESSAGE(!cal::window_list_applies(f), c.name);
    REQUIRE_MESSAGE(cal::link_list_applies(f), c.name);
    const std::string sql = cal::event_page_sql(f);
    CHECK_MESSAGE(has(sql, std::string("FORCE INDEX (") + c.index + ")"), c.name);
    CHECK_MESSAGE(has(sql, "STRAIGHT_JOIN"), c.name);
    CHECK_MESSAGE(has(sql, "LIKE"), c.name);  // the search tested on the driver's rows
  }
  cal::EventFilter include;
  include.categories = {3};
  include.include = {1, 2};
  CHECK(!cal::link_list_applies(include));
}
