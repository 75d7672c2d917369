// Integration tests of the iCalendar import (docs/feeds.md): POST /events with a text/calendar
// body through nginx creates one event per VEVENT with the JSON routes' validation and
// permissions, updates instead of duplicating on a second import (its own UIDs and this site's
// feed UIDs "<id>@<host>"), maps dates in every form and text, refuses malformed calendars naming
// the line and invalid VEVENTs naming the VEVENT, importing nothing then, and applies its limits.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

HttpResponse import_ical(const std::string& text, std::vector<std::string> headers = {admin()},
                         const std::string& type = "text/calendar; charset=utf-8") {
  headers.push_back("Content-Type: " + type);
  return request("POST", kEvents, text, headers);
}

std::string vevent(const std::string& uid, const std::string& lines) {
  return "BEGIN:VEVENT\r\nUID:" + uid + "\r\nDTSTAMP:20260101T000000Z\r\n" + lines + "END:VEVENT\r\n";
}

std::string calendar(const std::string& vevents) {
  return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calendar-fcgi tests//EN\r\n" + vevents +
         "END:VCALENDAR\r\n";
}

std::vector<long long> ids_at(const rapidjson::Value& v, const char* key) {
  std::vector<long long> ids;
  if (const rapidjson::Value* a = find(v, {key}); a && a->IsArray())
    for (const auto& x : a->GetArray())
      if (x.IsInt64()) ids.push_back(x.GetInt64());
  return ids;
}

rapidjson::Document record(long long id) {
  const HttpResponse r = get(path_of(id), {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  return r.json();
}

// Whether an event with this (unique) title exists, whatever its status.
bool exists_titled(const std::string& title) {
  return get(slug_path(slug_of(title)), {admin()}).status == 200;
}

std::string site_host() {
  const std::string url = site_url();
  return url.substr(url.find("://") + 3);
}

TEST_CASE("ical import: one event per VEVENT, 201 with the ids; a second import updates them") {
  const std::string a = unique("Ical A"), b = unique("Ical B");
  const std::string uid_a = unique("uid-a") + "@elsewhere.example", uid_b = unique("uid-b");
  auto file = [&](const std::string& suffix) {
    return calendar(vevent(uid_a, "SUMMARY:" + a + suffix +
                                      "\r\nDTSTART:20411205T190000Z\r\nDTEND:20411205T220000Z\r\n") +
                    vevent(uid_b, "SUMMARY:" + b +
                                      "\r\nDTSTART;TZID=Europe/Berlin:20410705T200000\r\n"
                                      "DTEND;TZID=Europe/Berlin:20410705T230000\r\n"));
  };
  const HttpResponse first = import_ical(file(""));
  REQUIRE_MESSAGE(first.status == 201, describe(first));
  const rapidjson::Document body = first.json();
  const std::vector<long long> created = ids_at(body, {"created"});
  REQUIRE(created.size() == 2);
  CHECK(ids_at(body, "updated").empty());
  CHECK(string_at(body, {"events", "0", "uid"}) == uid_a);
  CHECK(int_at(body, {"events", "1", "id"}) == created[1]);
  CHECK(string_at(record(created[0]), {"title"}) == a);
  CHECK(string_at(record(created[0]), {"status"}) == "publish");
  CHECK(string_at(record(created[1]), {"title"}) == b);

  // The same file again, with a changed SUMMARY: the same two events, updated, none added.
  const HttpResponse second = import_ical(file(" renamed"));
  REQUIRE_MESSAGE(second.status == 200, describe(second));
  CHECK(ids_at(second.json(), "created").empty());
  CHECK(ids_at(second.json(), "updated") == created);
  CHECK(string_at(record(created[0]), {"title"}) == a + " renamed");
  CHECK(string_at(record(created[0]), {"slug"}) == slug_of(a));  // one event, its slug kept
}

TEST_CASE("ical import: the UID this site's feed gives an event updates that event") {
  const long long id = create_id(unique("Own"), "2041-03-01 10:00", "2041-03-01 11:00");
  const std::string title = unique("Own renamed");
  const HttpResponse r = import_ical(
      calendar(vevent(std::to_string(id) + "@" + site_host(), "SUMMARY:" + title +
                                                                  "\r\nDTSTART:20410301T100000Z\r\n"
                                                                  "DTEND:20410301T120000Z\r\n")));
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(ids_at(r.json(), "updated") == std::vector<long long>{id});
  const rapidjson::Document e = record(id);
  CHECK(string_at(e, {"title"}) == title);
  CHECK(string_at(e, {"utc_end_date"}) == "2041-03-01 12:00:00");
}

TEST_CASE("ical import: this site's own feed imported back keeps each event's venue") {
  const std::string hall = unique("Round Trip Hall");
  const HttpResponse made =
      post_json(kEvents,
                R"({"title":")" + unique("Round trip") +
                    R"(","start_date":"2041-04-01 10:00","end_date":"2041-04-01 11:00",)"
                    R"("status":"publish","venue":{"venue":")" +
                    hall + R"(","address":"1 Main St","city":"Springfield"}})",
                {admin()});
  REQUIRE_MESSAGE(made.status == 201, describe(made));
  const long long id = made.json()["id"].GetInt64();
  const long long venue = int_at(record(id), {"venue", "id"});
  const HttpResponse feed = get(path_of(id) + "?ical=1", {admin()});
  REQUIRE_MESSAGE(feed.status == 200, describe(feed));
  REQUIRE(feed.body.find("LOCATION:" + hall + "\\, 1 Main St\\, Springfield") != std::string::npos);
  const HttpResponse r = import_ical(feed.body);
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(ids_at(r.json(), "updated") == std::vector<long long>{id});
  CHECK(int_at(record(id), {"venue", "id"}) == venue);
  // No venue named after the whole LOCATION text appeared.
  const HttpResponse venues =
      get("/cal/events/v1/venues?search=" + hall.substr(hall.rfind(' ') + 1), {admin()});
  CHECK(venues.header("x-wp-total") == "1");
}

TEST_CASE("ical import: all-day, multi-day, TZID, UTC, floating and DURATION times") {
  struct Case {
    std::string lines;
    std::string zone, start, end, utc_start, all_day;
  };
  const std::vector<Case> cases = {
      {"DTSTART;VALUE=DATE:20411224\r\nDTEND;VALUE=DATE:20411225\r\n", "UTC", "2041-12-24 00:00:00",
       "2041-12-24 23:59:59", "2041-12-24 00:00:00", "true"},
      {"DTSTART;VALUE=DATE:20411230\r\nDTEND;VALUE=DATE:20420102\r\n", "UTC", "2041-12-30 00:00:00",
       "2042-01-01 23:59:59", "2041-12-30 00:00:00", "true"},
      {"DTSTART;TZID=America/New_York:20410310T013000\r\nDTEND;TZID=America/New_York:20410310T040000\r\n",
       "America/New_York", "2041-03-10 01:30:00", "2041-03-10 04:00:00", "2041-03-10 06:30:00", "false"},
      {"DTSTART:20410705T180000Z\r\nDTEND:20410706T020000Z\r\n", "UTC", "2041-07-05 18:00:00",
       "2041-07-06 02:00:00", "2041-07-05 18:00:00", "false"},
      {"DTSTART:20410705T180000\r\nDURATION:PT90M\r\n", "UTC", "2041-07-05 18:00:00", "2041-07-05 19:30:00",
       "2041-07-05 18:00:00", "false"},
      {"DTSTART;TZID=Europe/Berlin:20411026T200000\r\nDURATION:P1D\r\n", "Europe/Berlin",
       "2041-10-26 20:00:00", "2041-10-27 20:00:00", "2041-10-26 18:00:00", "false"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.lines);
    const HttpResponse r =
        import_ical(calendar(vevent(unique("times"), "SUMMARY:" + unique("T") + "\r\n" + c.lines)));
    REQUIRE_MESSAGE(r.status == 201, describe(r));
    const rapidjson::Document e = record(ids_at(r.json(), "created").at(0));
    CHECK(string_at(e, {"timezone"}) == c.zone);
    CHECK(string_at(e, {"start_date"}) == c.start);
    CHECK(string_at(e, {"end_date"}) == c.end);
    CHECK(string_at(e, {"utc_start_date"}) == c.utc_start);
    CHECK(flag_at(e, {"all_day"}) == c.all_day);
  }
}

TEST_CASE("ical import: non-ASCII and escaped text, HTML description, venue, categories, URL, CANCELLED") {
  const std::string title = unique("Caf\xC3\xA9");
  const std::string venue = unique("Salle \xC3\xA9t\xC3\xA9");
  const std::string category = unique("Cat\xC3\xA9gorie");
  const HttpResponse r = import_ical(calendar(
      vevent(unique("text"),
             "SUMMARY:" + title +
                 "\\, \\\"quoted\\\"\\; \xE6\x97\xA5\xE6\x9C\xAC\r\n"
                 "DESCRIPTION:First line\\nSecond < line & more text that is long enough to be fol\r\n"
                 " ded\r\n"
                 "LOCATION:" +
                 venue + "\r\nCATEGORIES:" + category +
                 ",Other\\, one\r\n"
                 "URL:https://example.org/ical\r\nSTATUS:CANCELLED\r\n"
                 "DTSTART:20410801T100000Z\r\nDTEND:20410801T110000Z\r\n")));
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  const rapidjson::Document e = record(ids_at(r.json(), "created").at(0));
  CHECK(string_at(e, {"title"}) == title + ", \"quoted\"; \xE6\x97\xA5\xE6\x9C\xAC");
  const std::string description = string_at(e, {"description"});
  CHECK(description.find("First line<br") != std::string::npos);
  CHECK(description.find("Second &lt; line &amp; more") != std::string::npos);
  CHECK(description.find("folded") != std::string::npos);
  CHECK(string_at(e, {"venue", "venue"}) == venue);
  CHECK(strings_at(e, {"categories"}).empty());  // objects, not strings
  CHECK(string_at(e, {"categories", "0", "name"}) == category);
  CHECK(string_at(e, {"categories", "1", "name"}) == "Other, one");
  CHECK(string_at(e, {"website"}) == "https://example.org/ical");
  CHECK(string_at(e, {"status"}) == "draft");
  // A second VEVENT at the same LOCATION reuses the venue.
  const HttpResponse again = import_ical(
      calendar(vevent(unique("text2"), "SUMMARY:" + unique("Same place") + "\r\nLOCATION:" + venue +
                                           "\r\nDTSTART:20410802T100000Z\r\n")));
  REQUIRE_MESSAGE(again.status == 201, describe(again));
  CHECK(int_at(record(ids_at(again.json(), "created").at(0)), {"venue", "id"}) == int_at(e, {"venue", "id"}));
  // An X-ALT-DESC HTML description is kept as HTML.
  const HttpResponse html = import_ical(calendar(vevent(
      unique("html"),
      "SUMMARY:" + unique("Html") +
          "\r\nDESCRIPTION:plain\r\n"
          "X-ALT-DESC;FMTTYPE=text/html:<p><strong>rich</strong></p>\r\nDTSTART:20410802T100000Z\r\n")));
  REQUIRE_MESSAGE(html.status == 201, describe(html));
  CHECK(string_at(record(ids_at(html.json(), "created").at(0)), {"description"}) ==
        "<p><strong>rich</strong></p>");
}

TEST_CASE("ical import: a malformed calendar is 400 rest_invalid_ical naming the line; nothing is created") {
  const std::string title = unique("Never");
  const std::string text =
      calendar(vevent(unique("ok"), "SUMMARY:" + title + "\r\nDTSTART:20410801T100000Z\r\n") +
               "BEGIN:VEVENT\r\nSUMMARY:x\r\nDTSTART:not-a-date\r\nEND:VEVENT\r\n");
  const HttpResponse r = import_ical(text);
  CHECK_MESSAGE(error_mismatch(r, 400, "rest_invalid_ical").empty(),
                error_mismatch(r, 400, "rest_invalid_ical"));
  CHECK(int_at(r.json(), {"data", "line"}) == 12);
  CHECK(string_at(r.json(), {"message"}).find("Line 12 ") != std::string::npos);
  CHECK(string_at(r.json(), {"message"}).find("DTSTART:not-a-date") != std::string::npos);
  CHECK_FALSE(exists_titled(title));
  // Not a calendar at all, and an empty body.
  for (const std::string& bad : {std::string("{\"title\":\"json\"}"), std::string()}) {
    const HttpResponse x = import_ical(bad);
    CHECK_MESSAGE(error_mismatch(x, 400, "rest_invalid_ical").empty(),
                  error_mismatch(x, 400, "rest_invalid_ical"));
    CHECK(int_at(x.json(), {"data", "line"}) == 1);
  }
  // Invalid UTF-8 names its line too.
  const HttpResponse latin1 =
      import_ical(calendar(vevent("l1", "SUMMARY:caf\xE9\r\nDTSTART:20410801T100000Z\r\n")));
  CHECK_MESSAGE(error_mismatch(latin1, 400, "rest_invalid_ical").empty(), describe(latin1));
  CHECK(int_at(latin1.json(), {"data", "line"}) == 7);
}

TEST_CASE("ical import: one invalid VEVENT among valid ones refuses all, naming the VEVENT and the field") {
  const std::string first = unique("Valid one"), third = unique("Valid three");
  const std::string bad_uid = unique("bad");
  const std::string text = calendar(
      vevent(unique("v1"), "SUMMARY:" + first + "\r\nDTSTART:20410801T100000Z\r\n") +
      vevent(bad_uid, "SUMMARY:Backwards\r\nDTSTART:20410801T100000Z\r\nDTEND:20410801T090000Z\r\n") +
      vevent(unique("v3"), "SUMMARY:" + third + "\r\nDTSTART:20410801T100000Z\r\n"));
  const HttpResponse r = import_ical(text);
  CHECK_MESSAGE(error_mismatch(r, 400, "rest_invalid_param").empty(),
                error_mismatch(r, 400, "rest_invalid_param"));
  const rapidjson::Document e = r.json();
  CHECK(int_at(e, {"data", "vevent"}) == 2);
  CHECK(string_at(e, {"data", "uid"}) == bad_uid);
  CHECK(find(e, {"data", "params", "end_date"}) != nullptr);
  CHECK(string_at(e, {"message"}).find(bad_uid) != std::string::npos);
  CHECK_FALSE(exists_titled(first));
  CHECK_FALSE(exists_titled(third));
  // A VEVENT without SUMMARY misses the required title; a rule the expander refuses names it.
  const HttpResponse untitled = import_ical(calendar(vevent(unique("nt"), "DTSTART:20410801T100000Z\r\n")));
  CHECK_MESSAGE(error_mismatch(untitled, 400, "rest_missing_callback_param").empty(), describe(untitled));
  CHECK(int_at(untitled.json(), {"data", "vevent"}) == 1);
  const std::string weekly = unique("Weekly");
  const HttpResponse recurring = import_ical(calendar(
      vevent(unique("rr"),
             "SUMMARY:" + weekly + "\r\nDTSTART:20410801T100000Z\r\nRRULE:FREQ=YEARLY;BYWEEKNO=20\r\n")));
  CHECK_MESSAGE(error_mismatch(recurring, 400, "rest_invalid_param").empty(), describe(recurring));
  CHECK(string_at(recurring.json(), {"data", "params", "recurrence"}).find("BYWEEKNO") != std::string::npos);
  CHECK_FALSE(exists_titled(weekly));
}

TEST_CASE("ical import: permissions are those of JSON creation and update") {
  const std::string text =
      calendar(vevent(unique("perm"), "SUMMARY:" + unique("Perm") + "\r\nDTSTART:20410801T100000Z\r\n"));
  const HttpResponse visitor = import_ical(text, {});
  CHECK_MESSAGE(error_mismatch(visitor, 401, "rest_forbidden").empty(), describe(visitor));
  const std::string subscriber = bearer(create_user("icsub", "subscriber"));
  const HttpResponse sub = import_ical(text, {subscriber});
  CHECK_MESSAGE(error_mismatch(sub, 403, "rest_forbidden").empty(), describe(sub));
  // A contributor cannot publish: the event is a draft, as with JSON.
  const std::string contributor = bearer(create_user("icco", "contributor"));
  const HttpResponse co = import_ical(text, {contributor});
  REQUIRE_MESSAGE(co.status == 201, describe(co));
  CHECK(string_at(record(ids_at(co.json(), "created").at(0)), {"status"}) == "draft");
  // ...and cannot update an administrator's event through its feed UID: nothing changes.
  const std::string title = unique("Admins");
  const long long id = create_id(title, "2041-03-01 10:00", "2041-03-01 11:00");
  const HttpResponse other = import_ical(calendar(vevent(std::to_string(id) + "@" + site_host(),
                                                         "SUMMARY:hijacked\r\nDTSTART:20410801T100000Z\r\n")),
                                         {contributor});
  CHECK_MESSAGE(error_mismatch(other, 403, "rest_forbidden").empty(), describe(other));
  CHECK(string_at(record(id), {"title"}) == title);
}

TEST_CASE("ical import: content types and limits") {
  const std::string title = unique("Typed");
  const std::string text =
      calendar(vevent(unique("ct"), "SUMMARY:" + title + "\r\nDTSTART:20410801T100000Z\r\n"));
  const HttpResponse latin = import_ical(text, {admin()}, "text/calendar; charset=ISO-8859-1");
  CHECK_MESSAGE(error_mismatch(latin, 415, "rest_unsupported_media_type").empty(), describe(latin));
  CHECK_FALSE(exists_titled(title));
  // No charset means UTF-8; a quoted one is understood.
  const HttpResponse quoted_charset = import_ical(text, {admin()}, "Text/Calendar; charset=\"UTF-8\"");
  CHECK_MESSAGE(quoted_charset.status == 201, describe(quoted_charset));
  // Other routes do not read calendars.
  const long long id = ids_at(quoted_charset.json(), "created").at(0);
  const HttpResponse patch = request("PATCH", path_of(id), text, {admin(), "Content-Type: text/calendar"});
  CHECK_MESSAGE(error_mismatch(patch, 415, "rest_unsupported_media_type").empty(), describe(patch));
  const HttpResponse venues =
      request("POST", "/cal/events/v1/venues", text, {admin(), "Content-Type: text/calendar"});
  CHECK_MESSAGE(error_mismatch(venues, 415, "rest_unsupported_media_type").empty(), describe(venues));
  // More VEVENTs than [site] import_max_events (default 500): 413, nothing imported.
  const std::string many_title = unique("Many");
  std::string many;
  for (int i = 0; i < 501; ++i)
    many += vevent("m" + std::to_string(i), "SUMMARY:" + many_title + "\r\nDTSTART:20410801T100000Z\r\n");
  const HttpResponse too_many = import_ical(calendar(many), {admin()}, "text/calendar");
  CHECK_MESSAGE(error_mismatch(too_many, 413, "rest_ical_too_many_events").empty(), describe(too_many));
  CHECK_FALSE(exists_titled(many_title));
  // The request body limit ([server] max_body) applies as to any body.
  const std::string huge =
      calendar(vevent("huge", "SUMMARY:" + std::string(1100000, 'x') + "\r\nDTSTART:20410801T100000Z\r\n"));
  const HttpResponse too_big = import_ical(huge);
  CHECK(too_big.status == 413);
}

TEST_CASE("ical import: /doc describes the text/calendar body and its answer") {
  const HttpResponse r = get("/cal/events/v1/doc");
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  const rapidjson::Document doc = r.json();
  const rapidjson::Value* post = find(doc, {"paths", "/events", "post"});
  REQUIRE(post != nullptr);
  CHECK(string_at(*post, {"requestBody", "content", "text/calendar", "schema", "type"}) == "string");
  CHECK(string_at(*post, {"responses", "201", "content", "application/json", "schema", "oneOf", "1",
                          "$ref"}) == "#/components/schemas/IcalImport");
  CHECK(string_at(*post, {"responses", "200", "content", "application/json", "schema", "$ref"}) ==
        "#/components/schemas/IcalImport");
  CHECK(find(doc, {"components", "schemas", "IcalImport", "properties", "updated"}) != nullptr);
  // Only the events collection reads calendars.
  CHECK(find(doc, {"paths", "/venues", "post", "requestBody", "content", "text/calendar"}) == nullptr);
  CHECK(find(doc, {"paths", "/events/{id}", "post", "requestBody", "content", "text/calendar"}) == nullptr);
}

}  // namespace
}  // namespace caltest
