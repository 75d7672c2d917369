// Integration tests of importing recurring events from iCalendar (docs/feeds.md,
// docs/recurring-events.md): RRULE, RDATE and EXDATE make a series through the JSON series writes,
// in the VEVENT's zone across DST changes; RECURRENCE-ID overrides, before or after their series in
// the file, become exceptions or (STATUS:CANCELLED) EXDATEs; a second import updates the series and
// keeps its occurrences' ids; refused rules and overrides are named per VEVENT and change nothing;
// this site's own feed imported again gives the occurrences it lists.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

HttpResponse import_ical(const std::string& text) {
  return request("POST", kEvents, text, {admin(), "Content-Type: text/calendar; charset=utf-8"});
}

std::string vevent(const std::string& uid, const std::string& lines) {
  return "BEGIN:VEVENT\r\nUID:" + uid + "\r\nDTSTAMP:20260101T000000Z\r\n" + lines + "END:VEVENT\r\n";
}

std::string calendar(const std::string& vevents) {
  return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calendar-fcgi tests//EN\r\n" + vevents +
         "END:VCALENDAR\r\n";
}

// The id the import answer gives VEVENT `n` (1-based).
long long id_of_vevent(const rapidjson::Value& answer, int n) {
  return int_at(answer, {"events", std::to_string(n - 1), "id"});
}

// (UTC start, title) of every occurrence of series `id`, by start, as admin.
std::vector<std::pair<std::string, std::string>> occurrences(long long id) {
  const HttpResponse r = get(path_of(id) + "/occurrences?per_page=100&status=publish,draft", {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  std::vector<std::pair<std::string, std::string>> out;
  const rapidjson::Document r_doc = r.json();
  for (const auto& e : r_doc["events"].GetArray())
    out.emplace_back(e["utc_start_date"].GetString(), e["title"].GetString());
  return out;
}

// Occurrence ids of series `id` by their original start (UTC).
std::vector<std::pair<std::string, long long>> ids_by_original(long long id) {
  const HttpResponse r = get(path_of(id) + "/occurrences?per_page=100&status=publish,draft", {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  std::vector<std::pair<std::string, long long>> out;
  const rapidjson::Document r_doc = r.json();
  for (const auto& e : r_doc["events"].GetArray())
    out.emplace_back(e["original_start_date_utc"].GetString(), e["id"].GetInt64());
  std::sort(out.begin(), out.end());
  return out;
}

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// What an import writes: equal before and after a refused import.
std::string import_fingerprint() {
  const Run r =
      run(ctl() + " sql -e " +
          shell_quoted("SELECT (SELECT COUNT(*) FROM posts), "
                       "(SELECT COALESCE(SUM(CRC32(CONCAT_WS(',', id, type, status, title))), 0) "
                       "FROM posts), (SELECT COUNT(*) FROM event_occurrences), "
                       "(SELECT COALESCE(SUM(CRC32(recurrence)), 0) FROM event_series), "
                       "(SELECT COUNT(*) FROM event_ical_uids), (SELECT COUNT(*) FROM venue_details)"));
  REQUIRE(r.exit_code == 0);
  return r.out;
}

TEST_CASE("ical import recurring: RRULE, RDATE and EXDATE make a series in its zone across DST") {
  const std::string weekly = unique("Imported weekly"), daily = unique("Imported daily"),
                    days = unique("Imported days");
  const std::string days_uid = unique("days");
  const HttpResponse r = import_ical(calendar(
      // Tuesdays 19:00 in Berlin from 2041-03-05 (summer time from 2041-03-31), not on the 12th, an
      // extra Wednesday morning.
      vevent(unique("weekly"), "SUMMARY:" + weekly +
                                   "\r\nDTSTART;TZID=Europe/Berlin:20410305T190000\r\n"
                                   "DTEND;TZID=Europe/Berlin:20410305T210000\r\n"
                                   "RRULE:FREQ=WEEKLY;COUNT=6\r\n"
                                   "EXDATE;TZID=Europe/Berlin:20410312T190000\r\n"
                                   "RDATE;TZID=Europe/Berlin:20410320T100000\r\n") +
      // Daily 09:00 in New York (a vendor-prefixed TZID) across its change on 2041-03-10.
      vevent(unique("daily"),
             "SUMMARY:" + daily +
                 "\r\nDTSTART;TZID=/citadel.org/20190914_1/America/New_York:20410308T090000\r\n"
                 "DURATION:PT1H\r\nrrule:freq=daily;count=4\r\n") +
      // All day, every other Saturday until 27 April, not on 16 March; overrides by date: 30 March
      // moves to the Sunday, 13 April is cancelled.
      vevent(days_uid, "SUMMARY:" + days +
                           "\r\nDTSTART;VALUE=DATE:20410302\r\nDTEND;VALUE=DATE:20410303\r\n"
                           "RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=20410427\r\nEXDATE;VALUE=DATE:20410316\r\n") +
      vevent(days_uid, "SUMMARY:" + days +
                           " moved\r\nRECURRENCE-ID;VALUE=DATE:20410330\r\nDTSTART;VALUE=DATE:20410331\r\n") +
      vevent(days_uid, "SUMMARY:" + days +
                           "\r\nRECURRENCE-ID;VALUE=DATE:20410413\r\nDTSTART;VALUE=DATE:20410413\r\n"
                           "STATUS:CANCELLED\r\n")));
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  const rapidjson::Document answer = r.json();
  CHECK(array_size(answer, {"created"}) == 3);
  const long long weekly_id = id_of_vevent(answer, 1);
  const rapidjson::Document series = get(path_of(weekly_id), {admin()}).json();
  CHECK(strings_at(series, {"recurrence"}) ==
        std::vector<std::string>{"RRULE:FREQ=WEEKLY;COUNT=6", "RDATE;TZID=Europe/Berlin:20410320T100000",
                                 "EXDATE;TZID=Europe/Berlin:20410312T190000"});
  CHECK(string_at(series, {"timezone"}) == "Europe/Berlin");
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  CHECK(occurrences(weekly_id) == Pairs{{"2041-03-05 18:00:00", weekly},
                                        {"2041-03-19 18:00:00", weekly},
                                        {"2041-03-20 09:00:00", weekly},
                                        {"2041-03-26 18:00:00", weekly},
                                        {"2041-04-02 17:00:00", weekly},
                                        {"2041-04-09 17:00:00", weekly}});
  const long long daily_id = id_of_vevent(answer, 2);
  CHECK(string_at(get(path_of(daily_id), {admin()}).json(), {"timezone"}) == "America/New_York");
  CHECK(occurrences(daily_id) == Pairs{{"2041-03-08 14:00:00", daily},
                                       {"2041-03-09 14:00:00", daily},
                                       {"2041-03-10 13:00:00", daily},
                                       {"2041-03-11 13:00:00", daily}});
  const HttpResponse all_day = get(path_of(id_of_vevent(answer, 3)) + "/occurrences?per_page=100", {admin()});
  REQUIRE_MESSAGE(all_day.status == 200, describe(all_day));
  Pairs days_listed;
  const rapidjson::Document all_day_doc = all_day.json();
  for (const auto& e : all_day_doc["events"].GetArray()) {
    days_listed.emplace_back(e["start_date"].GetString(), e["title"].GetString());
    CHECK(flag_at(e, {"all_day"}) == "true");
  }
  CHECK(days_listed == Pairs{{"2041-03-02 00:00:00", days},
                             {"2041-03-31 00:00:00", days + " moved"},
                             {"2041-04-27 00:00:00", days}});
}

TEST_CASE("ical import recurring: overrides before and after their series; a second import keeps the ids") {
  const std::string title = unique("Imported class"), moved = unique("Moved class");
  const std::string uid = unique("class") + "@elsewhere.example";
  auto file = [&](const std::string& suffix, int count) {
    const std::string master = vevent(uid, "SUMMARY:" + title + suffix +
                                               "\r\nDTSTART;TZID=Europe/Berlin:20410305T190000\r\n"
                                               "DTEND;TZID=Europe/Berlin:20410305T210000\r\n"
                                               "RRULE:FREQ=WEEKLY;COUNT=" +
                                               std::to_string(count) + "\r\n");
    // The 19 March class moves to 20:30 with its own title; the 2 April class is cancelled.
    const std::string override_moved =
        vevent(uid, "SUMMARY:" + moved + suffix +
                        "\r\nRECURRENCE-ID;TZID=Europe/Berlin:20410319T190000\r\n"
                        "DTSTART;TZID=Europe/Berlin:20410319T203000\r\n"
                        "DTEND;TZID=Europe/Berlin:20410319T220000\r\n");
    const std::string override_cancelled =
        vevent(uid, "SUMMARY:" + title +
                        "\r\nRECURRENCE-ID:20410402T170000Z\r\n"
                        "DTSTART:20410402T170000Z\r\nSTATUS:CANCELLED\r\n");
    return calendar(override_moved + master + override_cancelled);
  };
  const HttpResponse first = import_ical(file("", 5));
  REQUIRE_MESSAGE(first.status == 201, describe(first));
  const rapidjson::Document answer = first.json();
  const long long series_id = id_of_vevent(answer, 2);
  CHECK(flag_at(answer, {"events", "1", "created"}) == "true");
  CHECK(flag_at(answer, {"events", "2", "cancelled"}) == "true");
  CHECK(int_at(answer, {"events", "2", "id"}) == series_id);
  CHECK(find(get("/cal/events/v1/doc").json(),
             {"components", "schemas", "IcalImportEvent", "properties", "cancelled"}) != nullptr);
  const long long exception_id = id_of_vevent(answer, 1);
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  CHECK(occurrences(series_id) == Pairs{{"2041-03-05 18:00:00", title},
                                        {"2041-03-12 18:00:00", title},
                                        {"2041-03-19 19:30:00", moved},
                                        {"2041-03-26 18:00:00", title}});
  const rapidjson::Document exception = get(path_of(exception_id), {admin()}).json();
  CHECK(int_at(exception, {"series_id"}) == series_id);
  CHECK(flag_at(exception, {"is_exception"}) == "true");
  CHECK(string_at(exception, {"original_start_date"}) == "2041-03-19 19:00:00");
  CHECK(strings_at(get(path_of(series_id), {admin()}).json(), {"recurrence"}) ==
        std::vector<std::string>{"RRULE:FREQ=WEEKLY;COUNT=5", "EXDATE;TZID=Europe/Berlin:20410402T190000"});
  const auto ids_before = ids_by_original(series_id);

  // Again, renamed and one week longer: the same series and occurrences, one more.
  const HttpResponse second = import_ical(file(" renamed", 6));
  REQUIRE_MESSAGE(second.status == 200, describe(second));
  CHECK(id_of_vevent(second.json(), 2) == series_id);
  CHECK(id_of_vevent(second.json(), 1) == exception_id);
  CHECK(occurrences(series_id) == Pairs{{"2041-03-05 18:00:00", title + " renamed"},
                                        {"2041-03-12 18:00:00", title + " renamed"},
                                        {"2041-03-19 19:30:00", moved + " renamed"},
                                        {"2041-03-26 18:00:00", title + " renamed"},
                                        {"2041-04-09 17:00:00", title + " renamed"}});
  const auto ids_after = ids_by_original(series_id);
  REQUIRE(ids_after.size() == 5);
  for (const auto& kept : ids_before)
    CHECK(std::find(ids_after.begin(), ids_after.end(), kept) != ids_after.end());

  // Overrides alone, as an app sends one changed occurrence: the series the UID imported before.
  const HttpResponse alone = import_ical(
      calendar(vevent(uid, "SUMMARY:" + moved +
                               " again\r\nRECURRENCE-ID;TZID=Europe/Berlin:20410319T190000\r\n"
                               "DTSTART;TZID=Europe/Berlin:20410319T210000\r\n"
                               "DTEND;TZID=Europe/Berlin:20410319T220000\r\n") +
               vevent(uid, "SUMMARY:" + title +
                               "\r\nRECURRENCE-ID;TZID=Europe/Berlin:20410326T190000\r\n"
                               "DTSTART;TZID=Europe/Berlin:20410326T190000\r\nSTATUS:CANCELLED\r\n")));
  REQUIRE_MESSAGE(alone.status == 200, describe(alone));
  CHECK(id_of_vevent(alone.json(), 1) == exception_id);
  CHECK(occurrences(series_id) == Pairs{{"2041-03-05 18:00:00", title + " renamed"},
                                        {"2041-03-12 18:00:00", title + " renamed"},
                                        {"2041-03-19 20:00:00", moved + " again"},
                                        {"2041-04-09 17:00:00", title + " renamed"}});
  auto ids_left = ids_after;
  ids_left.erase(ids_left.begin() + 3);  // 26 March, cancelled
  CHECK(ids_by_original(series_id) == ids_left);
}

TEST_CASE("ical import recurring: refused rules and overrides are named per VEVENT and change nothing") {
  const std::string valid =
      vevent(unique("fine"), "SUMMARY:" + unique("Fine weekly") +
                                 "\r\nDTSTART:20410801T100000Z\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\n");
  struct Case {
    std::string vevent;
    std::string code, param, in_message;
  } const cases[] = {
      {vevent("byweekno", "SUMMARY:W\r\nDTSTART:20410801T100000Z\r\nRRULE:FREQ=YEARLY;BYWEEKNO=20\r\n"),
       "rest_invalid_param", "recurrence", "BYWEEKNO"},
      {vevent("hourly", "SUMMARY:H\r\nDTSTART:20410801T100000Z\r\nRRULE:FREQ=HOURLY\r\n"),
       "rest_invalid_param", "recurrence", "HOURLY"},
      {vevent("exrule",
              "SUMMARY:E\r\nDTSTART:20410801T100000Z\r\nRRULE:FREQ=DAILY;COUNT=3\r\n"
              "EXRULE:FREQ=WEEKLY\r\n"),
       "rest_invalid_param", "recurrence", "EXRULE"},
      {vevent("lonely", "SUMMARY:L\r\nDTSTART:20410801T100000Z\r\nRECURRENCE-ID:20410801T100000Z\r\n"),
       "rest_invalid_param", "RECURRENCE-ID", "lonely"},
      // The rule gives 10:00 UTC on 1, 8 and 15 August: neither 2 August nor 11:00 is one of them.
      {vevent("weekly", "SUMMARY:S\r\nDTSTART:20410801T100000Z\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\n") +
           vevent("weekly", "SUMMARY:O\r\nDTSTART:20410802T100000Z\r\nRECURRENCE-ID:20410802T100000Z\r\n"),
       "rest_invalid_param", "RECURRENCE-ID", "2041-08-02 10:00:00"},
      {vevent("weekly2", "SUMMARY:S\r\nDTSTART:20410801T100000Z\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\n") +
           vevent("weekly2",
                  "SUMMARY:C\r\nDTSTART:20410808T110000Z\r\nRECURRENCE-ID:20410808T110000Z\r\n"
                  "STATUS:CANCELLED\r\n"),
       "rest_invalid_param", "RECURRENCE-ID", "2041-08-08 11:00:00"},
      // Moved onto another occurrence's start.
      {vevent("weekly3", "SUMMARY:S\r\nDTSTART:20410801T100000Z\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\n") +
           vevent("weekly3", "SUMMARY:M\r\nDTSTART:20410815T100000Z\r\nRECURRENCE-ID:20410808T100000Z\r\n"),
       "rest_invalid_param", "start_date", "Another occurrence"},
  };
  const std::string before = import_fingerprint();
  for (const Case& c : cases) {
    INFO(c.vevent);
    const HttpResponse r = import_ical(calendar(valid + c.vevent));
    CHECK_MESSAGE(error_mismatch(r, 400, c.code).empty(), describe(r));
    const rapidjson::Document e = r.json();
    CHECK(find(e, {"data", "params", c.param}) != nullptr);
    CHECK(int_at(e, {"data", "vevent"}) >= 2);
    // The part refused is named where the JSON route names it: in data.params.
    const std::string said = string_at(e, {"message"}) + " " + string_at(e, {"data", "params", c.param});
    CHECK_MESSAGE(said.find(c.in_message) != std::string::npos, said);
  }
  CHECK(import_fingerprint() == before);
}

TEST_CASE("ical import recurring: this site's feed imported anew gives the occurrences it lists") {
  const HttpResponse category =
      post_json("/cal/events/v1/categories", "{\"name\":" + events::quoted(unique("Import round trip")) + "}",
                {admin()});
  REQUIRE(category.status == 201);
  const std::string in_category = "\"categories\":[" + std::to_string(id_of(category.json())) + "]";
  const std::string title = unique("Round trip class");
  const long long series_id = id_of(create(event_body(
      title, "2041-03-05 19:00", "2041-03-05 21:00",
      "\"timezone\":\"Europe/Berlin\"," + in_category +
          ",\"status\":\"publish\",\"recurrence\":[\"RRULE:FREQ=WEEKLY;COUNT=8\","
          "\"RDATE;TZID=Europe/Berlin:20410320T100000\",\"EXDATE;TZID=Europe/Berlin:20410312T190000\"]")));
  create(event_body(unique("Round trip one-off"), "2041-03-21 12:00", "2041-03-21 13:00",
                    "\"timezone\":\"America/New_York\"," + in_category + ",\"status\":\"publish\""));
  const std::string query = "start_date=2041-01-01&end_date=2041-12-31&per_page=50&categories=" +
                            std::to_string(id_of(category.json()));
  const std::vector<long long> ids = list_ids(query);
  REQUIRE(ids.size() == 9);
  // One occurrence moved and renamed, one cancelled, one edited alone and unpublished.
  REQUIRE(patch_json(path_of(ids[4]) + "?scope=this",
                     "{\"title\":\"" + title +
                         " (moved)\",\"start_date\":\"2041-03-26 20:30\",\"end_date\":\"2041-03-26 22:00\"}",
                     {admin()})
              .status == 200);
  REQUIRE(del(path_of(ids[6]), {admin()}).status == 200);
  REQUIRE(patch_json(path_of(ids[7]) + "?scope=this", R"({"status":"draft"})", {admin()}).status == 200);

  const HttpResponse list = get(std::string(kEvents) + "?" + query);
  REQUIRE(list.status == 200);
  std::vector<std::pair<std::string, std::string>> want;
  const rapidjson::Document list_doc = list.json();
  for (const auto& e : list_doc["events"].GetArray())
    want.emplace_back(e["utc_start_date"].GetString(), e["title"].GetString());
  std::sort(want.begin(), want.end());
  REQUIRE(want.size() == 7);

  HttpResponse feed = get(std::string(kEvents) + "?" + query + "&ical=1");
  REQUIRE_MESSAGE(feed.status == 200, describe(feed));
  // As another calendar would: UIDs of another host (so new events are made, not these updated), and
  // no categories (so the copies stay out of the source's category).
  std::string text;
  for (std::size_t at = 0; at < feed.body.size();) {
    std::size_t end = feed.body.find("\r\n", at);
    end = end == std::string::npos ? feed.body.size() : end + 2;
    std::string line = feed.body.substr(at, end - at);
    at = end;
    if (line.rfind("CATEGORIES", 0) == 0) continue;
    if (line.rfind("UID:", 0) == 0) line = line.substr(0, line.find('@')) + "@source.example\r\n";
    text += line;
  }
  const HttpResponse imported = import_ical(text);
  REQUIRE_MESSAGE(imported.status == 201, describe(imported) << "\n" << text);
  const rapidjson::Document answer = imported.json();
  std::vector<std::pair<std::string, std::string>> got;
  for (const auto& row : answer["events"].GetArray()) {
    const long long id = row["id"].GetInt64();
    CHECK(id != series_id);
    const rapidjson::Document record = get(path_of(id), {admin()}).json();
    if (flag_at(record, {"is_exception"}) == "true") continue;  // listed with its series
    if (find(record, {"recurrence"}) && !strings_at(record, {"recurrence"}).empty()) {
      const auto series = occurrences(id);
      got.insert(got.end(), series.begin(), series.end());
    } else {
      got.emplace_back(string_at(record, {"utc_start_date"}), string_at(record, {"title"}));
    }
  }
  std::sort(got.begin(), got.end());
  std::string both;
  for (const auto& [start, summary] : got) both += "imported: " + start + " " + summary + "\n";
  for (const auto& [start, summary] : want) both += "listed: " + start + " " + summary + "\n";
  INFO(both);
  CHECK(got == want);
}

}  // namespace
}  // namespace caltest
