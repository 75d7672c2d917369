// Unit tests for cal/core/dates/recurrence.h, the occurrences: the examples of RFC 5545 §3.8.5.3
// that the supported subset can express, wall clocks in DST gaps and repeats in three zones, leap
// days and month ends, and the set's semantics (COUNT before EXDATE, RDATE, windows, the cap).
#include "cal/core/dates/recurrence.h"

#include "recurrence_support.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using caltest_recurrence::all_day;
using caltest_recurrence::expand_ok;
using caltest_recurrence::far_future;
using caltest_recurrence::far_past;
using caltest_recurrence::parse_ok;
using caltest_recurrence::timed;
using caltest_recurrence::utc_text;
using caltest_recurrence::wall;
using caltest_recurrence::wall_text;

namespace {

struct DatesCase {
  const char* title;
  const char* start;  // DTSTART in America/New_York, as RFC 5545's examples have it
  std::vector<std::string> lines;
  std::vector<std::string> dates;  // the first occurrences' dates ("YYYYMMDD"), at DTSTART's time
  std::size_t total = 0;           // when not 0: the number of occurrences of the finite set
};

// The dates of the first `n` occurrences.
std::vector<std::string> first_dates(const std::vector<cal::Occurrence>& occurrences, std::size_t n) {
  std::vector<std::string> dates;
  for (std::size_t i = 0; i < occurrences.size() && i < n; ++i)
    dates.push_back(wall_text(occurrences[i].original_local).substr(0, 8));
  return dates;
}

}  // namespace

TEST_CASE("expand_recurrence: the examples of RFC 5545 section 3.8.5.3") {
  static const DatesCase kCases[] = {
      {"daily for 10 occurrences",
       "19970902T090000",
       {"RRULE:FREQ=DAILY;COUNT=10"},
       {"19970902", "19970903", "19970904", "19970905", "19970906", "19970907", "19970908", "19970909",
        "19970910", "19970911"},
       10},
      {"daily until December 24, 1997",
       "19970902T090000",
       {"RRULE:FREQ=DAILY;UNTIL=19971224T000000Z"},
       {"19970902", "19970903", "19970904"},
       113},
      {"every other day, forever",
       "19970902T090000",
       {"RRULE:FREQ=DAILY;INTERVAL=2"},
       {"19970902", "19970904", "19970906", "19970908", "19970910"}},
      {"every 10 days, 5 occurrences",
       "19970902T090000",
       {"RRULE:FREQ=DAILY;INTERVAL=10;COUNT=5"},
       {"19970902", "19970912", "19970922", "19971002", "19971012"},
       5},
      {"every day in January, for 3 years (yearly)",
       "19980101T090000",
       {"RRULE:FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA"},
       {"19980101", "19980102", "19980103"},
       93},
      {"every day in January, for 3 years (daily)",
       "19980101T090000",
       {"RRULE:FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1"},
       {"19980101", "19980102", "19980103"},
       93},
      {"weekly for 10 occurrences",
       "19970902T090000",
       {"RRULE:FREQ=WEEKLY;COUNT=10"},
       {"19970902", "19970909", "19970916", "19970923", "19970930", "19971007", "19971014", "19971021",
        "19971028", "19971104"},
       10},
      {"weekly until December 24, 1997",
       "19970902T090000",
       {"RRULE:FREQ=WEEKLY;UNTIL=19971224T000000Z"},
       {"19970902", "19970909"},
       17},
      {"every other week, forever",
       "19970902T090000",
       {"RRULE:FREQ=WEEKLY;INTERVAL=2;WKST=SU"},
       {"19970902", "19970916", "19970930", "19971014", "19971028", "19971111", "19971125", "19971209",
        "19971223", "19980106", "19980120", "19980203", "19980217"}},
      {"weekly on Tuesday and Thursday for five weeks (UNTIL)",
       "19970902T090000",
       {"RRULE:FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH"},
       {"19970902", "19970904", "19970909", "19970911", "19970916", "19970918", "19970923", "19970925",
        "19970930", "19971002"},
       10},
      {"weekly on Tuesday and Thursday for five weeks (COUNT)",
       "19970902T090000",
       {"RRULE:FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH"},
       {"19970902", "19970904", "19970909", "19970911", "19970916", "19970918", "19970923", "19970925",
        "19970930", "19971002"},
       10},
      {"every other week on Monday, Wednesday and Friday until December 24, 1997",
       "19970901T090000",
       {"RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR"},
       {"19970901", "19970903", "19970905", "19970915", "19970917", "19970919", "19970929",
        "19971001", "19971003", "19971013", "19971015", "19971017", "19971027", "19971029",
        "19971031", "19971110", "19971112", "19971114", "19971124", "19971126", "19971128",
        "19971208", "19971210", "19971212", "19971222"},
       25},
      {"every other week on Tuesday and Thursday, for 8 occurrences",
       "19970902T090000",
       {"RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH"},
       {"19970902", "19970904", "19970916", "19970918", "19970930", "19971002", "19971014", "19971016"},
       8},
      {"monthly on the first Friday for 10 occurrences",
       "19970905T090000",
       {"RRULE:FREQ=MONTHLY;COUNT=10;BYDAY=1FR"},
       {"19970905", "19971003", "19971107", "19971205", "19980102", "19980206", "19980306", "19980403",
        "19980501", "19980605"},
       10},
      {"monthly on the first Friday until December 24, 1997",
       "19970905T090000",
       {"RRULE:FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR"},
       {"19970905", "19971003", "19971107", "19971205"},
       4},
      {"every other month on the first and last Sunday, for 10 occurrences",
       "19970907T090000",
       {"RRULE:FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU"},
       {"19970907", "19970928", "19971102", "19971130", "19980104", "19980125", "19980301", "19980329",
        "19980503", "19980531"},
       10},
      {"monthly on the second-to-last Monday for 6 months",
       "19970922T090000",
       {"RRULE:FREQ=MONTHLY;COUNT=6;BYDAY=-2MO"},
       {"19970922", "19971020", "19971117", "19971222", "19980119", "19980216"},
       6},
      {"monthly on the third-to-the-last day, forever",
       "19970928T090000",
       {"RRULE:FREQ=MONTHLY;BYMONTHDAY=-3"},
       {"19970928", "19971029", "19971128", "19971229", "19980129", "19980226"}},
      {"monthly on the 2nd and 15th for 10 occurrences",
       "19970902T090000",
       {"RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15"},
       {"19970902", "19970915", "19971002", "19971015", "19971102", "19971115", "19971202", "19971215",
        "19980102", "19980115"},
       10},
      {"monthly on the first and last day for 10 occurrences",
       "19970930T090000",
       {"RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1"},
       {"19970930", "19971001", "19971031", "19971101", "19971130", "19971201", "19971231", "19980101",
        "19980131", "19980201"},
       10},
      {"every 18 months on the 10th to 15th for 10 occurrences",
       "19970910T090000",
       {"RRULE:FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15"},
       {"19970910", "19970911", "19970912", "19970913", "19970914", "19970915", "19990310", "19990311",
        "19990312", "19990313"},
       10},
      {"every Tuesday, every other month",
       "19970902T090000",
       {"RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=TU"},
       {"19970902", "19970909", "19970916", "19970923", "19970930", "19971104", "19971111", "19971118",
        "19971125", "19980106", "19980113", "19980120", "19980127", "19980303", "19980310", "19980317",
        "19980324", "19980331"}},
      {"yearly in June and July for 10 occurrences",
       "19970610T090000",
       {"RRULE:FREQ=YEARLY;COUNT=10;BYMONTH=6,7"},
       {"19970610", "19970710", "19980610", "19980710", "19990610", "19990710", "20000610", "20000710",
        "20010610", "20010710"},
       10},
      {"every other year on January, February and March for 10 occurrences",
       "19970310T090000",
       {"RRULE:FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3"},
       {"19970310", "19990110", "19990210", "19990310", "20010110", "20010210", "20010310", "20030110",
        "20030210", "20030310"},
       10},
      {"every 20th Monday of the year, forever",
       "19970519T090000",
       {"RRULE:FREQ=YEARLY;BYDAY=20MO"},
       {"19970519", "19980518", "19990517"}},
      {"every Thursday in March, forever",
       "19970313T090000",
       {"RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=TH"},
       {"19970313", "19970320", "19970327", "19980305", "19980312", "19980319", "19980326", "19990304",
        "19990311", "19990318", "19990325"}},
      {"every Thursday, but only during June, July and August, forever",
       "19970605T090000",
       {"RRULE:FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8"},
       {"19970605", "19970612", "19970619", "19970626", "19970703", "19970710", "19970717", "19970724",
        "19970731", "19970807", "19970814", "19970821", "19970828", "19980604"}},
      // RFC 5545 starts this one on 1997-09-02 and removes that start with an EXDATE; a start the
      // rule does not produce is refused here, so the series starts on the first Friday the 13th.
      {"every Friday the 13th, forever",
       "19980213T090000",
       {"RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13"},
       {"19980213", "19980313", "19981113", "19990813", "20001013"}},
      {"the first Saturday that follows the first Sunday of the month, forever",
       "19970913T090000",
       {"RRULE:FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13"},
       {"19970913", "19971011", "19971108", "19971213", "19980110", "19980207", "19980307", "19980411",
        "19980509", "19980613"}},
      {"every 4 years, the first Tuesday after a Monday in November, forever",
       "19961105T090000",
       {"RRULE:FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8"},
       {"19961105", "20001107", "20041102"}},
      {"the third instance of a Tuesday, Wednesday or Thursday, for the next 3 months",
       "19970904T090000",
       {"RRULE:FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3"},
       {"19970904", "19971007", "19971106"},
       3},
      {"the second-to-last weekday of the month",
       "19970929T090000",
       {"RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2"},
       {"19970929", "19971030", "19971127", "19971230", "19980129", "19980226", "19980330"}},
      {"WKST changes the weeks: MO",
       "19970805T090000",
       {"RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO"},
       {"19970805", "19970810", "19970819", "19970824"},
       4},
      {"WKST changes the weeks: SU",
       "19970805T090000",
       {"RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU"},
       {"19970805", "19970817", "19970819", "19970831"},
       4},
      {"an invalid date is skipped and not counted",
       "20070115T090000",
       {"RRULE:FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5"},
       {"20070115", "20070130", "20070215", "20070315", "20070330"},
       5},
  };
  for (const DatesCase& c : kCases) {
    CAPTURE(c.title);
    const cal::FirstOccurrence first = timed("America/New_York", c.start);
    const auto occurrences =
        expand_ok(parse_ok(c.lines, first), far_past(), cal::from_utc_date_time(wall("20100101")));
    CHECK(first_dates(occurrences, c.dates.size()) == c.dates);
    if (c.total != 0) CHECK(occurrences.size() == c.total);
    for (const cal::Occurrence& o : occurrences) {
      CHECK(o.original_local.hour == 9);
      CHECK(o.start_local == o.original_local);  // 09:00 exists every day in New York
      CHECK(o.end - o.start == std::chrono::hours{1});
    }
  }
}

namespace {

struct DstCase {
  const char* zone;
  const char* start;  // DTSTART, a day before the change
  const char* rule;
  // The second occurrence: its identity (wall clock named, instant) and the wall clock it shows.
  const char* original;
  const char* instant;
  const char* shown;
};

}  // namespace

TEST_CASE(
    "expand_recurrence: wall clocks in DST gaps move forward by the gap, repeats take the first instant") {
  static const DstCase kCases[] = {
      // New York: 02:00 EST -> 03:00 EDT on 2025-03-09; 02:00 EDT -> 01:00 EST on 2025-11-02.
      {"America/New_York", "20250308T023000", "RRULE:FREQ=DAILY;COUNT=3", "20250309T023000",
       "20250309T073000Z", "20250309T033000"},
      {"America/New_York", "20251101T013000", "RRULE:FREQ=DAILY;COUNT=3", "20251102T013000",
       "20251102T053000Z", "20251102T013000"},
      // Berlin: 02:00 CET -> 03:00 CEST on 2025-03-30; 03:00 CEST -> 02:00 CET on 2025-10-26.
      {"Europe/Berlin", "20250329T023000", "RRULE:FREQ=DAILY;COUNT=3", "20250330T023000", "20250330T013000Z",
       "20250330T033000"},
      {"Europe/Berlin", "20251025T023000", "RRULE:FREQ=DAILY;COUNT=3", "20251026T023000", "20251026T003000Z",
       "20251026T023000"},
      // Lord Howe moves by 30 minutes: 02:00 -> 02:30 (+10:30 -> +11) on 2025-10-05, 02:00 -> 01:30
      // on 2025-04-06.
      {"Australia/Lord_Howe", "20251004T021500", "RRULE:FREQ=DAILY;COUNT=3", "20251005T021500",
       "20251004T154500Z", "20251005T024500"},
      {"Australia/Lord_Howe", "20250405T014500", "RRULE:FREQ=DAILY;COUNT=3", "20250406T014500",
       "20250405T144500Z", "20250406T014500"},
      // The same through a weekly and a monthly rule.
      {"America/New_York", "20250302T023000", "RRULE:FREQ=WEEKLY;COUNT=3", "20250309T023000",
       "20250309T073000Z", "20250309T033000"},
      {"Europe/Berlin", "20250223T023000", "RRULE:FREQ=MONTHLY;BYDAY=-1SU;COUNT=3", "20250330T023000",
       "20250330T013000Z", "20250330T033000"},
  };
  for (const DstCase& c : kCases) {
    CAPTURE(c.zone);
    CAPTURE(c.start);
    const cal::FirstOccurrence first = timed(c.zone, c.start, 30);
    const auto occurrences = expand_ok(parse_ok({c.rule}, first), far_past(), far_future());
    REQUIRE(occurrences.size() == 3);  // a moved occurrence still counts
    const cal::Occurrence& o = occurrences[1];
    CHECK(wall_text(o.original_local) == c.original);
    CHECK(utc_text(o.start) == c.instant);
    CHECK(wall_text(o.start_local) == c.shown);
    CHECK(o.end - o.start == std::chrono::minutes{30});  // the exact duration
    CHECK(wall_text(occurrences[2].original_local).substr(9) == std::string(c.start).substr(9));
  }
}

TEST_CASE("expand_recurrence: one wall clock at two instants gives two occurrences") {
  // 01:30 on 2025-11-02 in New York happens at 05:30Z (EDT) and 06:30Z (EST).
  const cal::FirstOccurrence first = timed("America/New_York", "20251101T013000");
  const auto occurrences = expand_ok(parse_ok({"RRULE:FREQ=DAILY;COUNT=3", "RDATE:20251102T063000Z"}, first),
                                     far_past(), far_future());
  REQUIRE(occurrences.size() == 4);
  CHECK(wall_text(occurrences[1].original_local) == "20251102T013000");
  CHECK(wall_text(occurrences[2].original_local) == "20251102T013000");
  CHECK(utc_text(occurrences[1].start) == "20251102T053000Z");
  CHECK(utc_text(occurrences[2].start) == "20251102T063000Z");
  CHECK_FALSE(occurrences[1].is_rdate);
  CHECK(occurrences[2].is_rdate);
  // An EXDATE names one of them by its instant.
  const auto without_first = expand_ok(parse_ok({"RRULE:FREQ=DAILY;COUNT=3", "RDATE:20251102T063000Z",
                                                 "EXDATE;TZID=America/New_York:20251102T013000"},
                                                first),
                                       far_past(), far_future());
  REQUIRE(without_first.size() == 3);
  CHECK(utc_text(without_first[1].start) == "20251102T063000Z");
}

TEST_CASE("expand_recurrence: UNTIL is inclusive and compared as an instant") {
  // The 2025-03-09 occurrence named 02:30 happens at 07:30Z (03:30 EDT).
  const cal::FirstOccurrence first = timed("America/New_York", "20250302T023000");
  const std::pair<const char*, std::size_t> kCases[] = {
      {"RRULE:FREQ=WEEKLY;UNTIL=20250309T073000Z", 2},
      {"RRULE:FREQ=WEEKLY;UNTIL=20250309T072959Z", 1},
      {"RRULE:FREQ=WEEKLY;UNTIL=20250309T023000", 2},  // floating: read in the zone, in its gap
      {"RRULE:FREQ=WEEKLY;UNTIL=20250309T032959", 1},  // 03:29:59 EDT is before 03:30 EDT
  };
  for (const auto& [rule, count] : kCases) {
    CAPTURE(rule);
    CHECK(expand_ok(parse_ok({rule}, first), far_past(), far_future()).size() == count);
  }
}

TEST_CASE("expand_recurrence: leap days, month ends, BYDAY lists") {
  static const DatesCase kCases[] = {
      {"yearly from February 29th: leap years only",
       "20240229T100000",
       {"RRULE:FREQ=YEARLY;COUNT=3"},
       {"20240229", "20280229", "20320229"},
       3},
      {"monthly from the 31st: months with a 31st",
       "20250131T100000",
       {"RRULE:FREQ=MONTHLY;COUNT=5"},
       {"20250131", "20250331", "20250531", "20250731", "20250831"},
       5},
      {"monthly on the last day",
       "20240131T100000",
       {"RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=4"},
       {"20240131", "20240229", "20240331", "20240430"},
       4},
      {"yearly on the last day of February",
       "20230228T100000",
       {"RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1;COUNT=3"},
       {"20230228", "20240229", "20250228"},
       3},
      {"daily on the 31st",
       "20250131T100000",
       {"RRULE:FREQ=DAILY;BYMONTHDAY=31;COUNT=3"},
       {"20250131", "20250331", "20250531"},
       3},
      {"yearly on the 29th of February, every 100 years skips 2100",
       "20960229T100000",
       {"RRULE:FREQ=YEARLY;INTERVAL=4;COUNT=3;BYMONTH=2;BYMONTHDAY=29"},
       {"20960229", "21040229", "21080229"},
       3},
      {"the last weekday of each month",
       "20240229T100000",
       {"RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"},
       {"20240229", "20240329", "20240430", "20240531", "20240628", "20240731", "20240830", "20240930"}},
      {"the first and last Monday of the year",
       "20180101T100000",
       {"RRULE:FREQ=YEARLY;BYDAY=1MO,-1MO;COUNT=4"},
       {"20180101", "20181231", "20190107", "20191230"},
       4},
      // Plain and ordinal weekdays of one BYDAY unite (python-dateutil would intersect them).
      {"the first Monday and every Friday",
       "20250103T100000",
       {"RRULE:FREQ=MONTHLY;BYDAY=1MO,FR;COUNT=7"},
       {"20250103", "20250106", "20250110", "20250117", "20250124", "20250131", "20250203"},
       7},
  };
  for (const DatesCase& c : kCases) {
    CAPTURE(c.title);
    const cal::FirstOccurrence first = timed("Europe/Berlin", c.start);
    const auto occurrences =
        expand_ok(parse_ok(c.lines, first), far_past(), cal::from_utc_date_time(wall("21100101")));
    CHECK(first_dates(occurrences, c.dates.size()) == c.dates);
    if (c.total != 0) CHECK(occurrences.size() == c.total);
  }
}

TEST_CASE("expand_recurrence: COUNT counts before EXDATEs remove, RDATEs add, duplicates collapse") {
  const cal::FirstOccurrence first = timed("Europe/Berlin", "20250106T180000", 90);
  const cal::RecurrenceSet set =
      parse_ok({"RRULE:FREQ=DAILY;COUNT=3", "EXDATE;TZID=Europe/Berlin:20250107T180000",
                "RDATE;TZID=Europe/Berlin:20250108T180000,20250110T090000", "RDATE;VALUE=DATE:20250112",
                "RDATE;VALUE=PERIOD:20250115T080000Z/PT3H"},
               first);
  const auto occurrences = expand_ok(set, far_past(), far_future());
  std::vector<std::string> starts;
  for (const cal::Occurrence& o : occurrences) starts.push_back(wall_text(o.start_local));
  CHECK(starts == std::vector<std::string>{"20250106T180000", "20250108T180000", "20250110T090000",
                                           "20250112T180000", "20250115T090000"});
  REQUIRE(occurrences.size() == 5);
  CHECK_FALSE(occurrences[1].is_rdate);  // the rule's, which the RDATE repeats
  CHECK(occurrences[2].is_rdate);
  CHECK(occurrences[2].end - occurrences[2].start == std::chrono::minutes{90});
  CHECK(occurrences[4].end - occurrences[4].start == std::chrono::hours{3});  // its PERIOD
}

TEST_CASE("expand_recurrence: an all-day occurrence spans the first one's calendar days") {
  // Two days from Saturday 2025-03-29 in Berlin; the first span holds the spring forward.
  const cal::FirstOccurrence first = all_day("Europe/Berlin", "20250329", 2);
  const auto occurrences =
      expand_ok(parse_ok({"RRULE:FREQ=WEEKLY;UNTIL=20250405", "RDATE;VALUE=DATE:20250501"}, first),
                far_past(), far_future());
  REQUIRE(occurrences.size() == 3);
  CHECK(wall_text(occurrences[0].start_local) == "20250329T000000");
  CHECK(wall_text(occurrences[0].end_local) == "20250330T235959");
  CHECK(occurrences[0].end - occurrences[0].start == std::chrono::seconds{47 * 3600 - 1});
  CHECK(wall_text(occurrences[1].end_local) == "20250406T235959");
  CHECK(occurrences[1].end - occurrences[1].start == std::chrono::seconds{48 * 3600 - 1});
  CHECK(wall_text(occurrences[2].start_local) == "20250501T000000");
  CHECK(wall_text(occurrences[2].end_local) == "20250502T235959");
}

TEST_CASE("expand_recurrence: windows, infinite sets and the cap") {
  const cal::FirstOccurrence first = timed("UTC", "20250101T100000");
  const cal::RecurrenceSet daily = parse_ok({"RRULE:FREQ=DAILY"}, first);
  CHECK(daily.is_infinite());
  SUBCASE("a window returns the starts in [from, to)") {
    const auto window = expand_ok(daily, cal::from_utc_date_time(wall("20250110T100000")),
                                  cal::from_utc_date_time(wall("20250113T100000")));
    REQUIRE(window.size() == 3);
    CHECK(wall_text(window.front().start_local) == "20250110T100000");
    CHECK(wall_text(window.back().start_local) == "20250112T100000");
  }
  SUBCASE("the cap counts every occurrence before the window's end, those before `from` too") {
    const cal::Seconds from = cal::from_utc_date_time(wall("20250105T000000"));
    const cal::Seconds to = cal::from_utc_date_time(wall("20250111T000000"));
    CHECK(expand_ok(daily, from, to, 10).size() == 6);
    const auto over = cal::expand_recurrence(daily, from, to, 9);
    REQUIRE(std::holds_alternative<cal::RecurrenceError>(over));
    CHECK(std::get<cal::RecurrenceError>(over).message == "The recurrence has more than %s occurrences.");
    CHECK(std::get<cal::RecurrenceError>(over).args == std::vector<std::string>{"9"});
    // EXDATEs are no occurrences.
    const cal::RecurrenceSet fewer =
        parse_ok({"RRULE:FREQ=DAILY", "EXDATE:20250102T100000Z", "EXDATE:20250103T100000Z"}, first);
    CHECK(expand_ok(fewer, from, to, 8).size() == 6);
  }
  SUBCASE("a finite set expands to its end in the far future") {
    const cal::RecurrenceSet count = parse_ok({"RRULE:FREQ=YEARLY;COUNT=3650"}, first);
    CHECK_FALSE(count.is_infinite());
    CHECK(expand_ok(count, far_past(), far_future()).size() == 3650);
    CHECK(std::holds_alternative<cal::RecurrenceError>(
        cal::expand_recurrence(count, far_past(), far_future(), 3649)));
  }
  SUBCASE("a one-off event is its own single occurrence") {
    const auto one = expand_ok(parse_ok({}, first), far_past(), far_future());
    REQUIRE(one.size() == 1);
    CHECK(wall_text(one[0].original_local) == "20250101T100000");
    CHECK_FALSE(one[0].is_rdate);
  }
  SUBCASE("a rule whose dates run out ends at year 9999") {
    const cal::RecurrenceSet leap =
        parse_ok({"RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;COUNT=3000"}, timed("UTC", "20240229T100000"));
    const auto all = expand_ok(leap, far_past(), far_future());
    CHECK(all.size() == 1934);  // the leap years 2024..9996
    CHECK(wall_text(all.back().original_local) == "99960229T100000");
  }
}
