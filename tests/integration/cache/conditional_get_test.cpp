// Conditional GET: strong ETags, 304 on a match, never a stale 304 after a write (of a term, of
// an event seen in a list and by id, of a record embedded in an event), and the Cache-Control
// split between visitors and authenticated callers.
#include "support/client.h"
#include "support/events.h"

#include <doctest/doctest.h>

#include <string>

namespace {

const std::string kIndex = "/cal/events/v1";

}  // namespace

TEST_CASE("a 200 GET carries a strong ETag and If-None-Match with it gives 304 without a body") {
  const auto first = caltest::get(kIndex);
  REQUIRE(first.status == 200);
  const std::string etag = first.header("etag");
  REQUIRE(etag.size() > 2);
  CHECK(etag.front() == '"');
  CHECK(first.header("cache-control") == "no-cache");
  const auto again = caltest::get(kIndex, {"If-None-Match: " + etag});
  CHECK(again.status == 304);
  CHECK(again.body.empty());
  CHECK(again.header("etag") == etag);
  CHECK(caltest::get(kIndex, {"If-None-Match: \"something-else\""}).status == 200);
}

TEST_CASE("authenticated responses are private and not stored") {
  const auto r = caltest::get(kIndex, {caltest::bearer(caltest::admin_token())});
  CHECK(r.status == 200);
  CHECK(r.header("cache-control") == "private, no-store");
}

TEST_CASE("errors carry no ETag") {
  const auto r = caltest::get("/cal/events/v1/nowhere");
  CHECK(r.status == 404);
  CHECK(r.header("etag").empty());
}

TEST_CASE("a write that changes a record changes its ETag: no stale 304") {
  const std::string admin = caltest::bearer(caltest::admin_token());
  const auto created =
      caltest::post_json("/cal/events/v1/tags", "{\"name\":\"" + caltest::unique("etag") + "\"}", {admin});
  REQUIRE(created.status == 201);
  const std::string path = "/cal/events/v1/tags/" + std::to_string(created.json()["id"].GetInt64());
  const auto before = caltest::get(path);
  REQUIRE(before.status == 200);
  const std::string etag = before.header("etag");
  REQUIRE(caltest::get(path, {"If-None-Match: " + etag}).status == 304);
  REQUIRE(caltest::post_json(path, "{\"description\":\"changed\"}", {admin}).status == 200);
  const auto after = caltest::get(path, {"If-None-Match: " + etag});
  CHECK(after.status == 200);
  CHECK(after.header("etag") != etag);
  CHECK(caltest::string_at(after.json(), {"description"}) == "changed");
}

TEST_CASE("after writes an event's list and item answer 200 with the new content, never a stale 304") {
  using namespace caltest::events;
  const std::string word = caltest::unique("etagev");
  const auto created = create(event_body("Cached " + word, "+3 days 10:00", "+3 days 11:00",
                                         "\"venue\":{\"venue\":\"Hall " + word + "\"}"));
  const long long id = id_of(created);
  const long long venue_id = int_at(created, {"venue", "id"});
  REQUIRE(venue_id > 0);
  const std::string list = std::string(kEvents) + "?search=" + word;
  const std::string item = path_of(id);

  // The ETags of each stage; each is asked twice, so the second answer may come from memory.
  auto etag_of = [](const std::string& path) {
    const auto r = caltest::get(path);
    REQUIRE_MESSAGE(r.status == 200, caltest::describe(r));
    const std::string etag = r.header("etag");
    REQUIRE(!etag.empty());
    for (int i = 0; i < 2; ++i) CHECK(caltest::get(path, {"If-None-Match: " + etag}).status == 304);
    return etag;
  };
  // A conditional GET with an outdated ETag: the full new answer, whose text `check` approves.
  auto changed = [](const std::string& path, const std::string& old_etag, auto check) {
    const auto r = caltest::get(path, {"If-None-Match: " + old_etag});
    CHECK_MESSAGE(r.status == 200, caltest::describe(r));
    CHECK(r.header("etag") != old_etag);
    if (r.status == 200) check(r.json());
  };

  // 1. The event's own title.
  std::string list_etag = etag_of(list), item_etag = etag_of(item);
  REQUIRE(caltest::post_json(item, "{\"title\":\"Renamed " + word + "\"}", {admin()}).status == 200);
  changed(list, list_etag, [&](const rapidjson::Document& d) {
    CHECK(caltest::string_at(d, {"events", "0", "title"}) == "Renamed " + word);
  });
  changed(item, item_etag, [&](const rapidjson::Document& d) {
    CHECK(caltest::string_at(d, {"title"}) == "Renamed " + word);
  });

  // 2. A linked record embedded in both answers: the venue's name.
  list_etag = etag_of(list);
  item_etag = etag_of(item);
  const std::string venue_path = "/cal/events/v1/venues/" + std::to_string(venue_id);
  REQUIRE(caltest::post_json(venue_path, "{\"venue\":\"Moved " + word + "\"}", {admin()}).status == 200);
  changed(list, list_etag, [&](const rapidjson::Document& d) {
    CHECK(caltest::string_at(d, {"events", "0", "venue", "venue"}) == "Moved " + word);
  });
  changed(item, item_etag, [&](const rapidjson::Document& d) {
    CHECK(caltest::string_at(d, {"venue", "venue"}) == "Moved " + word);
  });

  // 3. Trashing it: gone from the list, no longer readable by visitors.
  list_etag = etag_of(list);
  item_etag = etag_of(item);
  REQUIRE(caltest::del(item, {admin()}).status == 200);
  changed(list, list_etag, [&](const rapidjson::Document& d) { CHECK(array_size(d, {"events"}) == 0); });
  const auto gone = caltest::get(item, {"If-None-Match: " + item_etag});
  CHECK(caltest::error_mismatch(gone, 403, "event-no-longer-available") == "");
}
