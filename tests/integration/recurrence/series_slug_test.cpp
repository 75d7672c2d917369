// Recurring series by slug (docs/recurring-events.md): /events/by-slug/{slug} of a series' slug
// is the series, as its id is; an occurrence's slug still names the occurrence; scope= works by
// slug as by id on writes and DELETE.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

struct Series {
  long long id = 0;
  std::string slug;
  std::vector<long long> occurrences;  // by start
  std::vector<std::string> slugs;      // of the occurrences
};

// A weekly series of `count` occurrences in 2042 (Tuesdays 18:00 UTC).
Series weekly(const std::string& title, int count) {
  Series s;
  const rapidjson::Document d = create(event_body(
      title, "2042-06-03 18:00", "2042-06-03 19:00",
      "\"timezone\":\"UTC\",\"recurrence\":[\"RRULE:FREQ=WEEKLY;COUNT=" + std::to_string(count) + "\"]"));
  s.id = id_of(d);
  s.slug = string_at(d, {"slug"});
  const HttpResponse r = get(path_of(s.id) + "/occurrences?per_page=50", {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  const rapidjson::Document list = r.json();
  s.occurrences = ids_in(list);
  for (const auto& e : list["events"].GetArray()) s.slugs.push_back(string_at(e, {"slug"}));
  REQUIRE(static_cast<int>(s.occurrences.size()) == count);
  return s;
}

TEST_CASE("recurrence: a series' slug names the series, an occurrence's slug the occurrence") {
  const Series s = weekly(unique("Slugged"), 4);
  REQUIRE(!s.slug.empty());
  CHECK(s.slugs[0] != s.slug);

  const HttpResponse series = get(slug_path(s.slug));
  REQUIRE_MESSAGE(series.status == 200, describe(series));
  CHECK(id_of(series.json()) == s.id);
  CHECK(strings_at(series.json(), {"recurrence"}) == std::vector<std::string>{"RRULE:FREQ=WEEKLY;COUNT=4"});
  CHECK(array_size(series.json(), {"next_occurrences"}) == 4);
  CHECK(series.body == get(path_of(s.id)).body);

  const HttpResponse occurrence = get(slug_path(s.slugs[1]));
  REQUIRE_MESSAGE(occurrence.status == 200, describe(occurrence));
  CHECK(id_of(occurrence.json()) == s.occurrences[1]);
  CHECK(int_at(occurrence.json(), {"series_id"}) == s.id);

  CHECK(error_mismatch(get(slug_path(s.slug + "-none")), 404, "rest-event-not-found") == "");
}

TEST_CASE("recurrence: writes and DELETE by slug take scope as by id") {
  Series s = weekly(unique("Scoped slug"), 6);
  REQUIRE(get(slug_path(s.slug)).status == 200);

  // An occurrence's slug: scope=this (the default) edits it alone.
  const HttpResponse alone = patch_json(slug_path(s.slugs[0]), R"({"title":"Only this one"})", {admin()});
  REQUIRE_MESSAGE(alone.status == 200, describe(alone));
  CHECK(id_of(alone.json()) == s.occurrences[0]);
  CHECK(flag_at(alone.json(), {"is_exception"}) == "true");
  CHECK(string_at(get(path_of(s.occurrences[1])).json(), {"title"}) != "Only this one");

  // scope=all from an occurrence's slug: the series and every occurrence not edited alone.
  const HttpResponse all = patch_json(slug_path(s.slugs[1]) + "?scope=all", R"({"title":"All"})", {admin()});
  REQUIRE_MESSAGE(all.status == 200, describe(all));
  CHECK(id_of(all.json()) == s.id);
  CHECK(string_at(get(path_of(s.occurrences[2])).json(), {"title"}) == "All");
  CHECK(string_at(get(path_of(s.occurrences[0])).json(), {"title"}) == "Only this one");

  // The series' slug: a write of the series (scope=all); this and following are refused.
  const HttpResponse whole = patch_json(slug_path(s.slug), R"({"excerpt":"Bring a mat."})", {admin()});
  REQUIRE_MESSAGE(whole.status == 200, describe(whole));
  CHECK(id_of(whole.json()) == s.id);
  // Read by slug again (read by slug before the write): the series as written.
  CHECK(string_at(get(slug_path(s.slug)).json(), {"excerpt"}).find("Bring a mat.") != std::string::npos);
  CHECK(string_at(get(path_of(s.occurrences[3])).json(), {"excerpt"}).find("Bring a mat.") !=
        std::string::npos);
  CHECK(error_mismatch(patch_json(slug_path(s.slug) + "?scope=this", R"({"title":"x"})", {admin()}), 400,
                       "rest_invalid_param") == "");

  // scope=following on a write splits the series at the occurrence.
  const HttpResponse split =
      patch_json(slug_path(s.slugs[4]) + "?scope=following", R"({"title":"Late"})", {admin()});
  REQUIRE_MESSAGE(split.status == 200, describe(split));
  const long long second = id_of(split.json());
  CHECK(second != s.id);
  CHECK(int_at(get(path_of(s.occurrences[5])).json(), {"series_id"}) == second);

  // DELETE of an occurrence's slug cancels it; with scope=following the series ends before it.
  const HttpResponse cancelled = del(slug_path(s.slugs[3]), {admin()});
  REQUIRE_MESSAGE(cancelled.status == 200, describe(cancelled));
  CHECK(flag_at(cancelled.json(), {"deleted"}) == "true");
  CHECK(int_at(cancelled.json(), {"previous", "id"}) == s.occurrences[3]);
  CHECK(get(path_of(s.occurrences[3]), {admin()}).status == 404);
  const HttpResponse ended = del(slug_path(s.slugs[2]) + "?scope=following", {admin()});
  REQUIRE_MESSAGE(ended.status == 200, describe(ended));
  CHECK(id_of(ended.json()) == s.id);
  CHECK(get(path_of(s.occurrences[2]), {admin()}).status == 404);
  CHECK(get(path_of(s.occurrences[1]), {admin()}).status == 200);

  // DELETE of the series' slug trashes it with its occurrences; scope=all from an occurrence's
  // slug does the same for the other series.
  const HttpResponse trashed = del(slug_path(s.slug), {admin()});
  REQUIRE_MESSAGE(trashed.status == 200, describe(trashed));
  CHECK(id_of(trashed.json()) == s.id);
  CHECK(string_at(trashed.json(), {"status"}) == "trash");
  CHECK(string_at(get(path_of(s.occurrences[1]) + "?context=edit", {admin()}).json(), {"status"}) == "trash");
  const HttpResponse other = del(slug_path(s.slugs[5]) + "?scope=all", {admin()});
  REQUIRE_MESSAGE(other.status == 200, describe(other));
  CHECK(id_of(other.json()) == second);
  CHECK(string_at(other.json(), {"status"}) == "trash");
}

}  // namespace
}  // namespace caltest
