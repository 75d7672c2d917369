// The web calendar in a real browser: seeds a month of events through the API (timed, multi-day,
// all-day, one in Tokyo, five talks on one day, a weekly series with one occurrence moved
// alone), then runs tests/browser/webcal/check.mjs (puppeteer-core driving Debian's chromium,
// viewer in Europe/Berlin) against the stack's /calendar/ and judges what it saw: the month grid
// shows exactly the API's events on the right days (a day's extra ones in its "+N more" list), a
// category filter and the language switch work, the event panel (opened by keyboard) shows both
// zones, venue, map link, organizer, cost and sanitised description, and for an occurrence how
// its series recurs; a phone gets the list without sideways scrolling, every visible text has AA
// contrast, and the page logs no console error. Screenshots go to BUILD_DIR/webcal-screenshots/
// (docs/web-calendar.md shows copies of them, web/screenshots/).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/events.h"

namespace caltest {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMonth = "2091-05";

std::string admin() { return bearer(admin_token()); }

// The id of the category `name`, created unless it exists (re-runs against one stack).
std::string category(const std::string& name) {
  const HttpResponse r = post_json("/cal/events/v1/categories", "{\"name\":\"" + name + "\"}", {admin()});
  if (r.status == 409) return std::to_string(find(r.json(), {"data", "term_id"})->GetInt64());
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  return std::to_string(find(r.json(), {"id"})->GetInt64());
}

std::string create(const std::string& path, const std::string& body) {
  const HttpResponse r = post_json("/cal/events/v1/" + path, body, {admin()});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  return std::to_string(find(r.json(), {"id"})->GetInt64());
}

// The calendar's URL on the stack: /calendar/ beside the REST root /api.
std::string page_url() { return base_url().substr(0, base_url().rfind("/api")) + "/calendar/"; }

// The directory above the build directory holding this binary (the checkout), else the working
// directory.
fs::path repo_dir(fs::path* build) {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  *build = ec ? fs::current_path() : exe.parent_path();
  const fs::path up = build->parent_path();
  return fs::exists(up / "tests" / "browser" / "webcal" / "check.mjs") ? up : fs::current_path();
}

// Runs check.mjs and returns its RESULT line's JSON, or "" with everything it printed in *output.
std::string run_check(const std::vector<std::string>& args, std::string* output) {
  fs::path build;
  const fs::path repo = repo_dir(&build);
  std::string command = "timeout -k 5 180 node '" + (repo / "tests/browser/webcal/check.mjs").string() + "'";
  for (const std::string& a : args) command += " '" + a + "'";
  command += " '" + (build / "webcal-screenshots").string() + "' 2>&1";
  const std::string out = run(command).out;
  *output = command + "\n" + out;
  const size_t at = out.rfind("RESULT ");
  if (at == std::string::npos) return "";
  return out.substr(at + 7, out.find('\n', at) - at - 7);
}

// True when the value at `path` exists and is true (a missing one fails, never crashes).
bool is_true(const rapidjson::Value& v, std::initializer_list<std::string_view> path) {
  const rapidjson::Value* at = find(v, path);
  return at != nullptr && at->IsTrue();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("web calendar in a browser: month view, filter, language, event panel, phone width") {
  const std::string concerts = category("Concerts");
  const std::string workshops = category("Workshops");
  const std::string venue =
      create("venues", R"({"venue":"Town Hall","address":"Marktplatz 1","city":"Bonn","zip":"53111",)"
                       R"("country":"Germany"})");
  const std::string organizer =
      create("organizers", R"({"organizer":"Choir Society","website":"https://choir.example"})");
  // Timed, in the viewer's zone; the description carries markup to keep, and a javascript: link
  // and an onerror attribute the page must drop (administrators may store any HTML); an empty src
  // fires the image's error event without a request.
  create("events",
         R"({"title":"Evening concert","start_date":"2091-05-06 18:00","end_date":"2091-05-06 20:00",)"
         R"("timezone":"Europe/Berlin","categories":[)" +
             concerts + R"(],"venue":)" + venue + R"(,"organizer":[)" + organizer +
             R"(],"cost":"12€","description":"<p>Bring <strong>friends</strong></p>)"
             R"(<a href=\"javascript:window.__xss=1\">more</a>)"
             R"(<img src=\"\" onerror=\"window.__xss=2\">"})");
  create("events",
         R"({"title":"Pottery workshop","start_date":"2091-05-13 10:00","end_date":"2091-05-15 16:00",)"
         R"("timezone":"Europe/Berlin","categories":[)" +
             workshops + "]}");
  create("events",
         R"({"title":"Town festival","all_day":true,"start_date":"2091-05-20","end_date":"2091-05-21",)"
         R"("timezone":"Europe/Berlin"})");
  // 06:00 in Tokyo on the 27th is 23:00 of the 26th in Berlin: the grid shows the viewer's day.
  create("events",
         R"({"title":"Tokyo livestream","start_date":"2091-05-27 06:00","end_date":"2091-05-27 06:30",)"
         R"("timezone":"Asia/Tokyo"})");

  // Five talks on one day: the grid draws three and "+2 more", whose list holds all five.
  for (int i = 0; i < 5; ++i) {
    const std::string hour = std::to_string(10 + i);
    create("events", R"({"title":"Talk )" + std::to_string(i + 1) + R"(","start_date":"2091-05-09 )" + hour +
                         R"(:00","end_date":"2091-05-09 )" + hour + R"(:45","timezone":"Europe/Berlin"})");
  }
  // A weekly series through the grid's last week, and its third occurrence moved to a Thursday
  // morning and renamed (edited alone).
  const HttpResponse series = post_json(
      "/cal/events/v1/events",
      R"({"title":"Tuesday class","start_date":"2091-05-01 19:00","end_date":"2091-05-01 20:30",)"
      R"("timezone":"Europe/Berlin","recurrence":["RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20910612T170000Z"]})",
      {admin()});
  REQUIRE_MESSAGE(series.status == 201, describe(series));
  const HttpResponse created =
      get("/cal/events/v1/events/" + std::to_string(events::int_at(series.json(), {"id"})));
  REQUIRE_MESSAGE(created.status == 200, describe(created));
  const long long third = events::int_at(created.json(), {"next_occurrences", "2", "id"});
  const HttpResponse moved = patch_json(
      "/cal/events/v1/events/" + std::to_string(third),
      R"({"title":"Class moved to Thursday","start_date":"2091-05-17 10:00","end_date":"2091-05-17 11:30"})",
      {admin()});
  REQUIRE_MESSAGE(moved.status == 200, describe(moved));

  std::string output;
  const std::string text = run_check({page_url(), kMonth, "concerts", "Evening concert", "Tokyo livestream",
                                      "Tuesday class", "Class moved to Thursday"},
                                     &output);
  CAPTURE(output);
  rapidjson::Document r;
  r.Parse(text.data(), text.size());
  REQUIRE_MESSAGE((!text.empty() && !r.HasParseError() && r.IsObject()), "check.mjs reported no result");

  // No console error, uncaught exception, failed request or HTTP error.
  CHECK(strings_at(r, {"errors"}).empty());
  REQUIRE(find(r, {"errors"}) != nullptr);

  // WCAG AA contrast of every visible text: month view, panel, phone (contrast.mjs).
  for (const char* view : {"contrast", "panelContrast", "exceptionContrast", "phoneContrast"}) {
    CAPTURE(view);
    REQUIRE(find(r, {view}) != nullptr);
    CHECK(strings_at(r, {view}).empty());
  }

  // The month grid: exactly the API's events of the visible weeks, each on its days.
  CHECK(string_at(r, {"month", "title"}) == "May 2091");
  REQUIRE(find(r, {"month", "shown"}) != nullptr);
  CHECK(*find(r, {"month", "shown"}) == *find(r, {"month", "api"}));
  CHECK(strings_at(r, {"month", "shown", "Evening concert"}) == std::vector<std::string>{"2091-05-06"});
  CHECK(strings_at(r, {"month", "shown", "Pottery workshop"}) ==
        std::vector<std::string>{"2091-05-13", "2091-05-14", "2091-05-15"});
  CHECK(strings_at(r, {"month", "shown", "Town festival"}) ==
        std::vector<std::string>{"2091-05-20", "2091-05-21"});
  CHECK(strings_at(r, {"month", "shown", "Tokyo livestream"}) == std::vector<std::string>{"2091-05-26"});
  // The day with more events than its cell holds: some talks drawn (as many as fit the cell,
  // one row kept), "+N more" for the others, and its list has all five.
  REQUIRE(find(r, {"month", "more"}) != nullptr);
  const std::vector<std::string> drawn = strings_at(r, {"month", "drawn"});
  const long talks = std::count_if(drawn.begin(), drawn.end(),
                                   [](const std::string& t) { return t.rfind("Talk ", 0) == 0; });
  CHECK(talks >= 1);
  CHECK(talks <= 3);
  CHECK(string_at(r, {"month", "more", "2091-05-09"}) == "+" + std::to_string(5 - talks) + " more");
  CHECK(find(r, {"month", "more"})->MemberCount() == 1);
  for (const char* talk : {"Talk 1", "Talk 2", "Talk 3", "Talk 4", "Talk 5"}) {
    CHECK_MESSAGE(strings_at(r, {"month", "shown", talk}) == std::vector<std::string>{"2091-05-09"}, talk);
  }
  // That day's week view draws all five talks, and no "+N more".
  const std::vector<std::string> week = strings_at(r, {"week", "titles"});
  CHECK(std::count_if(week.begin(), week.end(),
                      [](const std::string& t) { return t.rfind("Talk ", 0) == 0; }) == 5);
  CHECK(events::int_at(r, {"week", "more"}) == 0);
  REQUIRE(find(r, {"week", "more"}) != nullptr);
  // The series: every Tuesday of the grid but the one moved, which is on its new day.
  CHECK(strings_at(r, {"month", "shown", "Tuesday class"}) ==
        std::vector<std::string>{"2091-05-01", "2091-05-08", "2091-05-22", "2091-05-29", "2091-06-05"});
  CHECK(strings_at(r, {"month", "shown", "Class moved to Thursday"}) ==
        std::vector<std::string>{"2091-05-17"});

  // The category filter: the grid, the address bar and the Subscribe link (the iCal feed).
  REQUIRE(find(r, {"category", "shown"}) != nullptr);
  CHECK(*find(r, {"category", "shown"}) == *find(r, {"category", "api"}));
  CHECK(find(r, {"category", "shown", "Evening concert"}) != nullptr);
  CHECK(find(r, {"category", "shown", "Pottery workshop"}) == nullptr);
  const std::string feed =
      "webcal://" + page_url().substr(7) + "api/cal/events/v1/events?ical=1&categories=concerts";
  CHECK(string_at(r, {"category", "subscribe"}) == feed);
  CHECK(contains(string_at(r, {"category", "location"}), "categories=concerts"));

  // German: the page's texts and FullCalendar's.
  CHECK(string_at(r, {"german", "lang"}) == "de");
  CHECK(string_at(r, {"german", "heading"}) == "Veranstaltungen");
  CHECK(string_at(r, {"german", "title"}) == "Mai 2091");
  CHECK(string_at(r, {"german", "today"}) == "Heute");
  CHECK(string_at(r, {"german", "all"}) == "Alle");
  CHECK(string_at(r, {"german", "subscribe"}) == "Abonnieren");
  CHECK(contains(string_at(r, {"german", "location"}), "lang=de"));

  // Without ?lang=, the browser's languages (fr-CA, fr, en): French.
  CHECK(string_at(r, {"browserLanguage", "lang"}) == "fr");
  CHECK(string_at(r, {"browserLanguage", "heading"}) == "Événements");
  CHECK(string_at(r, {"browserLanguage", "title"}) == "mai 2091");

  // The panel, opened with Enter and closed with Escape, focus back on the event.
  const std::string panel = string_at(r, {"panel", "text"});
  CHECK(contains(string_at(r, {"panel", "eventZone"}), "May 6, 2091"));
  CHECK(contains(string_at(r, {"panel", "eventZone"}), "(CEST)"));
  CHECK(contains(string_at(r, {"panel", "viewerZone"}), "(Europe/Berlin)"));
  CHECK(contains(panel, "Town Hall"));
  CHECK(contains(panel, "Marktplatz 1, 53111 Bonn, Germany"));
  CHECK(contains(panel, "Choir Society"));
  CHECK(contains(panel, "12€"));
  CHECK(contains(panel, "Concerts"));
  CHECK(strings_at(r, {"panel", "strong"}) == std::vector<std::string>{"friends"});
  bool map_link = false;
  for (const std::string& href : strings_at(r, {"panel", "links"})) {
    CHECK_MESSAGE(!contains(href, "javascript:"), href);
    map_link = map_link || href.rfind("https://www.openstreetmap.org/search?query=Marktplatz", 0) == 0;
  }
  CHECK(map_link);
  CHECK(string_at(r, {"panel", "label"}) == "inside");
  CHECK(is_true(r, {"panel", "closed"}));
  CHECK(contains(string_at(r, {"panel", "focusBack"}), "Evening concert"));
  CHECK(is_true(r, {"xss"}));

  // The event in another zone: its own wall clock and zone, and the viewer's.
  CHECK(contains(string_at(r, {"zone", "eventZone"}), "May 27, 2091"));
  CHECK(contains(string_at(r, {"zone", "eventZone"}), "(JST)"));
  CHECK(contains(string_at(r, {"zone", "viewerZone"}), "May 26, 2091"));
  CHECK(contains(string_at(r, {"zone", "viewerZone"}), "(Europe/Berlin)"));

  // An occurrence's panel says how its series recurs, in the page's language; the occurrence
  // edited alone shows its own time and where the rule had put it.
  CHECK(string_at(r, {"series", "rule"}) == "Every Tuesday until June 12, 2091");
  CHECK(find(r, {"series", "exception"}) != nullptr);
  CHECK((find(r, {"series", "exception"}) != nullptr && find(r, {"series", "exception"})->IsNull()));
  CHECK(string_at(r, {"seriesGerman", "rule"}) == "Jeden Dienstag bis 12. Juni 2091");
  CHECK(string_at(r, {"exception", "rule"}) == "Every Tuesday until June 12, 2091");
  CHECK(string_at(r, {"exception", "exception"}) == "Moved from Tuesday, May 15, 2091 at 7:00 PM");
  CHECK(contains(string_at(r, {"exception", "eventZone"}), "Thursday, May 17, 2091"));
  // A one-off event has no recurrence line.
  CHECK((find(r, {"panel", "rule"}) != nullptr && find(r, {"panel", "rule"})->IsNull()));

  // A phone: the list view, no wider than the screen.
  CHECK(is_true(r, {"phone", "list"}));
  const rapidjson::Value* width = find(r, {"phone", "width"});
  CHECK((width != nullptr && width->IsInt() && width->GetInt() <= 375));
  const std::vector<std::string> titles = strings_at(r, {"phone", "titles"});
  for (const char* t : {"Evening concert", "Pottery workshop", "Town festival", "Tokyo livestream"}) {
    CHECK_MESSAGE(std::find(titles.begin(), titles.end(), t) != titles.end(), t);
  }
}

}  // namespace
}  // namespace caltest
