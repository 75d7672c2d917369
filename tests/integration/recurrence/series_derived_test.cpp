// Integration tests of what a series write derives (docs/recurring-events.md, "Storage"): the
// occurrences' rows, link copies, rollups, search postings and change-log notes are written
// set-wise with the row triggers off, and must be exactly what the triggers would have written,
// after every kind of series write: create, edit all, edit one, split, cancel, trash, untrash,
// force delete.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/client.h"
#include "support/engine.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

// The category's `count`: its published events, kept by term_counts.
long long category_count(long long category) {
  const HttpResponse r = get("/cal/events/v1/categories/" + std::to_string(category));
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  return int_at(r.json(), {"count"});
}

// X-WP-Total of a visitor's search for `word` in 2041 (answered from the search postings).
std::string search_total(const std::string& word) {
  const HttpResponse r =
      get(std::string(kEvents) + "?start_date=2041-01-01&end_date=2042-12-31&search=" + word);
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  return r.header("X-WP-Total");
}

// The occurrences of `series` whose record the change log never named: a cached answer made of
// them would outlive their change.
std::string unnoted_occurrences(long long series) {
  return engine::sql(
      "SELECT COUNT(*) FROM event_occurrences eo WHERE eo.series_id = " + std::to_string(series) +
      " AND NOT EXISTS (SELECT 1 FROM data_changes c WHERE c.kind = 'event' AND c.record_id = "
      "eo.event_id)");
}

// The data versions counted over the change log's rows: constant while every version bump has
// its row (readers read a shard's log between two versions and expect no gap).
long long versions_without_rows() {
  return std::stoll(
      engine::sql("SELECT (SELECT SUM(version) FROM data_version) - (SELECT COUNT(*) FROM data_changes)"));
}

TEST_CASE(
    "recurrence: every kind of series write leaves rollups, copies, postings and the change log exact") {
  // One search word each (an underscore would part them).
  std::string word = unique("derivedword"), other = unique("renamedword");
  std::erase(word, '_');
  std::erase(other, '_');
  const long long category =
      made("/cal/events/v1/categories", "{\"name\":" + quoted(unique("Derived")) + "}");
  const long long venue = made("/cal/events/v1/venues", "{\"venue\":" + quoted(unique("Hall")) + "}");
  const long long organizer =
      made("/cal/events/v1/organizers", "{\"organizer\":" + quoted(unique("Host")) + "}");
  const long long unlogged = versions_without_rows();
  const std::string links = ",\"timezone\":\"Europe/Berlin\",\"status\":\"publish\",\"categories\":[" +
                            std::to_string(category) + "],\"venue\":" + std::to_string(venue) +
                            ",\"organizer\":[" + std::to_string(organizer) + "]";

  // Create: 20 weekly occurrences across the change to summer time.
  const rapidjson::Document created =
      create(event_body("Class " + word, "2041-03-05 19:00", "2041-03-05 21:00",
                        links.substr(1) + ",\"recurrence\":[\"RRULE:FREQ=WEEKLY;COUNT=20\"]"));
  const long long series = id_of(created);
  CHECK(int_at(created, {"occurrences_created"}) == 20);
  CHECK(engine::derived_data_mismatch() == "");
  CHECK(category_count(category) == 20);
  CHECK(search_total(word) == "20");
  CHECK(unnoted_occurrences(series) == "0");
  CHECK(versions_without_rows() == unlogged);
  const std::vector<long long> ids =
      list_ids(std::string("start_date=2041-01-01&end_date=2042-12-31&per_page=50") +
               "&categories=" + std::to_string(category));
  REQUIRE(ids.size() == 20);
  CHECK(int_at(get(path_of(ids[3])).json(), {"venue", "id"}) == venue);
  // Cached now; the edits below must reach it.
  CHECK(string_at(get(path_of(ids[3])).json(), {"title"}) == "Class " + word);

  // Edit all: a new title and four more occurrences.
  const HttpResponse all = patch_json(
      path_of(series),
      "{\"title\":" + quoted("Class " + other) + ",\"recurrence\":[\"RRULE:FREQ=WEEKLY;COUNT=24\"]}",
      {admin()});
  REQUIRE_MESSAGE(all.status == 200, describe(all));
  CHECK(engine::derived_data_mismatch() == "");
  CHECK(category_count(category) == 24);
  CHECK(search_total(word) == "0");
  CHECK(search_total(other) == "24");
  CHECK(string_at(get(path_of(ids[3])).json(), {"title"}) == "Class " + other);
  CHECK(unnoted_occurrences(series) == "0");

  // Edit one: its own title, out of the search for the series' words.
  REQUIRE(patch_json(path_of(ids[2]), R"({"title":"Alone tonight"})", {admin()}).status == 200);
  CHECK(engine::derived_data_mismatch() == "");
  CHECK(search_total(other) == "23");

  // Split at the eleventh: the later ones follow a new series with a new title.
  const HttpResponse split = patch_json(path_of(ids[10]) + "?scope=following",
                                        "{\"title\":" + quoted("Later " + word) + "}", {admin()});
  REQUIRE_MESSAGE(split.status == 200, describe(split));
  const long long later = id_of(split.json());
  CHECK(engine::derived_data_mismatch() == "");
  CHECK(category_count(category) == 24);
  CHECK(search_total(word) == "14");
  CHECK(unnoted_occurrences(later) == "0");
  CHECK(versions_without_rows() == unlogged);

  // Cancel one of the first series.
  REQUIRE(del(path_of(ids[5]), {admin()}).status == 200);
  CHECK(engine::derived_data_mismatch() == "");
  CHECK(category_count(category) == 23);

  // Trash, untrash and force-delete the first series.
  REQUIRE(del(path_of(series), {admin()}).status == 200);
  CHECK(engine::derived_data_mismatch() == "");
  CHECK(category_count(category) == 14);
  REQUIRE(patch_json(path_of(series), R"({"status":"publish"})", {admin()}).status == 200);
  CHECK(engine::derived_data_mismatch() == "");
  CHECK(category_count(category) == 23);
  REQUIRE(del(path_of(series) + "?force=true", {admin()}).status == 200);
  CHECK(engine::derived_data_mismatch() == "");
  CHECK(category_count(category) == 14);
  CHECK(search_total(word) == "14");
  CHECK(versions_without_rows() == unlogged);
}

}  // namespace
}  // namespace caltest
