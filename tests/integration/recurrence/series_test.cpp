// Integration tests of recurring events (docs/recurring-events.md): a series written with
// `recurrence` lines is listed as one event per occurrence with exact totals, keeps its
// occurrences' ids across edits of its rule, keeps occurrences edited alone (exceptions), takes
// them along to the trash, cancels one occurrence with an EXDATE, and refuses bad rules without
// changing anything.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

// A category of its own per test, so that lists filtered by it see only the test's events.
long long fresh_category() {
  const HttpResponse r =
      post_json("/cal/events/v1/categories", "{\"name\":" + quoted(unique("Rec")) + "}", {admin()});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  return id_of(r.json());
}

// A weekly series in Europe/Berlin at 19:00, `count` occurrences from 2041-03-05 (a Tuesday; the
// clocks go forward on 2041-03-31), in `category`.
rapidjson::Document weekly_series(const std::string& title, long long category, int count) {
  return create(event_body(title, "2041-03-05 19:00", "2041-03-05 21:00",
                           "\"timezone\":\"Europe/Berlin\",\"categories\":[" + std::to_string(category) +
                               "],\"recurrence\":[\"RRULE:FREQ=WEEKLY;COUNT=" + std::to_string(count) +
                               "\"]"));
}

// GET /events in 2041 of `category`, as admin (every status): the answer.
HttpResponse list_category(long long category, const std::string& extra = "") {
  return get(std::string(kEvents) +
                 "?start_date=2041-01-01&end_date=2041-12-31&per_page=50&status=publish,draft,trash" +
                 "&categories=" + std::to_string(category) + extra,
             {admin()});
}

std::vector<long long> category_ids(long long category) {
  const HttpResponse r = list_category(category);
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  return ids_in(r.json());
}

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A fingerprint of the tables a series write touches: equal before and after a refused write.
std::string database_fingerprint() {
  const Run r =
      run(ctl() + " sql -e " +
          shell_quoted(
              "SELECT (SELECT COUNT(*) FROM posts), "
              "(SELECT COALESCE(SUM(CRC32(CONCAT_WS(',', id, type, status, title, slug))), 0) FROM posts), "
              "(SELECT COUNT(*) FROM event_details), "
              "(SELECT COALESCE(SUM(CRC32(CONCAT_WS(',', event_id, start_utc, end_utc))), 0) FROM "
              "event_details), "
              "(SELECT COUNT(*) FROM event_occurrences), (SELECT COUNT(*) FROM term_relationships), "
              "(SELECT COALESCE(SUM(CRC32(recurrence)), 0) FROM event_series), "
              "(SELECT COUNT(*) FROM series_links)"));
  REQUIRE(r.exit_code == 0);
  return r.out;
}

TEST_CASE("recurrence: a weekly series is one event per occurrence, 19:00 in Berlin across the DST change") {
  const long long category = fresh_category();
  const rapidjson::Document series =
      create(event_body(unique("Weekly"), "2041-03-05 19:00", "2041-03-05 21:00",
                        "\"timezone\":\"Europe/Berlin\",\"categories\":[" + std::to_string(category) +
                            "],\"recurrence\":[\"rrule:byday=tu;freq=weekly;until=20410409T190000\"]"));
  const long long series_id = id_of(series);
  // Normalised: parts in order, UNTIL in UTC.
  CHECK(strings_at(series, {"recurrence"}) ==
        std::vector<std::string>{"RRULE:FREQ=WEEKLY;UNTIL=20410409T170000Z;BYDAY=TU"});
  CHECK(int_at(series, {"occurrences_created"}) == 6);
  CHECK(int_at(series, {"occurrences_removed"}) == 0);
  CHECK(flag_at(series, {"is_recurring"}) == "true");
  const long long one_off = create_id(unique("One-off"), "2041-03-20 10:00", "2041-03-20 11:00",
                                      "\"categories\":[" + std::to_string(category) + "]");

  const HttpResponse r = list_category(category);
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(r.header("X-WP-Total") == "7");
  const rapidjson::Document list = r.json();
  const rapidjson::Value& events = list["events"];
  REQUIRE(events.Size() == 7);
  int occurrences = 0;
  for (const auto& e : events.GetArray()) {
    if (int_at(e, {"id"}) == one_off) {
      CHECK(flag_at(e, {"series_id"}) == "null");
      CHECK(flag_at(e, {"is_recurring"}) == "false");
      continue;
    }
    ++occurrences;
    CAPTURE(string_at(e, {"start_date"}));
    CHECK(int_at(e, {"id"}) != series_id);
    CHECK(int_at(e, {"series_id"}) == series_id);
    CHECK(flag_at(e, {"is_recurring"}) == "true");
    CHECK(flag_at(e, {"is_exception"}) == "false");
    CHECK(string_at(e, {"start_date"}).substr(11) == "19:00:00");
    CHECK(string_at(e, {"original_start_date"}) == string_at(e, {"start_date"}));
    CHECK(string_at(e, {"original_start_date_utc"}) == string_at(e, {"utc_start_date"}));
    const bool summer = string_at(e, {"start_date"}) > "2041-03-31";
    CHECK(string_at(e, {"utc_start_date"}).substr(11) == (summer ? "17:00:00" : "18:00:00"));
  }
  CHECK(occurrences == 6);

  // The series: its rule and its next occurrences; an occurrence by its own id.
  const HttpResponse got = get(path_of(series_id));
  REQUIRE_MESSAGE(got.status == 200, describe(got));
  CHECK(array_size(got.json(), {"next_occurrences"}) == 6);
  CHECK(strings_at(got.json(), {"recurrence"}).size() == 1);
  const long long first = int_at(got.json(), {"next_occurrences", "0", "id"});
  const HttpResponse occurrence = get(path_of(first));
  REQUIRE_MESSAGE(occurrence.status == 200, describe(occurrence));
  CHECK(string_at(occurrence.json(), {"start_date"}) == "2041-03-05 19:00:00");
  CHECK(int_at(occurrence.json(), {"series_id"}) == series_id);

  // Its occurrences, paged with exact totals.
  const HttpResponse page = get(path_of(series_id) + "/occurrences?per_page=4&page=2");
  REQUIRE_MESSAGE(page.status == 200, describe(page));
  CHECK(page.header("X-WP-Total") == "6");
  CHECK(page.header("X-WP-TotalPages") == "2");
  CHECK(ids_in(page.json()).size() == 2);
  CHECK(page.header("Link").find("occurrences?page=1&per_page=4") != std::string::npos);
  const HttpResponse window =
      get(path_of(series_id) + "/occurrences?start_date=2041-03-10&end_date=2041-03-31");
  CHECK(window.header("X-WP-Total") == "3");
}

TEST_CASE("recurrence: refused lines name the part, and a refused write changes nothing") {
  const long long category = fresh_category();
  const long long series_id = id_of(weekly_series(unique("Kept"), category, 3));
  const std::string before = database_fingerprint();
  struct Case {
    const char* line;
    const char* part;
  };
  const Case cases[] = {
      {"RRULE:FREQ=HOURLY", "FREQ=HOURLY"},
      {"RRULE:FREQ=WEEKLY;BYWEEKNO=3", "BYWEEKNO"},
      {"RRULE:FREQ=WEEKLY;COUNT=3;UNTIL=20410601T000000Z", "UNTIL"},
      {"DTSTART:20410305T190000", "DTSTART"},
      {"RRULE:FREQ=WEEKLY;COUNT=3651", "3650"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.line);
    const std::string lines = std::string("[") + quoted(c.line) + "]";
    const HttpResponse created = post_json(
        kEvents, event_body(unique("Bad"), "2041-03-05 19:00", "2041-03-05 21:00", "\"recurrence\":" + lines),
        {admin()});
    CHECK(error_mismatch(created, 400, "rest_invalid_param") == "");
    CHECK(string_at(created.json(), {"data", "params", "recurrence"}).find(c.part) != std::string::npos);
    const HttpResponse updated =
        patch_json(path_of(series_id), "{\"title\":\"Changed\",\"recurrence\":" + lines + "}", {admin()});
    CHECK(error_mismatch(updated, 400, "rest_invalid_param") == "");
  }
  // An infinite daily rule from long ago passes max_instances before its horizon.
  const HttpResponse infinite = post_json(kEvents,
                                          event_body(unique("Daily"), "2020-01-01 09:00", "2020-01-01 10:00",
                                                     R"("recurrence":["RRULE:FREQ=DAILY"])"),
                                          {admin()});
  CHECK(error_mismatch(infinite, 400, "rest_invalid_param") == "");
  CHECK(string_at(infinite.json(), {"data", "params", "recurrence"}).find("3650") != std::string::npos);
  CHECK(error_mismatch(post_json(kEvents,
                                 event_body(unique("Shape"), "2041-03-05 19:00", "2041-03-05 21:00",
                                            R"("recurrence":[5])"),
                                 {admin()}),
                       400, "rest_invalid_param") == "");
  CHECK(database_fingerprint() == before);
  CHECK(string_at(get(path_of(series_id)).json(), {"recurrence", "0"}) == "RRULE:FREQ=WEEKLY;COUNT=3");
}

TEST_CASE("recurrence: an infinite rule is materialised to its horizon") {
  const rapidjson::Document series =
      create(event_body(unique("Forever"), days_ahead(1, "08:00"), days_ahead(1, "09:00"),
                        R"("recurrence":["RRULE:FREQ=WEEKLY"])"));
  // 60 months of weeks.
  CHECK(int_at(series, {"occurrences_created"}) >= 259);
  CHECK(int_at(series, {"occurrences_created"}) <= 262);
  // Deleted: a window past [recurrence] max_horizon_years with an infinite series is refused, and
  // later tests list far windows.
  REQUIRE(del(path_of(id_of(series)) + "?force=true", {admin()}).status == 200);
}

TEST_CASE("recurrence: occurrence ids survive an edit of the rule; exceptions survive scope=all") {
  const long long category = fresh_category();
  const std::string title = unique("Stable");
  const long long series_id = id_of(weekly_series(title, category, 6));
  const std::vector<long long> ids = category_ids(category);
  REQUIRE(ids.size() == 6);

  // The second occurrence edited alone keeps its id and becomes an exception.
  const HttpResponse edited = patch_json(path_of(ids[1]), R"({"title":"Special night"})", {admin()});
  REQUIRE_MESSAGE(edited.status == 200, describe(edited));
  CHECK(int_at(edited.json(), {"id"}) == ids[1]);
  CHECK(flag_at(edited.json(), {"is_exception"}) == "true");
  // Moving it onto another occurrence's start is refused.
  CHECK(error_mismatch(
            patch_json(path_of(ids[1]), R"({"start_date":"2041-03-19 19:00","end_date":"2041-03-19 21:00"})",
                       {admin()}),
            400, "rest_invalid_param") == "");

  // The series with two more occurrences and a new title: the six keep their ids, the exception
  // its title.
  const HttpResponse longer =
      patch_json(path_of(series_id),
                 R"({"title":"Renamed class","recurrence":["RRULE:FREQ=WEEKLY;COUNT=8"]})", {admin()});
  REQUIRE_MESSAGE(longer.status == 200, describe(longer));
  CHECK(int_at(longer.json(), {"occurrences_created"}) == 2);
  CHECK(int_at(longer.json(), {"occurrences_removed"}) == 0);
  const std::vector<long long> after = category_ids(category);
  REQUIRE(after.size() == 8);
  CHECK(std::vector<long long>(after.begin(), after.begin() + 6) == ids);
  CHECK(string_at(get(path_of(ids[1])).json(), {"title"}) == "Special night");
  CHECK(string_at(get(path_of(ids[0])).json(), {"title"}) == "Renamed class");
  CHECK(string_at(get(path_of(after[7])).json(), {"title"}) == "Renamed class");

  // Shorter: the last ones go; then a rule without the exception's date drops it.
  const HttpResponse shorter =
      patch_json(path_of(series_id), R"({"recurrence":["RRULE:FREQ=WEEKLY;COUNT=3"]})", {admin()});
  REQUIRE_MESSAGE(shorter.status == 200, describe(shorter));
  CHECK(int_at(shorter.json(), {"occurrences_removed"}) == 5);
  CHECK(int_at(shorter.json(), {"exceptions_dropped"}) == 0);
  CHECK(category_ids(category) == std::vector<long long>(ids.begin(), ids.begin() + 3));
  const HttpResponse single =
      patch_json(path_of(series_id), R"({"recurrence":["RRULE:FREQ=WEEKLY;COUNT=1"]})", {admin()});
  REQUIRE_MESSAGE(single.status == 200, describe(single));
  CHECK(int_at(single.json(), {"exceptions_dropped"}) == 1);
  CHECK(get(path_of(ids[1])).status == 404);
}

TEST_CASE("recurrence: trashing a series takes its occurrences along, untrash brings them back") {
  const long long category = fresh_category();
  const long long series_id = id_of(weekly_series(unique("Trash"), category, 4));
  const std::vector<long long> ids = category_ids(category);
  REQUIRE(ids.size() == 4);
  const HttpResponse trashed = del(path_of(series_id), {admin()});
  REQUIRE_MESSAGE(trashed.status == 200, describe(trashed));
  CHECK(string_at(trashed.json(), {"status"}) == "trash");
  const HttpResponse visitor =
      get(std::string(kEvents) +
          "?start_date=2041-01-01&end_date=2041-12-31&categories=" + std::to_string(category));
  CHECK(visitor.header("X-WP-Total") == "0");
  for (long long id : ids)
    CHECK(string_at(get(path_of(id) + "?context=edit", {admin()}).json(), {"status"}) == "trash");
  CHECK(error_mismatch(get(path_of(ids[0])), 403, "event-no-longer-available") == "");

  const HttpResponse restored = patch_json(path_of(series_id), R"({"status":"publish"})", {admin()});
  REQUIRE_MESSAGE(restored.status == 200, describe(restored));
  const HttpResponse back =
      get(std::string(kEvents) +
          "?start_date=2041-01-01&end_date=2041-12-31&categories=" + std::to_string(category));
  CHECK(back.header("X-WP-Total") == "4");
  CHECK(ids_in(back.json()) == ids);

  const HttpResponse gone = del(path_of(series_id) + "?force=true", {admin()});
  REQUIRE_MESSAGE(gone.status == 200, describe(gone));
  CHECK(get(path_of(series_id)).status == 404);
  for (long long id : ids) CHECK(get(path_of(id), {admin()}).status == 404);
}

TEST_CASE("recurrence: deleting an occurrence cancels it with an EXDATE; null makes a one-off event") {
  const long long category = fresh_category();
  const long long series_id = id_of(weekly_series(unique("Cancel"), category, 4));
  const std::vector<long long> ids = category_ids(category);
  REQUIRE(ids.size() == 4);
  const HttpResponse cancelled = del(path_of(ids[2]), {admin()});
  REQUIRE_MESSAGE(cancelled.status == 200, describe(cancelled));
  CHECK(flag_at(cancelled.json(), {"deleted"}) == "true");
  CHECK(get(path_of(ids[2])).status == 404);
  CHECK(strings_at(get(path_of(series_id)).json(), {"recurrence"}) ==
        std::vector<std::string>{"RRULE:FREQ=WEEKLY;COUNT=4", "EXDATE;TZID=Europe/Berlin:20410319T190000"});
  CHECK(category_ids(category) == std::vector<long long>{ids[0], ids[1], ids[3]});

  const HttpResponse plain = patch_json(path_of(series_id), R"({"recurrence":null})", {admin()});
  REQUIRE_MESSAGE(plain.status == 200, describe(plain));
  CHECK(flag_at(plain.json(), {"is_recurring"}) == "false");
  CHECK(category_ids(category) == std::vector<long long>{series_id});
  CHECK(get(path_of(ids[0])).status == 404);
}

TEST_CASE("recurrence: scope=all on an occurrence edits or trashes the series; following ends it before") {
  const long long category = fresh_category();
  const long long series_id = id_of(weekly_series(unique("Scopes"), category, 6));
  const std::vector<long long> ids = category_ids(category);
  REQUIRE(ids.size() == 6);

  // DELETE with scope=following: the series ends before the fourth occurrence.
  const HttpResponse ended = del(path_of(ids[3]) + "?scope=following", {admin()});
  REQUIRE_MESSAGE(ended.status == 200, describe(ended));
  CHECK(int_at(ended.json(), {"id"}) == series_id);
  CHECK(int_at(ended.json(), {"occurrences_removed"}) == 3);
  CHECK(strings_at(ended.json(), {"recurrence"}) ==
        std::vector<std::string>{"RRULE:FREQ=WEEKLY;UNTIL=20410326T175959Z"});
  CHECK(category_ids(category) == std::vector<long long>(ids.begin(), ids.begin() + 3));

  // PATCH with scope=all: the series and every occurrence, ids kept.
  const HttpResponse renamed =
      patch_json(path_of(ids[1]) + "?scope=all", R"({"title":"All of them"})", {admin()});
  REQUIRE_MESSAGE(renamed.status == 200, describe(renamed));
  CHECK(int_at(renamed.json(), {"id"}) == series_id);
  for (int i = 0; i < 3; ++i) CHECK(string_at(get(path_of(ids[i])).json(), {"title"}) == "All of them");
  // scope=this on the series itself is refused; so is following on a write.
  CHECK(error_mismatch(patch_json(path_of(series_id) + "?scope=this", R"({"title":"x"})", {admin()}), 400,
                       "rest_invalid_param") == "");

  // DELETE with scope=all: the series goes to the trash with its occurrences.
  const HttpResponse trashed = del(path_of(ids[0]) + "?scope=all", {admin()});
  REQUIRE_MESSAGE(trashed.status == 200, describe(trashed));
  CHECK(int_at(trashed.json(), {"id"}) == series_id);
  CHECK(string_at(trashed.json(), {"status"}) == "trash");
  CHECK(get(std::string(kEvents) +
            "?start_date=2041-01-01&end_date=2041-12-31&categories=" + std::to_string(category))
            .header("X-WP-Total") == "0");
}

TEST_CASE("recurrence: scope=following on a write splits the series, later ids and exceptions kept") {
  const long long category = fresh_category();
  const long long series_id = id_of(weekly_series(unique("Split"), category, 6));
  const std::vector<long long> ids = category_ids(category);
  REQUIRE(ids.size() == 6);
  REQUIRE(patch_json(path_of(ids[5]), R"({"title":"Finale"})", {admin()}).status == 200);

  const HttpResponse split =
      patch_json(path_of(ids[3]) + "?scope=following", R"({"title":"Second half"})", {admin()});
  REQUIRE_MESSAGE(split.status == 200, describe(split));
  const long long second = int_at(split.json(), {"id"});
  CHECK(second != series_id);
  CHECK(string_at(split.json(), {"start_date"}) == "2041-03-26 19:00:00");
  CHECK(strings_at(split.json(), {"recurrence"}) == std::vector<std::string>{"RRULE:FREQ=WEEKLY;COUNT=3"});
  CHECK(int_at(split.json(), {"occurrences_created"}) == 0);
  // The same six occurrences, the same ids: three of each series.
  const HttpResponse list = list_category(category);
  REQUIRE(list.status == 200);
  CHECK(ids_in(list.json()) == ids);
  const rapidjson::Document l = list.json();
  for (int i = 0; i < 6; ++i) {
    CAPTURE(i);
    CHECK(int_at(l, {"events", std::to_string(i), "series_id"}) == (i < 3 ? series_id : second));
    CHECK(string_at(l, {"events", std::to_string(i), "title"}) ==
          (i < 3    ? string_at(get(path_of(ids[0])).json(), {"title"})
           : i == 5 ? "Finale"
                    : "Second half"));
  }
  CHECK(strings_at(get(path_of(series_id)).json(), {"recurrence"}) ==
        std::vector<std::string>{"RRULE:FREQ=WEEKLY;UNTIL=20410326T175959Z"});
}

TEST_CASE("recurrence: series and events of one title keep distinct slugs") {
  const long long category = fresh_category();
  const std::string title = unique("Same name");
  const long long first = id_of(weekly_series(title, category, 2));
  const long long second = id_of(weekly_series(title, category, 2));
  // A one-off event takes the slug a parked series had as an event; the series, written again,
  // moves on to another.
  const long long one_off = create_id(title, "2041-05-01 10:00", "2041-05-01 11:00");
  CHECK(string_at(get(path_of(one_off)).json(), {"slug"}) == slug_of(title));
  for (long long series : {first, second}) {
    CAPTURE(series);
    const HttpResponse r = patch_json(path_of(series), R"({"excerpt":"again"})", {admin()});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(string_at(r.json(), {"slug"}) != slug_of(title));
  }
  CHECK(category_ids(category).size() == 4);
}

}  // namespace
}  // namespace caltest
