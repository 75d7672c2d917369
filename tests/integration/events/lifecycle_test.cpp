// Integration tests of an event's life cycle (docs/api.md §5): slugs generated from titles and kept
// unique with -2, -3 (also under concurrent creates, where the unique key decides), renaming,
// and trash with __trashed, 410 on a second delete, restore, and force delete.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

TEST_CASE("slugs: generated from the title, unique with -2, -3; an explicit slug") {
  const std::string title = unique("Same Title");
  const std::string base = slug_of(title);
  CHECK(string_at(create(event_body(title, "2041-07-10 09:00", "2041-07-10 10:00")), {"slug"}) == base);
  CHECK(string_at(create(event_body(title, "2041-07-10 09:00", "2041-07-10 10:00")), {"slug"}) ==
        base + "-2");
  CHECK(string_at(create(event_body(title, "2041-07-10 09:00", "2041-07-10 10:00")), {"slug"}) ==
        base + "-3");
  const std::string wanted = unique("my-slug");
  const rapidjson::Document s =
      create(event_body(unique("x"), "2041-07-10 09:00", "2041-07-10 10:00", "\"slug\":" + quoted(wanted)));
  CHECK(string_at(s, {"slug"}) == slug_of(wanted));
  // Renaming by id to a taken slug gets a suffix.
  const long long other = create_id(unique("y"), "2041-07-10 09:00", "2041-07-10 10:00");
  const rapidjson::Document renamed =
      post_json(path_of(other), "{\"slug\":" + quoted(base) + "}", {admin()}).json();
  CHECK(string_at(renamed, {"slug"}) == base + "-4");
  CHECK(get(slug_path(base + "-4")).status == 200);
}

TEST_CASE("slugs stay unique under concurrent creates") {
  const std::string title = unique("Race");
  constexpr int kThreads = 8;
  std::vector<std::string> slugs(kThreads);
  std::vector<long> statuses(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      const HttpResponse r =
          post_json(kEvents, event_body(title, "2041-07-10 09:00", "2041-07-10 10:00"), {admin()});
      statuses[i] = r.status;
      if (r.status == 201) slugs[i] = string_at(r.json(), {"slug"});
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < kThreads; ++i) {
    CAPTURE(i);
    CHECK(statuses[i] == 201);
  }
  const std::set<std::string> distinct(slugs.begin(), slugs.end());
  CHECK(distinct.size() == kThreads);
  std::set<std::string> expected{slug_of(title)};
  for (int i = 2; i <= kThreads; ++i) expected.insert(slug_of(title) + "-" + std::to_string(i));
  CHECK(distinct == expected);
}

TEST_CASE("delete: trash with __trashed, 410 again, restore, force") {
  const rapidjson::Document created =
      create(event_body(unique("Trash Me"), "2041-07-10 09:00", "2041-07-10 10:00"));
  const long long id = id_of(created);
  const std::string slug = string_at(created, {"slug"});
  const HttpResponse trashed = del(path_of(id), {admin()});
  REQUIRE_MESSAGE(trashed.status == 200, describe(trashed));
  CHECK(string_at(trashed.json(), {"status"}) == "trash");
  CHECK(string_at(trashed.json(), {"slug"}) == slug + "__trashed");
  CHECK(error_mismatch(del(path_of(id), {admin()}), 410, "event-is-in-trash") == "");
  CHECK(error_mismatch(del(slug_path(slug + "__trashed"), {admin()}), 410, "event-is-in-trash") == "");
  CHECK(error_mismatch(get(path_of(id)), 403, "event-no-longer-available") == "");
  // Restoring through an update of status drops the suffix.
  const HttpResponse restored = post_json(path_of(id), R"({"status":"publish"})", {admin()});
  REQUIRE_MESSAGE(restored.status == 200, describe(restored));
  CHECK(string_at(restored.json(), {"slug"}) == slug);
  CHECK(string_at(restored.json(), {"status"}) == "publish");
  // Force delete: the record as it was, then gone.
  const HttpResponse forced = del(path_of(id) + "?force=true", {admin()});
  REQUIRE_MESSAGE(forced.status == 200, describe(forced));
  const rapidjson::Document f = forced.json();
  CHECK(keys_at(f, {}) == std::vector<std::string>{"deleted", "previous"});
  CHECK(flag_at(f, {"deleted"}) == "true");
  CHECK(int_at(f, {"previous", "id"}) == id);
  CHECK(string_at(f, {"previous", "status"}) == "publish");
  CHECK(error_mismatch(get(path_of(id)), 404, "rest-event-not-found") == "");
  CHECK(error_mismatch(del(path_of(id), {admin()}), 404, "rest-event-not-found") == "");
  CHECK(error_mismatch(del(path_of(id), {admin()}), 404, "rest-event-not-found") == "");
  // A trashed event can be force-deleted too; by slug as well.
  const rapidjson::Document other =
      create(event_body(unique("Trash Slug"), "2041-07-10 09:00", "2041-07-10 10:00"));
  const std::string other_slug = string_at(other, {"slug"});
  REQUIRE(del(slug_path(other_slug), {admin()}).status == 200);
  const HttpResponse gone = del(slug_path(other_slug + "__trashed") + "?force=true", {admin()});
  CHECK_MESSAGE(gone.status == 200, describe(gone));
  CHECK(error_mismatch(get(path_of(id_of(other))), 404, "rest-event-not-found") == "");
  CHECK(error_mismatch(del(slug_path(unique("no-such")), {admin()}), 404, "rest-event-not-found") == "");
  CHECK(error_mismatch(post_json(slug_path(unique("no-such")), "{}", {admin()}), 404,
                       "rest-event-not-found") == "");
  CHECK(error_mismatch(post_json(path_of(999999999), "{}", {admin()}), 404, "rest-event-not-found") == "");
}

}  // namespace
}  // namespace caltest
