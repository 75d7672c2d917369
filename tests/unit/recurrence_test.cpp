// Unit tests for cal/core/dates/recurrence.h, the text side: what parse_recurrence refuses (and
// the part it names), the normal form format_recurrence writes, and that parsing the normal form
// gives it back.
#include "cal/core/dates/recurrence.h"

#include "recurrence_support.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using caltest_recurrence::all_day;
using caltest_recurrence::error_text;
using caltest_recurrence::parse_ok;
using caltest_recurrence::timed;

namespace {

struct RefusalCase {
  std::vector<std::string> lines;
  std::string part;     // the part the refusal names
  std::string message;  // its msgid
};

constexpr const char* kNotSupported = "The recurrence part %s is not supported.";
constexpr const char* kInvalid = "The recurrence part %s has an invalid value.";
constexpr const char* kRepeated = "The recurrence part %s is given more than once.";
constexpr const char* kCombined = "The recurrence parts %1$s and %2$s cannot be combined.";
constexpr const char* kRequires = "The recurrence part %1$s requires %2$s.";
constexpr const char* kRequiresOne = "The recurrence part %1$s requires one of %2$s.";
constexpr const char* kWrongType = "The recurrence part %1$s must be a %2$s value for this event.";
constexpr const char* kExceeds = "The recurrence part %1$s may not exceed %2$s.";
constexpr const char* kTooMany = "The recurrence part %1$s may have at most %2$s values.";
constexpr const char* kTooLong = "The recurrence part %1$s may have at most %2$s characters.";
constexpr const char* kNotProduced = "The recurrence rule does not produce the event's start.";
constexpr const char* kEndsBefore = "The recurrence part %s ends before the event's start.";

}  // namespace

TEST_CASE("parse_recurrence refuses what the service does not expand, naming the part") {
  // A Tuesday 09:00 in New York, as in RFC 5545's examples.
  static const RefusalCase kCases[] = {
      // Frequencies and parts outside the subset.
      {{"RRULE:FREQ=HOURLY;INTERVAL=3"}, "FREQ=HOURLY", kNotSupported},
      {{"RRULE:FREQ=MINUTELY"}, "FREQ=MINUTELY", kNotSupported},
      {{"RRULE:FREQ=secondly"}, "FREQ=SECONDLY", kNotSupported},
      {{"RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO"}, "BYWEEKNO", kNotSupported},
      {{"RRULE:FREQ=YEARLY;BYYEARDAY=1,100,200"}, "BYYEARDAY", kNotSupported},
      {{"RRULE:FREQ=DAILY;BYHOUR=9,10"}, "BYHOUR", kNotSupported},
      {{"RRULE:FREQ=DAILY;BYMINUTE=0,20"}, "BYMINUTE", kNotSupported},
      {{"RRULE:FREQ=DAILY;BYSECOND=0"}, "BYSECOND", kNotSupported},
      {{"RRULE:FREQ=DAILY;RSCALE=GREGORIAN"}, "RSCALE", kNotSupported},
      {{"RRULE:FREQ=DAILY;x-name=1"}, "X-NAME", kNotSupported},
      {{"RRULE;X-P=1:FREQ=DAILY"}, "RRULE;X-P", kNotSupported},
      {{"DTSTART;TZID=America/New_York:19970902T090000"}, "DTSTART", kNotSupported},
      {{"EXRULE:FREQ=WEEKLY"}, "EXRULE", kNotSupported},
      {{"RECURRENCE-ID:19970902T090000Z"}, "RECURRENCE-ID", kNotSupported},
      {{"RDATE;RANGE=THISANDFUTURE:19970903T090000Z"}, "RDATE;RANGE", kNotSupported},
      // RFC 5545 forbids these combinations, or leaves them to diverging readings.
      {{"RRULE:FREQ=DAILY;COUNT=3;UNTIL=19971224T000000Z"}, "COUNT", kCombined},
      {{"RRULE:FREQ=WEEKLY;BYDAY=1TU"}, "FREQ=WEEKLY", kCombined},
      {{"RRULE:FREQ=DAILY;BYDAY=-1TU"}, "FREQ=DAILY", kCombined},
      {{"RRULE:FREQ=WEEKLY;BYMONTHDAY=2"}, "FREQ=WEEKLY", kCombined},
      {{"RRULE:FREQ=YEARLY;BYMONTHDAY=2"}, "BYMONTHDAY", kRequires},
      {{"RRULE:COUNT=3"}, "RRULE", kRequires},
      {{"RRULE:FREQ=MONTHLY;BYSETPOS=1"}, "BYSETPOS", kRequiresOne},
      // Malformed values.
      {{"RRULE:FREQ=FORTNIGHTLY"}, "FREQ", kInvalid},
      {{"RRULE:FREQ="}, "FREQ", kInvalid},
      {{"RRULE:FREQ=DAILY;INTERVAL=0"}, "INTERVAL", kInvalid},
      {{"RRULE:FREQ=DAILY;INTERVAL=-2"}, "INTERVAL", kInvalid},
      {{"RRULE:FREQ=DAILY;COUNT=two"}, "COUNT", kInvalid},
      {{"RRULE:FREQ=DAILY;UNTIL=1997"}, "UNTIL", kInvalid},
      {{"RRULE:FREQ=DAILY;UNTIL=19970230T000000Z"}, "UNTIL", kInvalid},
      {{"RRULE:FREQ=DAILY;WKST=XX"}, "WKST", kInvalid},
      {{"RRULE:FREQ=MONTHLY;BYDAY=6TU"}, "BYDAY", kInvalid},
      {{"RRULE:FREQ=YEARLY;BYDAY=54TU"}, "BYDAY", kInvalid},
      {{"RRULE:FREQ=YEARLY;BYMONTH=9;BYDAY=6TU"}, "BYDAY", kInvalid},
      {{"RRULE:FREQ=MONTHLY;BYDAY=0TU"}, "BYDAY", kInvalid},
      {{"RRULE:FREQ=MONTHLY;BYDAY=TU,"}, "BYDAY", kInvalid},
      {{"RRULE:FREQ=MONTHLY;BYMONTHDAY=32"}, "BYMONTHDAY", kInvalid},
      {{"RRULE:FREQ=MONTHLY;BYMONTHDAY=0"}, "BYMONTHDAY", kInvalid},
      {{"RRULE:FREQ=YEARLY;BYMONTH=-9"}, "BYMONTH", kInvalid},
      {{"RRULE:FREQ=YEARLY;BYMONTH=13"}, "BYMONTH", kInvalid},
      {{"RRULE:FREQ=MONTHLY;BYDAY=TU;BYSETPOS=367"}, "BYSETPOS", kInvalid},
      {{"RRULE:FREQ=DAILY;COUNT"}, "COUNT", kInvalid},
      {{"FREQ=DAILY"}, "FREQ=DAILY", kInvalid},
      {{""}, "RECURRENCE", kInvalid},
      {{";VALUE=PERIOD:19970903T090000Z/PT1H"}, "RECURRENCE", kInvalid},
      {{":FREQ=DAILY"}, "RECURRENCE", kInvalid},
      {{"RDATE:1997"}, "RDATE", kInvalid},
      {{"RDATE:19970903T090000Z,"}, "RDATE", kInvalid},
      {{"RDATE;TZID=Mars/Olympus_Mons:19970903T090000"}, "RDATE;TZID", kInvalid},
      {{"RDATE;TZID=Europe/Berlin:19970903T090000Z"}, "RDATE", kInvalid},
      {{"RDATE;VALUE=DATE:19970903T090000"}, "RDATE", kInvalid},
      {{"RDATE;TZID=Europe/Berlin;VALUE=DATE:19970903"}, "RDATE;TZID", kInvalid},
      {{"RDATE;VALUE=TEXT:19970903"}, "RDATE;VALUE", kInvalid},
      {{"EXDATE;VALUE=PERIOD:19970903T090000Z/PT1H"}, "EXDATE;VALUE", kInvalid},
      {{"RDATE;VALUE=PERIOD:19970903T090000Z/19970903T080000Z"}, "RDATE", kInvalid},
      {{"RDATE;VALUE=PERIOD:19970903T090000Z/19970903T100000"}, "RDATE", kInvalid},
      {{"RDATE;VALUE=PERIOD:19970903T090000Z/-PT1H"}, "RDATE", kInvalid},
      {{"RDATE;VALUE=PERIOD:19970903T090000Z/PT1H30"}, "RDATE", kInvalid},
      {{"RDATE;VALUE=PERIOD:19970903T090000Z"}, "RDATE", kInvalid},
      {{"RDATE;VALUE=PERIOD:19970903T090000Z/P3660001D"}, "RDATE", kInvalid},
      {{"RDATE;VALUE=PERIOD:19970903T090000Z/P999999999999W"}, "RDATE", kInvalid},
      {{"RDATE;VALUE=PERIOD:19970903T090000Z/P" + std::string(40, '6') + "D"}, "RDATE", kInvalid},
      {{"RDATE;TZID=\"Europe/Berlin:19970903T090000"}, "RDATE", kInvalid},
      // Repeats.
      {{"RRULE:FREQ=DAILY", "RRULE:FREQ=WEEKLY"}, "RRULE", kRepeated},
      {{"RRULE:FREQ=DAILY;freq=WEEKLY"}, "FREQ", kRepeated},
      {{"RDATE;TZID=UTC;TZID=UTC:19970903T090000"}, "RDATE;TZID", kRepeated},
      // The rule against the event's start (Tuesday 1997-09-02 09:00 EDT).
      {{"RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13"}, "RRULE", kNotProduced},
      {{"RRULE:FREQ=WEEKLY;BYDAY=MO,WE"}, "RRULE", kNotProduced},
      {{"RRULE:FREQ=YEARLY;BYMONTH=1"}, "RRULE", kNotProduced},
      {{"RRULE:FREQ=MONTHLY;BYDAY=TU;BYSETPOS=2"}, "RRULE", kNotProduced},
      {{"RRULE:FREQ=DAILY;UNTIL=19970902T125959Z"}, "UNTIL", kEndsBefore},
      {{"RRULE:FREQ=DAILY;UNTIL=19970902T085959"}, "UNTIL", kEndsBefore},
      {{"RRULE:FREQ=DAILY;UNTIL=19971224"}, "UNTIL", kWrongType},
      // Limits.
      {{"RRULE:FREQ=DAILY;INTERVAL=1001"}, "INTERVAL", kExceeds},
      {{"RRULE:FREQ=DAILY;COUNT=3651"}, "COUNT", kExceeds},
      {{"RRULE:FREQ=DAILY;BYMONTH=" + std::string(1100, '1')}, "RRULE", kTooLong},
  };
  const cal::FirstOccurrence first = timed("America/New_York", "19970902T090000");
  for (const RefusalCase& c : kCases) {
    CAPTURE(c.lines.front());
    const auto parsed = cal::parse_recurrence(c.lines, first);
    const auto* error = std::get_if<cal::RecurrenceError>(&parsed);
    REQUIRE(error != nullptr);
    CHECK_MESSAGE(error->part == c.part, error_text(*error));
    CHECK_MESSAGE(error->message == c.message, error_text(*error));
  }
}

TEST_CASE("parse_recurrence: refusals that depend on the event or the limits") {
  SUBCASE("an all-day event takes DATE values only") {
    const cal::FirstOccurrence first = all_day("Europe/Berlin", "20250105");
    const std::vector<std::vector<std::string>> kLines = {{"RRULE:FREQ=DAILY;UNTIL=20250110T000000Z"},
                                                          {"RDATE:20250107T100000Z"},
                                                          {"EXDATE;TZID=Europe/Berlin:20250107T000000"},
                                                          {"RDATE;VALUE=PERIOD:20250107T100000Z/PT1H"}};
    for (const auto& lines : kLines) {
      CAPTURE(lines.front());
      const auto parsed = cal::parse_recurrence(lines, first);
      const auto* error = std::get_if<cal::RecurrenceError>(&parsed);
      REQUIRE(error != nullptr);
      CHECK(error->message == kWrongType);
      CHECK(error->args.at(1) == "DATE");
    }
    CHECK(std::holds_alternative<cal::RecurrenceSet>(
        cal::parse_recurrence({"RRULE:FREQ=DAILY;UNTIL=20250110", "EXDATE;VALUE=DATE:20250107"}, first)));
    const auto early = cal::parse_recurrence({"RRULE:FREQ=DAILY;UNTIL=20250104"}, first);
    REQUIRE(std::holds_alternative<cal::RecurrenceError>(early));
    CHECK(std::get<cal::RecurrenceError>(early).message == kEndsBefore);
  }
  SUBCASE("value counts and lengths against the limits") {
    const cal::FirstOccurrence first = timed("UTC", "20250101T100000");
    cal::RecurrenceLimits limits;
    limits.max_rdates = 2;
    limits.max_exdates = 1;
    limits.max_instances = 5;
    limits.max_interval = 3;
    const auto rdates = cal::parse_recurrence(
        {"RDATE:20250102T100000Z", "RDATE:20250103T100000Z,20250104T100000Z"}, first, limits);
    REQUIRE(std::holds_alternative<cal::RecurrenceError>(rdates));
    CHECK(std::get<cal::RecurrenceError>(rdates).part == "RDATE");
    CHECK(std::get<cal::RecurrenceError>(rdates).message == kTooMany);
    CHECK(std::get<cal::RecurrenceError>(rdates).args == std::vector<std::string>{"RDATE", "2"});
    const auto exdates = cal::parse_recurrence({"EXDATE:20250102T100000Z,20250103T100000Z"}, first, limits);
    REQUIRE(std::holds_alternative<cal::RecurrenceError>(exdates));
    CHECK(std::get<cal::RecurrenceError>(exdates).part == "EXDATE");
    const auto count = cal::parse_recurrence({"RRULE:FREQ=DAILY;COUNT=6"}, first, limits);
    REQUIRE(std::holds_alternative<cal::RecurrenceError>(count));
    CHECK(std::get<cal::RecurrenceError>(count).args == std::vector<std::string>{"COUNT", "5"});
    const auto interval = cal::parse_recurrence({"RRULE:FREQ=DAILY;INTERVAL=4"}, first, limits);
    REQUIRE(std::holds_alternative<cal::RecurrenceError>(interval));
    CHECK(std::get<cal::RecurrenceError>(interval).args == std::vector<std::string>{"INTERVAL", "3"});
    parse_ok({"RRULE:FREQ=DAILY;COUNT=5;INTERVAL=3", "RDATE:20250102T100000Z,20250103T100000Z",
              "EXDATE:20250104T100000Z"},
             first, limits);
  }
}

TEST_CASE("parse_recurrence accepts no lines (a one-off event) and any letter case") {
  const cal::FirstOccurrence first = timed("Europe/Berlin", "20250107T190000");
  const cal::RecurrenceSet none = parse_ok({}, first);
  CHECK_FALSE(none.rule.has_value());
  CHECK_FALSE(none.is_infinite());
  CHECK(cal::format_recurrence(none).empty());
  const cal::RecurrenceSet lower =
      parse_ok({"rrule:freq=weekly;byday=tu;wkst=su", " exdate;tzid=Europe/Berlin:20250114t190000 "}, first);
  REQUIRE(lower.rule.has_value());
  CHECK(lower.is_infinite());
  CHECK(cal::format_recurrence(lower) ==
        std::vector<std::string>{"RRULE:FREQ=WEEKLY;BYDAY=TU;WKST=SU",
                                 "EXDATE;TZID=Europe/Berlin:20250114T190000"});
}

namespace {

struct NormalCase {
  const char* zone;
  const char* start;
  std::vector<std::string> lines;
  std::vector<std::string> normal;
};

}  // namespace

TEST_CASE("format_recurrence writes the normal form, which parses back to itself") {
  static const NormalCase kCases[] = {
      // Parts in a fixed order; INTERVAL=1 and WKST=MO dropped; lists sorted and deduplicated;
      // a floating UNTIL read in the event's zone and written in UTC.
      {"Europe/Berlin",
       "20250107T190000",
       {"RRULE:BYDAY=TH,TU,TU;FREQ=WEEKLY;INTERVAL=1;WKST=MO;UNTIL=20250630T190000"},
       {"RRULE:FREQ=WEEKLY;UNTIL=20250630T170000Z;BYDAY=TU,TH"}},
      {"America/New_York",
       "19970902T090000",
       {"RRULE:FREQ=MONTHLY;BYSETPOS=-2,3,3;BYDAY=WE,-1SU,TU,+1SU;BYMONTH=12,9;BYMONTHDAY=-1,2,1;INTERVAL=2;"
        "COUNT=4"},
       {"RRULE:FREQ=MONTHLY;INTERVAL=2;COUNT=4;BYMONTH=9,12;BYMONTHDAY=-1,1,2;BYDAY=TU,WE,-1SU,1SU;BYSETPOS=-"
        "2,3"}},
      {"America/New_York",
       "19970902T090000",
       {"RRULE:FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=9;WKST=SU"},
       {"RRULE:FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=9;WKST=SU"}},
      // Dates: sorted by instant, deduplicated; UTC and other zones as the event zone's wall
      // clock; DATE values kept as dates.
      {"Europe/Berlin",
       "20250107T190000",
       {"RDATE;TZID=Europe/Berlin:20250301T100000,20250201T100000", "RDATE:20250201T090000Z,20250215T120000Z",
        "RDATE;TZID=America/New_York:20250210T040000", "RDATE;VALUE=DATE:20250310,20250305"},
       {"RDATE;TZID=Europe/Berlin:20250201T100000,20250210T100000,20250215T130000,20250301T100000",
        "RDATE;VALUE=DATE:20250305,20250310"}},
      // The second 01:30 of New York's fall back has no wall clock of its own: it stays in UTC.
      {"America/New_York",
       "20251101T013000",
       {"RRULE:FREQ=DAILY;COUNT=3", "RDATE:20251102T063000Z", "EXDATE:20251102T053000Z"},
       {"RRULE:FREQ=DAILY;COUNT=3", "RDATE:20251102T063000Z",
        "EXDATE;TZID=America/New_York:20251102T013000"}},
      // A wall clock in a DST gap is kept as written: it is the occurrence's identity.
      {"America/New_York",
       "20250302T023000",
       {"RRULE:FREQ=WEEKLY;COUNT=3", "EXDATE;TZID=America/New_York:20250309T023000"},
       {"RRULE:FREQ=WEEKLY;COUNT=3", "EXDATE;TZID=America/New_York:20250309T023000"}},
      // Periods: the start as above, the end as an exact duration; a day of a period is a
      // calendar day of the start's zone (23 hours over Berlin's spring forward).
      {"Europe/Berlin",
       "20250107T190000",
       {"RDATE;VALUE=PERIOD:20250201T090000Z/20250201T113000Z",
        "RDATE;TZID=Europe/Berlin;VALUE=PERIOD:20250329T120000/P1D,20250401T100000/PT1H30M20S"},
       {"RDATE;TZID=Europe/Berlin;VALUE=PERIOD:20250201T100000/PT2H30M,20250329T120000/PT23H,"
        "20250401T100000/PT1H30M20S"}},
      // Durations as long as the calendar allows.
      {"Asia/Kolkata",
       "20240229T120000",
       {"RDATE;VALUE=PERIOD:20250405T143000Z/P450400D"},
       {"RDATE;TZID=Asia/Kolkata;VALUE=PERIOD:20250405T200000/PT10809600H"}},
      // A zone name with a ':' is quoted.
      {"UTC+5:30",
       "20250107T190000",
       {"RDATE;TZID=\"UTC+5:30\":20250110T100000", "EXDATE:20250108T133000Z"},
       {"RDATE;TZID=\"UTC+5:30\":20250110T100000", "EXDATE;TZID=\"UTC+5:30\":20250108T190000"}},
  };
  for (const NormalCase& c : kCases) {
    CAPTURE(c.lines.front());
    const cal::FirstOccurrence first = timed(c.zone, c.start);
    const cal::RecurrenceSet set = parse_ok(c.lines, first);
    const std::vector<std::string> normal = cal::format_recurrence(set);
    CHECK(normal == c.normal);
    CHECK(cal::format_recurrence(parse_ok(normal, first)) == normal);
  }
}

TEST_CASE("format_recurrence: an all-day event's UNTIL stays a DATE") {
  const cal::FirstOccurrence first = all_day("Australia/Lord_Howe", "20250105", 2);
  const cal::RecurrenceSet set = parse_ok(
      {"RRULE:FREQ=WEEKLY;UNTIL=20250302", "RDATE;VALUE=DATE:20250320", "EXDATE;VALUE=DATE:20250112"}, first);
  CHECK(cal::format_recurrence(set) == std::vector<std::string>{"RRULE:FREQ=WEEKLY;UNTIL=20250302",
                                                                "RDATE;VALUE=DATE:20250320",
                                                                "EXDATE;VALUE=DATE:20250112"});
}
