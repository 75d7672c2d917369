// The pure part of the iCalendar import (cal/api/ical/ical_import.h): the line checks naming the
// line of a malformed calendar, the VEVENT cap, and the mapping of each VEVENT to the JSON body of
// POST /events (dates in every form, text, venue, categories, status, own UIDs).
#include "cal/api/ical/ical_import.h"

#include <doctest/doctest.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>

namespace {

using cal::IcalFailure;
using cal::IcalImport;

cal::IcalImportOptions options(std::size_t max = 500) { return {"Europe/Paris", "cal.example:8080", max}; }

// A calendar with the given lines inside one VEVENT (CRLF line ends).
std::string calendar_with(const std::string& vevent_lines, const std::string& extra = "",
                          const std::string& uid = "u1") {
  return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + extra + "BEGIN:VEVENT\r\nUID:" + uid +
         "\r\n" + vevent_lines + "END:VEVENT\r\nEND:VCALENDAR\r\n";
}

std::string json_of(const rapidjson::Value& v) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  v.Accept(w);
  return b.GetString();
}

// The one VEVENT's body as JSON text; "" (with a failed check) when the import failed.
std::string body_of(const std::string& text) {
  const IcalImport r = cal::parse_ical_import(text, options());
  REQUIRE_MESSAGE(r.failure == IcalFailure::kNone, r.problem.msgid);
  REQUIRE(r.events.size() == 1);
  REQUIRE_MESSAGE(!r.events[0].problem, r.events[0].problem->msgid);
  return json_of(r.events[0].body);
}

std::string member(const std::string& text, const char* name) {
  const IcalImport r = cal::parse_ical_import(text, options());
  REQUIRE(r.failure == IcalFailure::kNone);
  REQUIRE(r.events.size() == 1);
  const auto it = r.events[0].body.FindMember(name);
  if (it == r.events[0].body.MemberEnd()) return "<absent>";
  return it->value.IsString() ? std::string(it->value.GetString()) : json_of(it->value);
}

}  // namespace

TEST_CASE("ical import: a timed event in an IANA zone keeps its wall clock and zone") {
  CHECK(body_of(calendar_with("SUMMARY:Jazz\r\nDTSTART;TZID=America/New_York:20261205T200000\r\n"
                              "DTEND;TZID=America/New_York:20261205T230000\r\n")) ==
        R"({"title":"Jazz","timezone":"America/New_York","all_day":false,"start_date":"2026-12-05 20:00:00",)"
        R"("end_date":"2026-12-05 23:00:00"})");
}

TEST_CASE("ical import: UTC times are instants shown in the site zone; floating times are site-local") {
  CHECK(body_of(calendar_with("SUMMARY:U\r\nDTSTART:20261205T190000Z\r\nDTEND:20261205T220000Z\r\n")) ==
        R"({"title":"U","timezone":"Europe/Paris","all_day":false,"start_date":"2026-12-05T19:00:00Z",)"
        R"("end_date":"2026-12-05T22:00:00Z"})");
  CHECK(member(calendar_with("SUMMARY:F\r\nDTSTART:20261205T190000\r\nDTEND:20261205T220000\r\n"),
               "start_date") == "2026-12-05 19:00:00");
  CHECK(member(calendar_with("SUMMARY:F\r\nDTSTART:20261205T190000\r\n"), "timezone") == "Europe/Paris");
  // No DTEND and no DURATION: the event ends when it starts (RFC 5545 §3.6.1).
  CHECK(member(calendar_with("SUMMARY:F\r\nDTSTART:20261205T190000\r\n"), "end_date") ==
        "2026-12-05 19:00:00");
}

TEST_CASE("ical import: an end in another zone than the start is sent as its instant") {
  CHECK(member(calendar_with("SUMMARY:Flight\r\nDTSTART;TZID=Europe/Berlin:20260705T100000\r\n"
                             "DTEND;TZID=America/New_York:20260705T130000\r\n"),
               "end_date") == "2026-07-05T17:00:00Z");
}

TEST_CASE("ical import: all-day events have an exclusive DTEND, multi-day ones too") {
  const std::string one =
      calendar_with("SUMMARY:Day\r\nDTSTART;VALUE=DATE:20261224\r\nDTEND;VALUE=DATE:20261225\r\n");
  CHECK(member(one, "all_day") == "true");
  CHECK(member(one, "start_date") == "2026-12-24");
  CHECK(member(one, "end_date") == "2026-12-24");
  CHECK(member(calendar_with("SUMMARY:Days\r\nDTSTART;VALUE=DATE:20261230\r\nDTEND;VALUE=DATE:20270102\r\n"),
               "end_date") == "2027-01-01");
  CHECK(member(calendar_with("SUMMARY:Days\r\nDTSTART;VALUE=DATE:20280228\r\nDURATION:P2D\r\n"),
               "end_date") == "2028-02-29");
  CHECK(member(calendar_with("SUMMARY:Day\r\nDTSTART;VALUE=DATE:20261224\r\n"), "end_date") == "2026-12-24");
}

TEST_CASE("ical import: DURATION counts days on the wall clock and hours as elapsed time") {
  CHECK(
      member(calendar_with("SUMMARY:D\r\nDTSTART;TZID=Europe/Berlin:20261205T200000\r\nDURATION:PT2H30M\r\n"),
             "end_date") == "2026-12-05T21:30:00Z");
  CHECK(member(calendar_with("SUMMARY:D\r\nDTSTART;TZID=Europe/Berlin:20261024T200000\r\nDURATION:P1D\r\n"),
               "end_date") == "2026-10-25 20:00:00");
}

TEST_CASE("ical import: a TZID defined only by a VTIMEZONE is converted with its rules") {
  const std::string vtimezone =
      "BEGIN:VTIMEZONE\r\nTZID:W. Europe Standard Time\r\nBEGIN:STANDARD\r\nDTSTART:16010101T030000\r\n"
      "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\nEND:STANDARD\r\n"
      "BEGIN:DAYLIGHT\r\nDTSTART:16010101T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"
      "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n";
  const std::string text = calendar_with(
      "SUMMARY:Outlook\r\nDTSTART;TZID=W. Europe Standard Time:20260705T200000\r\n"
      "DTEND;TZID=W. Europe Standard Time:20261205T200000\r\n",
      vtimezone);
  CHECK(member(text, "start_date") == "2026-07-05T18:00:00Z");  // summer: +02:00
  CHECK(member(text, "end_date") == "2026-12-05T19:00:00Z");    // winter: +01:00
  CHECK(member(text, "timezone") == "Europe/Paris");
  // Rules libical would expand without end (every second, every day) are not applied: unknown TZID.
  std::string runaway = vtimezone;
  runaway.replace(runaway.find("RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10"),
                  std::string("RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10").size(), "RRULE:FREQ=SECONDLY");
  const IcalImport refused = cal::parse_ical_import(
      calendar_with("SUMMARY:O\r\nDTSTART;TZID=W. Europe Standard Time:99990705T200000\r\n", runaway),
      options());
  REQUIRE(refused.events.size() == 1);
  REQUIRE(refused.events[0].problem);
  CHECK(refused.events[0].problem->field == "DTSTART");
  // A vendor prefix before an IANA id is understood.
  CHECK(member(calendar_with(
                   "SUMMARY:M\r\nDTSTART;TZID=/mozilla.org/20050126_1/Europe/Berlin:20260705T200000\r\n"),
               "timezone") == "Europe/Berlin");
}

TEST_CASE("ical import: an unknown TZID and a missing DTSTART are refused per VEVENT") {
  const IcalImport unknown = cal::parse_ical_import(
      calendar_with("SUMMARY:X\r\nDTSTART;TZID=Mars/Olympus:20260705T200000\r\n"), options());
  REQUIRE(unknown.failure == IcalFailure::kNone);
  REQUIRE(unknown.events[0].problem);
  CHECK(unknown.events[0].problem->field == "DTSTART");
  CHECK(unknown.events[0].problem->args == std::vector<std::string>{"Mars/Olympus"});
  const IcalImport no_start = cal::parse_ical_import(calendar_with("SUMMARY:X\r\n"), options());
  REQUIRE(no_start.events[0].problem);
  CHECK(no_start.events[0].problem->field == "DTSTART");
}

TEST_CASE("ical import: RRULE and EXRULE as written, RDATE and EXDATE one value a line, zones resolved") {
  // Outlook's zone name, defined only by the calendar's VTIMEZONE (Berlin's rules).
  const std::string windows_zone =
      "BEGIN:VTIMEZONE\r\nTZID:W. Europe Standard Time\r\nBEGIN:STANDARD\r\nDTSTART:16010101T030000\r\n"
      "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\nEND:STANDARD\r\n"
      "BEGIN:DAYLIGHT\r\nDTSTART:16010101T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"
      "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n";
  struct Case {
    std::string lines;
    std::vector<std::string> recurrence;
  } const cases[] = {
      {"rrule:freq=weekly;byday=tu;until=20270629T190000\r\n",
       {"rrule:freq=weekly;byday=tu;until=20270629T190000"}},
      {"RRULE:FREQ=YEARLY;BYWEEKNO=20\r\nEXRULE:FREQ=MONTHLY\r\n",
       {"RRULE:FREQ=YEARLY;BYWEEKNO=20", "EXRULE:FREQ=MONTHLY"}},
      {"RDATE;TZID=/mozilla.org/20050126_1/Europe/Berlin:20270401T100000,20270402T100000\r\n",
       {"RDATE;TZID=Europe/Berlin:20270401T100000", "RDATE;TZID=Europe/Berlin:20270402T100000"}},
      {"RDATE;VALUE=PERIOD:20270401T100000Z/PT2H,20270402T100000Z/20270402T113000Z\r\n",
       {"RDATE;VALUE=PERIOD:20270401T100000Z/PT2H", "RDATE;VALUE=PERIOD:20270402T100000Z/20270402T113000Z"}},
      {"RDATE;VALUE=DATE:20270405\r\nEXDATE:20270309T190000\r\n",
       {"RDATE;VALUE=DATE:20270405", "EXDATE:20270309T190000"}},
      {"EXDATE;TZID=W. Europe Standard Time:20270309T190000,20270713T190000\r\n",
       {"EXDATE:20270309T180000Z", "EXDATE:20270713T170000Z"}},
  };
  for (const Case& c : cases) {
    INFO(c.lines);
    const IcalImport r = cal::parse_ical_import(
        calendar_with("SUMMARY:X\r\nDTSTART;TZID=Europe/Berlin:20270302T190000\r\n" + c.lines, windows_zone),
        options());
    REQUIRE(r.failure == IcalFailure::kNone);
    REQUIRE_MESSAGE(!r.events[0].problem, r.events[0].problem->msgid);
    CHECK(r.events[0].recurrence == c.recurrence);
    CHECK_FALSE(r.events[0].recurrence_id);
  }
  // An RDATE in a zone nobody defines names the property.
  const IcalImport unknown = cal::parse_ical_import(
      calendar_with("SUMMARY:X\r\nDTSTART:20270302T190000Z\r\nRDATE;TZID=Mars/Olympus:20270401T100000\r\n"),
      options());
  REQUIRE(unknown.events[0].problem);
  CHECK(unknown.events[0].problem->field == "RDATE");
}

TEST_CASE("ical import: RECURRENCE-ID names the occurrence an override replaces") {
  struct Case {
    std::string line;
    std::string wall, zone;
    bool is_utc, is_date;
    std::string exdate;
  } const cases[] = {
      {"RECURRENCE-ID;TZID=Europe/Berlin:20270309T190000", "2027-03-09 19:00:00", "Europe/Berlin", false,
       false, "EXDATE;TZID=Europe/Berlin:20270309T190000"},
      {"RECURRENCE-ID:20270309T180000Z", "2027-03-09 18:00:00", "", true, false, "EXDATE:20270309T180000Z"},
      {"RECURRENCE-ID:20270309T190000", "2027-03-09 19:00:00", "", false, false, "EXDATE:20270309T190000"},
      {"RECURRENCE-ID;VALUE=DATE:20270309", "2027-03-09 00:00:00", "", false, true,
       "EXDATE;VALUE=DATE:20270309"},
  };
  for (const Case& c : cases) {
    INFO(c.line);
    const IcalImport r = cal::parse_ical_import(
        calendar_with("SUMMARY:X\r\nSTATUS:CANCELLED\r\nDTSTART:20270309T200000Z\r\n" + c.line + "\r\n"),
        options());
    REQUIRE(r.failure == IcalFailure::kNone);
    REQUIRE_MESSAGE(!r.events[0].problem, r.events[0].problem->msgid);
    REQUIRE(r.events[0].recurrence_id);
    const cal::IcalOriginalStart& o = *r.events[0].recurrence_id;
    CHECK(o.wall == c.wall);
    CHECK(o.zone == c.zone);
    CHECK(o.is_utc == c.is_utc);
    CHECK(o.is_date == c.is_date);
    CHECK(o.exdate == c.exdate);
    CHECK(r.events[0].cancelled);
    CHECK(r.events[0].recurrence.empty());
  }
  // An override has no recurrence of its own and no RANGE; it needs its series' UID.
  for (const std::string& lines :
       {std::string("RECURRENCE-ID:20270309T180000Z\r\nRRULE:FREQ=DAILY\r\n"),
        std::string("RECURRENCE-ID:20270309T180000Z\r\nEXDATE:20270310T180000Z\r\n"),
        std::string("RECURRENCE-ID;RANGE=THISANDFUTURE:20270309T180000Z\r\n")}) {
    INFO(lines);
    const IcalImport r =
        cal::parse_ical_import(calendar_with("SUMMARY:X\r\nDTSTART:20270309T200000Z\r\n" + lines), options());
    REQUIRE(r.events[0].problem);
    CHECK(r.events[0].problem->field == "RECURRENCE-ID");
  }
  const IcalImport no_uid = cal::parse_ical_import(
      "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:X\r\nDTSTART:20270309T200000Z\r\n"
      "RECURRENCE-ID:20270309T180000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
      options());
  REQUIRE(no_uid.events[0].problem);
  CHECK(no_uid.events[0].problem->field == "UID");
  // libical reads any digits; a date that does not exist (a 51st month, a 30 February) is named.
  for (const std::string& line : {std::string("RECURRENCE-ID:10135158T180000Z"),
                                  std::string("RECURRENCE-ID;TZID=Europe/Berlin:20270230T190000"),
                                  std::string("EXDATE:20271332T190000Z")}) {
    INFO(line);
    const IcalImport r = cal::parse_ical_import(
        calendar_with("SUMMARY:X\r\nDTSTART:20270309T200000Z\r\n" + line + "\r\n"), options());
    REQUIRE(r.events[0].problem);
    CHECK(r.events[0].problem->msgid == "%s is not a valid date.");
    CHECK(r.events[0].problem->field == line.substr(0, line.find_first_of(";:")));
    CHECK_FALSE(r.events[0].recurrence_id);
  }
}

TEST_CASE("ical import: text is unescaped and unfolded; the HTML description wins over the plain one") {
  const std::string text = calendar_with(
      "SUMMARY:Caf\xC3\xA9\\, bar\\; and \\\\ more\r\n"
      "DESCRIPTION:line one\\nline <two> & \r\n three\r\n"
      "DTSTART:20261205T190000Z\r\n");
  CHECK(member(text, "title") == "Caf\xC3\xA9, bar; and \\ more");
  CHECK(member(text, "description") == "line one<br>\nline &lt;two&gt; &amp; three");
  CHECK(member(calendar_with("SUMMARY:H\r\nDESCRIPTION:plain\r\nX-ALT-DESC;FMTTYPE=text/html:<p>rich</p>\r\n"
                             "DTSTART:20261205T190000Z\r\n"),
               "description") == "<p>rich</p>");
  // LF line ends and a folded line with a tab work too.
  CHECK(member("BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Long\n\ttitle\nDTSTART:20261205T190000Z\nEND:"
               "VEVENT\nEND:VCALENDAR\n",
               "title") == "Longtitle");
}

TEST_CASE("ical import: LOCATION, CATEGORIES, URL and STATUS") {
  const std::string text = calendar_with(
      "SUMMARY:S\r\nDTSTART:20261205T190000Z\r\nLOCATION:Blue Note\\, Hall\r\nCATEGORIES:Jazz,Live\\, "
      "loud\r\n"
      "CATEGORIES:Music\r\nURL:https://example.org/e\r\nSTATUS:CANCELLED\r\n");
  CHECK(member(text, "venue") == R"({"venue":"Blue Note, Hall"})");
  CHECK(member(text, "categories") == R"(["Jazz","Live, loud","Music"])");
  CHECK(member(text, "website") == "https://example.org/e");
  CHECK(member(text, "status") == "draft");
  const std::string plain = calendar_with("SUMMARY:S\r\nDTSTART:20261205T190000Z\r\nSTATUS:CONFIRMED\r\n");
  for (const char* absent : {"status", "venue", "categories", "website", "description"})
    CHECK(member(plain, absent) == "<absent>");
}

TEST_CASE("ical import: UIDs of this site's own feed name the event") {
  auto own = [](const std::string& uid) {
    const IcalImport r = cal::parse_ical_import(
        calendar_with("SUMMARY:S\r\nDTSTART:20261205T190000Z\r\n", "", uid), options());
    REQUIRE(r.events.size() == 1);
    CHECK(r.events[0].uid == uid);
    return r.events[0].own_id;
  };
  CHECK(own("42@cal.example:8080") == 42);
  CHECK(own("42@CAL.example") == 42);
  CHECK(own("42@other.example") == std::nullopt);
  CHECK(own("x42@cal.example") == std::nullopt);
  CHECK(own("u1") == std::nullopt);
}

TEST_CASE("ical import: malformed calendars name their line") {
  struct Case {
    std::string text;
    int line;
  };
  const std::vector<Case> cases = {
      {"", 1},
      {"garbage\r\n", 1},
      {"BEGIN:VEVENT\r\nEND:VEVENT\r\n", 1},
      {"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY no colon\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", 3},
      {"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:not-a-date\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", 3},
      {"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:a\r\n\r\nDTEND;TZID=\"x:20261205T190000Z\r\nEND:"
       "VEVENT\r\nEND:VCALENDAR\r\n",
       5},
      {"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", 3},
      {"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:a\r\nEND:VEVENT\r\n", 4},
      {"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:a\x01\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", 3},
      {"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:caf\xC3\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", 3},
      {" folded first\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", 1},
      {"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VEVENT\r\nEND:VCALENDAR\r\nBEGIN:VCALENDAR\r\n", 5},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const IcalImport r = cal::parse_ical_import(c.text, options());
    CHECK(r.failure == IcalFailure::kMalformed);
    CHECK(r.problem.line == c.line);
    CHECK(r.events.empty());
  }
}

TEST_CASE("ical import: a calendar without VEVENT, or with more than the cap, is refused") {
  CHECK(cal::parse_ical_import("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n", options()).failure ==
        IcalFailure::kNoEvents);
  std::string two = "BEGIN:VCALENDAR\r\n";
  for (int i = 0; i < 3; ++i)
    two += "BEGIN:VEVENT\r\nSUMMARY:a\r\nDTSTART:20261205T190000Z\r\nEND:VEVENT\r\n";
  two += "END:VCALENDAR\r\n";
  CHECK(cal::parse_ical_import(two, options(3)).events.size() == 3);
  const IcalImport over = cal::parse_ical_import(two, options(2));
  CHECK(over.failure == IcalFailure::kTooManyEvents);
  CHECK(over.problem.args == std::vector<std::string>{"2"});
}

TEST_CASE("ical import: unknown properties and other components are ignored; VEVENTs keep their order") {
  const IcalImport r = cal::parse_ical_import(
      "\xEF\xBB\xBF"
      "BEGIN:VCALENDAR\r\nFOO:bar\r\nBEGIN:VTODO\r\nSUMMARY:todo\r\nEND:VTODO\r\n"
      "BEGIN:VEVENT\r\nSUMMARY:first\r\nDTSTART:20261205T190000Z\r\nX-CUSTOM;A=\"b;c\":d\r\nEND:VEVENT\r\n"
      "BEGIN:VEVENT\r\nSUMMARY:second\r\nDTSTART:20261206T190000Z\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\n"
      "TRIGGER:-PT15M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
      options());
  REQUIRE(r.failure == IcalFailure::kNone);
  REQUIRE(r.events.size() == 2);
  CHECK(r.events[0].index == 1);
  CHECK(r.events[0].line == 6);
  CHECK(std::string(r.events[0].body["title"].GetString()) == "first");
  CHECK(r.events[1].index == 2);
  CHECK(r.events[1].line == 11);
  CHECK(std::string(r.events[1].body["title"].GetString()) == "second");
}
