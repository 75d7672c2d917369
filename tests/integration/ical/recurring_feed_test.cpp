// Recurring series in the iCalendar feed (docs/recurring-events.md, docs/feeds.md): ical.js, an
// independent implementation of RFC 5545 recurrence (tests/ical/expand.mjs), expands the feed's
// RRULE, RDATE and EXDATE lines and RECURRENCE-ID overrides and must find exactly the occurrences
// the JSON list gives for the same query: across a DST change, with an RDATE, an EXDATE, an
// occurrence edited alone (moved and renamed), one cancelled, one unpublished, beside a one-off
// event; with expand=1 one VEVENT per occurrence; and the series' own feed, by id and by slug.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/events.h"
#include "support/ical.h"

namespace caltest {
namespace {

using namespace events;
namespace fs = std::filesystem;

// (start in UTC as ISO 8601, summary) of every occurrence ical.js finds in the feed from `from` to
// `to` (ISO 8601 instants).
std::vector<std::pair<std::string, std::string>> expanded_in(const std::string& feed, const std::string& from,
                                                             const std::string& to) {
  const fs::path dir = ical_dir();
  REQUIRE_MESSAGE(fs::exists(dir / "node_modules" / "ical.js"),
                  dir.string() << "/node_modules is missing: run scripts/install-npm-tools.sh");
  const fs::path file = fs::temp_directory_path() / ("calendar-rrule-" + std::to_string(::getpid()) + ".ics");
  std::ofstream(file, std::ios::binary) << feed;
  const Run r = run("cd '" + dir.string() + "' && node expand.mjs '" + file.string() + "' " + from + " " +
                    to + " 2>&1");
  fs::remove(file);
  INFO("ical.js: " << r.out);
  REQUIRE(r.exit_code == 0);
  rapidjson::Document doc;
  doc.Parse(r.out.c_str());
  REQUIRE(doc.IsArray());
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& o : doc.GetArray()) out.emplace_back(o["start"].GetString(), o["summary"].GetString());
  return out;
}

// Those of 2041.
std::vector<std::pair<std::string, std::string>> expanded(const std::string& feed) {
  return expanded_in(feed, "2041-01-01T00:00:00Z", "2042-01-01T00:00:00Z");
}

// The same pairs from the JSON list, sorted as expand.mjs sorts.
std::vector<std::pair<std::string, std::string>> listed(const rapidjson::Value& list) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : list["events"].GetArray()) {
    std::string start = e["utc_start_date"].GetString();
    start[10] = 'T';
    out.emplace_back(start + "Z", e["title"].GetString());
  }
  std::sort(out.begin(), out.end());
  return out;
}

long long count_of(const std::string& text, const std::string& what) {
  long long n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_CASE("recurring feed: ical.js expands the series' rules to exactly the listed occurrences") {
  const HttpResponse category = post_json(
      "/cal/events/v1/categories", "{\"name\":" + events::quoted(unique("Feed rrule")) + "}", {admin()});
  REQUIRE(category.status == 201);
  const std::string in_category = "\"categories\":[" + std::to_string(id_of(category.json())) + "]";
  const std::string title = unique("Weekly class");
  // Tuesdays 19:00 in Berlin from 2041-03-05, across the change to summer time on 2041-03-31, an
  // extra Wednesday morning and no class on 2041-03-12.
  const rapidjson::Document series = create(event_body(
      title, "2041-03-05 19:00", "2041-03-05 21:00",
      "\"timezone\":\"Europe/Berlin\"," + in_category +
          ",\"status\":\"publish\",\"recurrence\":[\"RRULE:FREQ=WEEKLY;COUNT=8\","
          "\"RDATE;TZID=Europe/Berlin:20410320T100000\",\"EXDATE;TZID=Europe/Berlin:20410312T190000\"]"));
  const long long series_id = id_of(series);
  create(event_body(unique("One-off"), "2041-03-21 12:00", "2041-03-21 13:00",
                    "\"timezone\":\"America/New_York\"," + in_category + ",\"status\":\"publish\""));
  const std::string query = "start_date=2041-01-01&end_date=2041-12-31&per_page=50&categories=" +
                            std::to_string(id_of(category.json()));
  const std::vector<long long> ids = list_ids(query);
  REQUIRE(ids.size() == 9);  // 8 Tuesdays without 12 March, the Wednesday, the one-off event

  // The fourth occurrence (2041-03-26) moves to 20:30 and gets its own title; the sixth is
  // cancelled; the seventh is edited alone and unpublished.
  const long long moved = ids[4];
  const HttpResponse edited =
      patch_json(path_of(moved) + "?scope=this",
                 "{\"title\":\"" + title +
                     " (moved)\",\"start_date\":\"2041-03-26 20:30\",\"end_date\":\"2041-03-26 22:00\"}",
                 {admin()});
  REQUIRE_MESSAGE(edited.status == 200, describe(edited));
  const HttpResponse cancelled = del(path_of(ids[6]), {admin()});
  REQUIRE_MESSAGE(cancelled.status == 200, describe(cancelled));
  const HttpResponse drafted =
      patch_json(path_of(ids[7]) + "?scope=this", R"({"status":"draft"})", {admin()});
  REQUIRE_MESSAGE(drafted.status == 200, describe(drafted));

  // The cancelled occurrence stays out of the rule whatever is edited after it.
  const std::vector<std::string> rule = strings_at(get(path_of(series_id), {admin()}).json(), {"recurrence"});
  std::string rule_text;
  for (const std::string& line : rule) rule_text += line + "\n";
  INFO("rule: " << rule_text);
  CHECK(rule_text.find("EXDATE;TZID=Europe/Berlin:20410312T190000,20410409T190000\n") != std::string::npos);

  const HttpResponse list = get(std::string(kEvents) + "?" + query);
  REQUIRE(list.status == 200);
  const auto want = listed(list.json());
  REQUIRE(want.size() == 7);

  const HttpResponse feed = get(std::string(kEvents) + "?" + query + "&ical=1");
  REQUIRE_MESSAGE(feed.status == 200, describe(feed));
  INFO(feed.body);
  // The series once with its rule, its override once, the one-off event: three VEVENTs.
  CHECK(count_of(feed.body, "BEGIN:VEVENT") == 3);
  CHECK(count_of(feed.body, "RRULE:FREQ=WEEKLY;COUNT=8") == 1);
  CHECK(count_of(feed.body, "RECURRENCE-ID;TZID=Europe/Berlin:20410326T190000") == 1);
  CHECK(count_of(feed.body, "UID:" + std::to_string(series_id) + "@") == 2);
  const auto found = expanded(feed.body);
  std::string both;
  for (const auto& [start, summary] : found) both += "ical.js: " + start + " " + summary + "\n";
  for (const auto& [start, summary] : want) both += "listed: " + start + " " + summary + "\n";
  INFO(both);
  CHECK(found == want);

  // expand=1: one VEVENT per listed occurrence, each its own UID, the same instants.
  const HttpResponse flat = get(std::string(kEvents) + "?" + query + "&ical=1&expand=1");
  REQUIRE(flat.status == 200);
  CHECK(count_of(flat.body, "BEGIN:VEVENT") == 7);
  CHECK(count_of(flat.body, "RRULE") == 0);
  CHECK(expanded(flat.body) == want);
  CHECK(error_mismatch(get(std::string(kEvents) + "?" + query + "&ical=1&expand=maybe"), 400,
                       "rest_invalid_param") == "");

  // The series' own feed, by id and by slug: its VEVENT and its visible override, which ical.js
  // expands to exactly the series' listed occurrences.
  std::vector<std::pair<std::string, std::string>> of_series;
  for (const auto& item : want)
    if (item.second.rfind(title, 0) == 0) of_series.push_back(item);
  REQUIRE(of_series.size() == 6);
  const HttpResponse own = get(path_of(series_id) + "?ical=1");
  REQUIRE_MESSAGE(own.status == 200, describe(own));
  CHECK(own.header("content-type").rfind("text/calendar", 0) == 0);
  CHECK(count_of(own.body, "BEGIN:VEVENT") == 2);
  CHECK(count_of(own.body, "RRULE:FREQ=WEEKLY;COUNT=8") == 1);
  CHECK(count_of(own.body, "UID:" + std::to_string(series_id) + "@") == 2);
  CHECK(expanded(own.body) == of_series);
  const std::string slug = string_at(series, {"slug"});
  const HttpResponse by_slug = get(std::string(kEvents) + "/by-slug/" + slug + "?ical=1");
  REQUIRE_MESSAGE(by_slug.status == 200, describe(by_slug));
  CHECK(expanded(by_slug.body) == of_series);
}

// A feed reads its series together: as many statements for three series, each with an occurrence
// edited alone, as for one, and ical.js still finds exactly the listed occurrences.
TEST_CASE("recurring feed: the statements of a feed do not grow with the series on its page") {
  const HttpResponse category =
      post_json("/cal/events/v1/categories", "{\"name\":" + events::quoted(unique("Feed series batch")) + "}",
                {admin()});
  REQUIRE(category.status == 201);
  const std::string category_id = std::to_string(id_of(category.json()));
  const std::string in_category = "\"categories\":[" + category_id + "],\"status\":\"publish\"";
  const std::string query = "start_date=2043-01-01&end_date=2043-12-31&per_page=50&categories=" + category_id;
  // A series of four Mondays whose second one is renamed alone.
  const auto add_series = [&](const std::string& name, const std::string& first_day,
                              const std::string& zone) {
    const long long id = id_of(create(event_body(
        name, first_day + " 18:00", first_day + " 19:00",
        "\"timezone\":\"" + zone + "\"," + in_category + ",\"recurrence\":[\"RRULE:FREQ=WEEKLY;COUNT=4\"]")));
    std::vector<long long> ids;
    for (long long listed : list_ids(query + "&search=" + name)) ids.push_back(listed);
    REQUIRE(ids.size() == 4);
    const HttpResponse edited =
        patch_json(path_of(ids[1]) + "?scope=this", "{\"title\":\"" + name + " renamed\"}", {admin()});
    REQUIRE_MESSAGE(edited.status == 200, describe(edited));
    return id;
  };
  const auto feed_statements = [&] {
    const HttpResponse feed = get(std::string(kEvents) + "?" + query + "&ical=1&nc=" + unique("n"));
    REQUIRE_MESSAGE(feed.status == 200, describe(feed));
    const HttpResponse list = get(std::string(kEvents) + "?" + query);
    REQUIRE(list.status == 200);
    INFO(feed.body);
    CHECK(expanded_in(feed.body, "2043-01-01T00:00:00Z", "2044-01-01T00:00:00Z") == listed(list.json()));
    return feed.header("x-cal-statements");
  };
  const long long first = add_series(unique("Batchone"), "2043-02-02", "Europe/Berlin");
  const std::string one = feed_statements();
  add_series(unique("Batchtwo"), "2043-02-03", "America/New_York");
  add_series(unique("Batchthree"), "2043-02-04", "Asia/Kolkata");
  const std::string three = feed_statements();
  CHECK(!one.empty());
  CHECK(one == three);
  // Each series once with its rule and its override once.
  const HttpResponse feed = get(std::string(kEvents) + "?" + query + "&ical=1");
  CHECK(count_of(feed.body, "RRULE:FREQ=WEEKLY;COUNT=4") == 3);
  CHECK(count_of(feed.body, "RECURRENCE-ID") == 3);
  CHECK(count_of(feed.body, "UID:" + std::to_string(first) + "@") == 2);
}

}  // namespace
}  // namespace caltest
