// Integration tests of the iCalendar feeds (docs/feeds.md): every feed is read by an independent
// parser, ical.js (tests/ical/parse.mjs, npm packages installed by scripts/install-npm-tools.sh), and
// compared event by event and field by field with the JSON list for the same query: UIDs,
// instants (across DST changes, all-day and multi-day, UTC± zones, a zone other than the
// site's), text with commas, semicolons, newlines and non-ASCII, protected events, the cap with
// X-WP-Total, single events, 304 and the response cache, and the parameter's edge cases.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/engine.h"
#include "support/events.h"
#include "support/ical.h"

namespace caltest {
namespace {

using namespace events;
namespace fs = std::filesystem;

// The feed as ical.js reads it (see tests/ical/parse.mjs); fails the test when it cannot.
rapidjson::Document parse_feed(const std::string& body) {
  const fs::path dir = ical_dir();
  REQUIRE_MESSAGE(fs::exists(dir / "node_modules" / "ical.js"),
                  dir.string() << "/node_modules is missing: run tests/ical/install.sh");
  static int counter = 0;
  const fs::path file = fs::temp_directory_path() / ("calendar-ical-" + std::to_string(::getpid()) + "-" +
                                                     std::to_string(++counter) + ".ics");
  std::ofstream(file, std::ios::binary) << body;
  const std::string command = "cd '" + dir.string() + "' && node parse.mjs '" + file.string() + "' 2>&1";
  const Run r = run(command);
  fs::remove(file);
  INFO("parser output: " << r.out);
  REQUIRE(r.exit_code == 0);
  rapidjson::Document doc;
  doc.Parse(r.out.c_str());
  REQUIRE(!doc.HasParseError());
  return doc;
}

// The site's host, as the UIDs carry it.
std::string host() {
  std::string s = site_url();
  s = s.substr(s.find("://") + 3);
  return s.substr(0, s.find('/'));
}

// "YYYY-MM-DD HH:MM:SS" (UTC) as ISO 8601 "YYYY-MM-DDTHH:MM:SSZ".
std::string iso(const std::string& stored) { return stored.substr(0, 10) + "T" + stored.substr(11) + "Z"; }

// The date after "YYYY-MM-DD...".
std::string next_day(const std::string& date) {
  int y = 0;
  unsigned m = 0, d = 0;
  std::sscanf(date.c_str(), "%4d-%2u-%2u", &y, &m, &d);
  const std::chrono::sys_days day{std::chrono::year{y} / std::chrono::month{m} / std::chrono::day{d}};
  return date_text(day + std::chrono::days{1});
}

std::string str(const rapidjson::Value& v, std::initializer_list<std::string_view> path) {
  return string_at(v, path);
}

bool is_null(const rapidjson::Value& v, std::initializer_list<std::string_view> path) {
  const rapidjson::Value* found = find(v, path);
  return found == nullptr || found->IsNull();
}

// Compares one parsed VEVENT with the JSON record of the same event, field by field.
void compare_event(const rapidjson::Value& ev, const rapidjson::Value& json) {
  const long long id = int_at(json, {"id"});
  INFO("event " << id << " " << str(json, {"title"}));
  CHECK(str(ev, {"uid"}) == std::to_string(id) + "@" + host());
  CHECK(str(ev, {"summary"}) == str(json, {"title"}));
  CHECK(str(ev, {"url"}) == str(json, {"url"}));
  CHECK(str(ev, {"created"}) == iso(str(json, {"date_utc"})));
  CHECK(str(ev, {"last_modified"}) == iso(str(json, {"modified_utc"})));
  CHECK(str(ev, {"dtstamp"}) == iso(str(json, {"modified_utc"})));
  CHECK(int_at(ev, {"sequence"}) ==
        seconds_of(str(json, {"modified_utc"})) - seconds_of("2000-01-01 00:00:00"));
  CHECK(str(ev, {"status"}) == (str(json, {"status"}) == "draft" ? "TENTATIVE" : "CONFIRMED"));
  const std::string zone = str(json, {"timezone"});
  const bool utc_zone = zone.rfind("UTC", 0) == 0;
  if (flag_at(json, {"all_day"}) == "true") {
    CHECK(flag_at(ev, {"start", "date"}) == "true");
    CHECK(flag_at(ev, {"end", "date"}) == "true");
    CHECK(str(ev, {"start", "utc"}) == str(json, {"start_date"}).substr(0, 10));
    CHECK(str(ev, {"end", "utc"}) == next_day(str(json, {"end_date"})));  // exclusive
  } else {
    CHECK(flag_at(ev, {"start", "date"}) == "false");
    CHECK(str(ev, {"start", "utc"}) == iso(str(json, {"utc_start_date"})));
    CHECK(str(ev, {"end", "utc"}) == iso(str(json, {"utc_end_date"})));
    if (utc_zone) {
      CHECK(flag_at(ev, {"start", "utc_form"}) == "true");
      CHECK(is_null(ev, {"start", "tzid"}));
    } else {
      CHECK(str(ev, {"start", "tzid"}) == zone);
      CHECK(str(ev, {"end", "tzid"}) == zone);
    }
  }
  // A protected event in a list: no description, as the JSON record masks it.
  const std::string description = str(json, {"description"});
  if (description.empty()) {
    CHECK(is_null(ev, {"description"}));
    CHECK(is_null(ev, {"alt_desc"}));
  } else {
    CHECK(str(ev, {"alt_desc"}) == description);
    CHECK(str(ev, {"alt_desc_type"}) == "text/html");
    CHECK(!str(ev, {"description"}).empty());
    CHECK(str(ev, {"description"}).find("</") == std::string::npos);  // no markup left
  }
  const std::string venue = str(json, {"venue", "venue"});
  if (venue.empty())
    CHECK(is_null(ev, {"location"}));
  else
    CHECK(str(ev, {"location"}).rfind(venue, 0) == 0);
  std::vector<std::string> categories;
  if (const auto* cats = find(json, {"categories"}); cats && cats->IsArray())
    for (const auto& c : cats->GetArray()) categories.push_back(str(c, {"name"}));
  CHECK(strings_at(ev, {"categories"}) == categories);
  const auto* organizers = find(json, {"organizer"});
  const long long count = organizers && organizers->IsArray() ? organizers->Size() : 0;
  if (count == 0) {
    CHECK(is_null(ev, {"organizer"}));
    CHECK(array_size(ev, {"contacts"}) == 0);
  } else {
    const rapidjson::Value& first = (*organizers)[0];
    if (!str(first, {"email"}).empty()) {
      CHECK(str(ev, {"organizer", "address"}) == "mailto:" + str(first, {"email"}));
      CHECK(str(ev, {"organizer", "cn"}) == str(first, {"organizer"}));
      CHECK(array_size(ev, {"contacts"}) == count - 1);
    } else {
      CHECK(array_size(ev, {"contacts"}) == count);
    }
  }
}

// The feed for `query` compared with the JSON list for the same query: same events, same order.
void compare_feed(const std::string& query, const rapidjson::Value& feed) {
  const HttpResponse list = get(std::string(kEvents) + "?" + query);
  REQUIRE(list.status == 200);
  const rapidjson::Document json = list.json();
  const auto* records = find(json, {"events"});
  REQUIRE(records != nullptr);
  const auto* events = find(feed, {"events"});
  REQUIRE(events != nullptr);
  REQUIRE(events->Size() == records->Size());
  for (rapidjson::SizeType i = 0; i < events->Size(); ++i) compare_event((*events)[i], (*records)[i]);
}

// The fixtures: events of one unique word in 2041, in the site zone (UTC) and others.
struct Fixture {
  std::string word;
  long long dst_ny = 0, dst_berlin = 0, all_day = 0, multi_day = 0, plus_530 = 0, minus_3 = 0, text = 0,
            locked = 0;
};

const std::string kLongHtml =
    "<p>Line one, with a comma; and a semicolon.</p><p>Zweite Zeile: Grüße — 日本語のテキスト, "
    "\"quoted\" \\ backslash</p><ul><li>first</li><li>second</li></ul><p>A link: <a "
    "href=\"https://example.org/x\">site</a></p><pre>pre line 1\npre line 2</pre>";

const Fixture& fixture() {
  static const Fixture f = [] {
    Fixture x;
    x.word = unique("icalfeed");
    const std::string& w = x.word;
    // New York springs forward on 2041-03-10 at 02:00: 22:00 EST .. 04:00 EDT is 5 hours.
    x.dst_ny = create_id(w + " spring", "2041-03-09 22:00", "2041-03-10 04:00",
                         "\"timezone\":\"America/New_York\",\"venue\":{\"venue\":\"Hall, Main; " + w +
                             "\",\"city\":\"New York\",\"country\":\"United States\"},\"organizer\":[{"
                             "\"organizer\":\"Org A " +
                             w + "\",\"email\":\"a@example.org\"},{\"organizer\":\"Org B " + w +
                             "\",\"phone\":\"+1 555, ext; 2\"}],\"categories\":[\"Jazz; Blues " + w + "\"]");
    // Berlin falls back on 2041-10-27 at 03:00 CEST.
    x.dst_berlin = create_id(w + " fall", "2041-10-26 23:00", "2041-10-27 05:00",
                             "\"timezone\":\"Europe/Berlin\",\"description\":\"<b>Bold</b> night\"");
    x.all_day = create_id(w + " allday", "2041-05-01", "2041-05-01", "\"all_day\":true");
    x.multi_day = create_id(w + " multiday", "2041-05-03", "2041-05-06",
                            "\"all_day\":true,\"timezone\":\"Europe/Berlin\"");
    x.plus_530 =
        create_id(w + " kolkata", "2041-06-01 09:00", "2041-06-01 10:30", "\"timezone\":\"UTC+5:30\"");
    x.minus_3 = create_id(w + " minus3", "2041-06-02 23:00", "2041-06-03 01:00", "\"timezone\":\"UTC-3\"");
    x.text = create_id(w + " Café, Bar; \"Ünïcödé\" 🎉 with a title long enough to be folded at 75 octets",
                       "2041-07-01 18:00", "2041-07-01 20:00",
                       "\"timezone\":\"Asia/Tokyo\",\"description\":" + events::quoted(kLongHtml));
    x.locked = create_id(w + " locked", "2041-08-01 10:00", "2041-08-01 11:00",
                         "\"password\":\"secret\",\"description\":\"<p>hidden text</p>\"");
    return x;
  }();
  return f;
}

std::string fixture_query() {
  return "search=" + fixture().word + "&start_date=2041-01-01&end_date=2041-12-31&per_page=50";
}

TEST_CASE("a feed is the JSON list as iCalendar, field by field, read by ical.js") {
  const std::string query = fixture_query();
  const HttpResponse r = get(std::string(kEvents) + "?" + query + "&ical=1");
  REQUIRE(r.status == 200);
  CHECK(r.header("content-type") == "text/calendar; charset=utf-8");
  CHECK(r.header("content-disposition") == "inline; filename=\"events.ics\"");
  CHECK(r.header("x-wp-total") == "8");
  const rapidjson::Document feed = parse_feed(r.body);
  CHECK(str(feed, {"version"}) == "2.0");
  CHECK(str(feed, {"calscale"}) == "GREGORIAN");
  CHECK(str(feed, {"method"}) == "PUBLISH");
  CHECK(!str(feed, {"prodid"}).empty());
  CHECK(str(feed, {"wr_timezone"}) == "UTC");
  CHECK(str(feed, {"calname"}).find("search=" + fixture().word) != std::string::npos);
  CHECK(str(feed, {"refresh_interval"}) == "PT1H");
  CHECK(str(feed, {"published_ttl"}) == "PT1H");
  // One VTIMEZONE per IANA zone used; none for UTC± zones, which are written in UTC.
  std::vector<std::string> zones = strings_at(feed, {"timezones"});
  std::sort(zones.begin(), zones.end());
  CHECK(zones == std::vector<std::string>{"America/New_York", "Asia/Tokyo", "Europe/Berlin"});
  compare_feed(query, feed);
}

TEST_CASE("feed instants across DST changes, all-day, multi-day and UTC± zones") {
  const Fixture& f = fixture();
  const HttpResponse r = get(std::string(kEvents) + "?" + fixture_query() + "&ical=1");
  REQUIRE(r.status == 200);
  const rapidjson::Document feed = parse_feed(r.body);
  auto event = [&](long long id) -> const rapidjson::Value& {
    for (const auto& e : feed["events"].GetArray())
      if (str(e, {"uid"}) == std::to_string(id) + "@" + host()) return e;
    FAIL("no event " << id);
    return feed["events"][0];
  };
  // 22:00 EST (UTC-5) .. 04:00 EDT (UTC-4): the VTIMEZONE carries the change.
  CHECK(str(event(f.dst_ny), {"start", "utc"}) == "2041-03-10T03:00:00Z");
  CHECK(str(event(f.dst_ny), {"end", "utc"}) == "2041-03-10T08:00:00Z");
  // 23:00 CEST (UTC+2) .. 05:00 CET (UTC+1).
  CHECK(str(event(f.dst_berlin), {"start", "utc"}) == "2041-10-26T21:00:00Z");
  CHECK(str(event(f.dst_berlin), {"end", "utc"}) == "2041-10-27T04:00:00Z");
  CHECK(str(event(f.all_day), {"start", "utc"}) == "2041-05-01");
  CHECK(str(event(f.all_day), {"end", "utc"}) == "2041-05-02");
  CHECK(str(event(f.multi_day), {"start", "utc"}) == "2041-05-03");
  CHECK(str(event(f.multi_day), {"end", "utc"}) == "2041-05-07");
  CHECK(str(event(f.plus_530), {"start", "utc"}) == "2041-06-01T03:30:00Z");
  CHECK(str(event(f.minus_3), {"end", "utc"}) == "2041-06-03T04:00:00Z");
  CHECK(str(event(f.text), {"start", "utc"}) == "2041-07-01T09:00:00Z");  // Tokyo, UTC+9
}

TEST_CASE("feed text: commas, semicolons, newlines, non-ASCII, HTML as plain text; folded CRLF lines") {
  const Fixture& f = fixture();
  const HttpResponse r = get(path_of(f.text) + "?ical=1");
  REQUIRE(r.status == 200);
  CHECK(r.header("content-disposition").find(".ics\"") != std::string::npos);
  // RFC 5545 §3.1: CRLF line ends, lines of at most 75 octets (continuations start with a blank).
  std::size_t start = 0, lines = 0;
  bool folded = false;
  while (start < r.body.size()) {
    const std::size_t end = r.body.find("\r\n", start);
    REQUIRE(end != std::string::npos);
    CHECK(r.body.find('\n', start) == end + 1);
    CHECK(end - start <= 75);
    folded = folded || r.body[start] == ' ';
    start = end + 2;
    ++lines;
  }
  CHECK(lines > 10);
  CHECK(folded);
  const rapidjson::Document feed = parse_feed(r.body);
  REQUIRE(array_size(feed, {"events"}) == 1);
  const rapidjson::Value& ev = feed["events"][0];
  const rapidjson::Document json = get(path_of(f.text)).json();
  CHECK(str(ev, {"summary"}) == str(json, {"title"}));
  CHECK(str(ev, {"alt_desc"}) == str(json, {"description"}));
  CHECK(str(ev, {"description"}) ==
        "Line one, with a comma; and a semicolon.\n\nZweite Zeile: Grüße — 日本語のテキスト, \"quoted\" \\ "
        "backslash\n\n- first\n- second\n\nA link: site <https://example.org/x>\n\npre line 1\npre line 2");
  // The venue, organizers and category with commas and semicolons.
  const HttpResponse ny = get(path_of(f.dst_ny) + "?ical=1");
  const rapidjson::Document ny_feed = parse_feed(ny.body);
  const rapidjson::Value& nev = ny_feed["events"][0];
  CHECK(str(nev, {"location"}) == "Hall, Main; " + f.word + ", New York, United States");
  CHECK(strings_at(nev, {"categories"}) == std::vector<std::string>{"Jazz; Blues " + f.word});
  CHECK(str(nev, {"organizer", "address"}) == "mailto:a@example.org");
  CHECK(str(nev, {"organizer", "cn"}) == "Org A " + f.word);
  CHECK(strings_at(nev, {"contacts"}) == std::vector<std::string>{"Org B " + f.word + ", +1 555, ext; 2"});
  compare_event(nev, get(path_of(f.dst_ny)).json());
}

TEST_CASE("password-protected events: no description in lists; single feed needs the password") {
  const Fixture& f = fixture();
  const HttpResponse list = get(std::string(kEvents) + "?" + fixture_query() + "&ical=1");
  const rapidjson::Document feed = parse_feed(list.body);
  bool seen = false;
  for (const auto& e : feed["events"].GetArray()) {
    if (str(e, {"uid"}) != std::to_string(f.locked) + "@" + host()) continue;
    seen = true;
    CHECK(is_null(e, {"description"}));
    CHECK(is_null(e, {"alt_desc"}));
  }
  CHECK(seen);
  CHECK(list.body.find("hidden text") == std::string::npos);
  CHECK(error_mismatch(get(path_of(f.locked) + "?ical=1"), 403, "event-password-protected") == "");
  const HttpResponse open = get(path_of(f.locked) + "?ical=1&password=secret");
  REQUIRE(open.status == 200);
  const rapidjson::Document one = parse_feed(open.body);
  CHECK(str(one["events"][0], {"description"}) == "hidden text");
}

// From 32 events on, two threads write a feed's VEVENTs, half each (src/api/ical/ical_feed.cpp).
TEST_CASE("a feed of 48 events, written by two threads, is the JSON list, in order") {
  const std::string word = unique("icaltwo");
  for (int i = 0; i < 48; ++i) {
    const std::string day = "2042-02-" + std::string(i / 2 < 9 ? "0" : "") + std::to_string(i / 2 + 1);
    const std::string time = i % 2 ? "15:00" : "09:00";
    std::string extra = "\"timezone\":\"" + std::string(i % 3 ? "Europe/Berlin" : "UTC") + "\"";
    if (i % 4 == 0)
      extra += ",\"venue\":{\"venue\":\"Hall " + word +
               "\",\"city\":\"Oslo\"},\"organizer\":[{\"organizer\":"
               "\"Org " +
               word + "\",\"email\":\"o@example.org\"}],\"categories\":[\"Two " + word + "\"]";
    create_id(word + " " + std::to_string(i), day + " " + time, day + " " + time.substr(0, 2) + ":45", extra);
  }
  const std::string query = "search=" + word + "&start_date=2042-01-01&end_date=2042-12-31&per_page=50";
  const HttpResponse r = get(std::string(kEvents) + "?" + query + "&ical=1");
  REQUIRE(r.status == 200);
  CHECK(r.header("x-wp-total") == "48");
  const rapidjson::Document feed = parse_feed(r.body);
  compare_feed(query, feed);
}

TEST_CASE("without page/per_page a feed has [ical] max_events events and X-WP-Total tells all") {
  // The test stack sets max_events = 5 (scripts/run-tests.sh); the fixture has 8 events.
  fixture();
  const std::string query = "search=" + fixture().word + "&start_date=2041-01-01&end_date=2041-12-31";
  const HttpResponse r = get(std::string(kEvents) + "?" + query + "&ical=1");
  REQUIRE(r.status == 200);
  CHECK(r.header("x-wp-total") == "8");
  const rapidjson::Document feed = parse_feed(r.body);
  CHECK(array_size(feed, {"events"}) == 5);
  compare_feed(query + "&per_page=5", feed);
  // page and per_page apply when given, as for JSON.
  const HttpResponse page2 = get(std::string(kEvents) + "?" + query + "&per_page=3&page=2&ical=1");
  REQUIRE(page2.status == 200);
  CHECK(page2.header("x-wp-total") == "8");
  CHECK(page2.header("x-wp-totalpages") == "3");
  compare_feed(query + "&per_page=3&page=2", parse_feed(page2.body));
  CHECK(error_mismatch(get(std::string(kEvents) + "?" + query + "&per_page=3&page=9&ical=1"), 404,
                       "event-archive-page-not-found") == "");
}

TEST_CASE("Accept: text/calendar asks for the feed; ical=0 and other values") {
  const std::string query = fixture_query();
  const HttpResponse by_param = get(std::string(kEvents) + "?" + query + "&ical=1");
  const HttpResponse by_accept = get(std::string(kEvents) + "?" + query, {"Accept: text/calendar"});
  REQUIRE(by_accept.status == 200);
  CHECK(by_accept.header("content-type") == "text/calendar; charset=utf-8");
  CHECK(by_accept.body == by_param.body);
  CHECK(by_accept.header("vary").find("Accept") != std::string::npos);
  // The same URL without that Accept is JSON (the response cache keys on it).
  const HttpResponse json = get(std::string(kEvents) + "?" + query, {"Accept: application/json"});
  CHECK(json.header("content-type").find("application/json") == 0);
  CHECK(get(std::string(kEvents) + "?" + query).header("content-type").find("application/json") == 0);
  // ical=0 is JSON whatever the Accept; a value that is no boolean is a 400.
  const HttpResponse off = get(std::string(kEvents) + "?" + query + "&ical=0", {"Accept: text/calendar"});
  CHECK(off.header("content-type").find("application/json") == 0);
  CHECK(error_mismatch(get(std::string(kEvents) + "?" + query + "&ical=maybe"), 400, "rest_invalid_param") ==
        "");
  // By slug as by id.
  const rapidjson::Document record = get(path_of(fixture().all_day)).json();
  const HttpResponse slug = get(slug_path(str(record, {"slug"})), {"Accept: text/calendar"});
  REQUIRE(slug.status == 200);
  CHECK(slug.header("content-disposition") == "inline; filename=\"" + str(record, {"slug"}) + ".ics\"");
  const rapidjson::Document one = parse_feed(slug.body);
  REQUIRE(array_size(one, {"events"}) == 1);
  compare_event(one["events"][0], record);
  // _envelope: the feed's text as the body string; _fields does not apply to a feed.
  const HttpResponse env = get(path_of(fixture().all_day) + "?ical=1&_envelope");
  CHECK(str(env.json(), {"body"}) == slug.body);
  CHECK(get(path_of(fixture().all_day) + "?ical=1&_fields=id").body == slug.body);
}

TEST_CASE("feeds have ETags, 304, and visitors' feeds come from the response cache") {
  const std::string path = std::string(kEvents) + "?" + fixture_query() + "&ical=1";
  const HttpResponse first = get(path);
  REQUIRE(first.status == 200);
  const std::string etag = first.header("etag");
  REQUIRE(!etag.empty());
  CHECK(first.header("cache-control") == "no-cache");
  const HttpResponse again = get(path);
  CHECK(again.body == first.body);
  CHECK(again.header("x-cal-statements") == "0");  // served from memory
  const HttpResponse not_modified = get(path, {"If-None-Match: " + etag});
  CHECK(not_modified.status == 304);
  CHECK(not_modified.body.empty());
  // An edit changes the feed (and so its ETag); the cache does not serve the old one.
  const long long id = fixture().all_day;
  const HttpResponse edit = post_json(
      path_of(id), "{\"title\":" + events::quoted(fixture().word + " allday renamed") + "}", {admin()});
  REQUIRE(edit.status == 200);
  const HttpResponse after = get(path, {"If-None-Match: " + etag});
  CHECK(after.status == 200);
  CHECK(after.body.find("allday renamed") != std::string::npos);
  compare_feed(fixture_query(), parse_feed(after.body));
  // An authenticated caller's feed is private.
  CHECK(get(path, {admin()}).header("cache-control") == "private, no-store");
}

TEST_CASE("a feed's VEVENTs are kept: the next feed reads no event again, and none is older than a write") {
  const std::string word = unique("keptfeed");
  const std::string linked =
      "\"venue\":{\"venue\":\"V " + word + "\",\"city\":\"Town\"},\"categories\":[\"C " + word +
      "\"],\"organizer\":[{\"organizer\":\"O " + word + "\",\"email\":\"o@example.org\"}]";
  const long long a = create_id("A " + word, "2054-03-10 10:00:00", "2054-03-10 11:00:00", linked);
  create_id("B " + word, "2054-03-10 12:00:00", "2054-03-10 13:00:00");
  create_id("C " + word, "2054-03-10 14:00:00", "2054-03-10 15:00:00",
            "\"password\":\"pw\",\"description\":\"<p>secret " + word + "</p>\"");
  // Each feed asks for a page size of its own, so the response cache cannot answer it; the
  // calendar's name leaves page sizes out, so every feed of the window has the same text.
  const std::string window = "start_date=2054-03-10&end_date=2054-03-11";
  int per_page = 10;
  const auto feed = [&] {
    const HttpResponse r =
        get(std::string(kEvents) + "?ical=1&" + window + "&per_page=" + std::to_string(++per_page));
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    return r;
  };
  const auto statements = [](const HttpResponse& r) { return std::stoll(r.header("x-cal-statements")); };
  const HttpResponse first = feed();
  const HttpResponse again = feed();
  CHECK(again.body == first.body);
  // The page and its count only: the events' rows and relations are not read again.
  CHECK(statements(again) <= 2);
  CHECK(statements(first) > statements(again));
  compare_feed(window, parse_feed(again.body));
  CHECK(again.body.find("secret") == std::string::npos);

  // An event written in A's category, outside the window, changes the category's count, which a
  // VEVENT does not show: A's is still used, its CATEGORIES written from the category's row.
  const rapidjson::Document record = get(path_of(a)).json();
  create_id("D " + word, "2054-05-10 10:00:00", "2054-05-10 11:00:00",
            "\"categories\":[" + std::to_string(int_at(record, {"categories", "0", "id"})) + "]");
  const HttpResponse counted = feed();
  CHECK(counted.body == again.body);
  // The page and the category's row, read again for its new count: no event's rows.
  CHECK(statements(counted) <= 2);

  // The venue renamed, the category renamed, the title written by hand in SQL: each feed after
  // shows it, as the JSON list does.
  const auto renamed = [&](const std::string& path, const std::string& json, const std::string& line) {
    REQUIRE(post_json(path, json, {admin()}).status == 200);
    const HttpResponse r = feed();
    CHECK(r.body.find(line) != std::string::npos);
    compare_feed(window, parse_feed(r.body));
  };
  renamed("/cal/events/v1/venues/" + std::to_string(int_at(record, {"venue", "id"})),
          "{\"venue\":\"V2 " + word + "\"}", "LOCATION:V2 " + word);
  renamed("/cal/events/v1/categories/" + std::to_string(int_at(record, {"categories", "0", "id"})),
          "{\"name\":\"C2 " + word + "\"}", "CATEGORIES:C2 " + word);
  engine::sql("START TRANSACTION; UPDATE posts SET title = 'Rolled back " + word +
              "' WHERE id = " + std::to_string(a) + "; ROLLBACK");
  engine::sql("UPDATE posts SET title = 'By hand " + word + "' WHERE id = " + std::to_string(a));
  const HttpResponse by_hand = feed();
  CHECK(by_hand.body.find("SUMMARY:By hand " + word) != std::string::npos);
  CHECK(by_hand.body.find("Rolled back") == std::string::npos);
  compare_feed(window, parse_feed(by_hand.body));
  // Only the event written was read again (the others' VEVENTs stayed kept), and is kept since.
  CHECK(statements(by_hand) > statements(again));
  CHECK(statements(by_hand) <= statements(first));
  const HttpResponse kept = feed();
  CHECK(statements(kept) <= statements(again));
  CHECK(kept.body == by_hand.body);
}

}  // namespace
}  // namespace caltest
