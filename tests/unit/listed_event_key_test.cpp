// Unit tests of lists_as() (cal/store/events.h): a list page read as keys renders an event from a
// row read after its key only while the row still lists as the key says; any column the window
// list's filter or order tests, changed in between, sends the caller back to reading rows.
#include "cal/store/events.h"

#include <doctest/doctest.h>

#include <functional>
#include <string>

namespace {

cal::Event listed_event() {
  cal::Event e;
  e.post.id = 42;
  e.post.status = "publish";
  e.post.author = 7;
  e.post.title = "Jazz night";
  e.details.start_utc = "2031-06-05 10:00:00";
  e.details.end_utc = "2031-06-05 11:00:00";
  e.details.hide_from_listings = false;
  e.details.featured = true;
  return e;
}

cal::ListedEventKey key_of(const cal::Event& e) {
  return {e.post.id,           e.post.status,     e.post.author,
          e.details.start_utc, e.details.end_utc, e.details.hide_from_listings,
          e.details.featured};
}

}  // namespace

TEST_CASE("lists_as: the row read after the key lists the same, or the page is read again") {
  const cal::Event event = listed_event();
  CHECK(cal::lists_as(event, key_of(event)));
  // What neither the filter nor the order tests may change in between: the record shows it.
  cal::Event retitled = event;
  retitled.post.title = "Jazz night (moved)";
  retitled.post.content = "<p>New text.</p>";
  CHECK(cal::lists_as(retitled, key_of(event)));
  struct Case {
    const char* change;
    std::function<void(cal::Event&)> apply;
  } const cases[] = {
      {"another event", [](cal::Event& e) { e.post.id = 43; }},
      {"trashed", [](cal::Event& e) { e.post.status = "trash"; }},
      {"made a draft", [](cal::Event& e) { e.post.status = "draft"; }},
      {"another author", [](cal::Event& e) { e.post.author = 8; }},
      {"moved a second later", [](cal::Event& e) { e.details.start_utc = "2031-06-05 10:00:01"; }},
      {"ends later", [](cal::Event& e) { e.details.end_utc = "2031-06-06 11:00:00"; }},
      {"hidden", [](cal::Event& e) { e.details.hide_from_listings = true; }},
      {"no longer featured", [](cal::Event& e) { e.details.featured = false; }},
  };
  for (const Case& c : cases) {
    cal::Event changed = event;
    c.apply(changed);
    CHECK_MESSAGE(!cal::lists_as(changed, key_of(event)), c.change);
  }
}
