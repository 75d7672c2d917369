// Unit tests for the iCalendar feeds' pure parts (docs/feeds.md): the observances of a zone from the
// tz database and the VTIMEZONE libical writes of them, SEQUENCE, and the default cap.
#include "cal/api/ical/ical_event.h"
#include "cal/api/ical/ical_vtimezone.h"
#include "cal/core/config.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>

namespace {

using cal::Seconds;
using cal::TimeZone;

Seconds utc(int y, int mo, int d, int h = 0, int mi = 0, int s = 0) {
  return cal::from_utc_date_time({y, mo, d, h, mi, s});
}

std::string text_of(icalcomponent* c) {
  char* text = icalcomponent_as_ical_string_r(c);
  std::string out(text);
  icalmemory_free_buffer(text);
  icalcomponent_free(c);
  return out;
}

}  // namespace

TEST_CASE("zone_observances: the DST changes of a year, to the second") {
  const TimeZone ny = *TimeZone::find("America/New_York");
  const auto o = cal::zone_observances(ny, utc(2041, 1, 1), utc(2042, 1, 1));
  REQUIRE(o.size() == 3);
  CHECK(o[0].start == utc(2041, 1, 1));
  CHECK(o[0].offset_to == -5 * 3600);
  CHECK_FALSE(o[0].dst);
  CHECK(o[0].abbrev == "EST");
  // 2041-03-10 02:00 EST = 07:00 UTC; 2041-11-03 02:00 EDT = 06:00 UTC (past 2037: the TZif footer rule).
  CHECK(o[1].start == utc(2041, 3, 10, 7));
  CHECK(o[1].offset_from == -5 * 3600);
  CHECK(o[1].offset_to == -4 * 3600);
  CHECK(o[1].dst);
  CHECK(o[1].abbrev == "EDT");
  CHECK(o[2].start == utc(2041, 11, 3, 6));
  CHECK(o[2].offset_to == -5 * 3600);
  CHECK_FALSE(o[2].dst);
}

TEST_CASE("zone_observances: a zone without DST has one; a historical change is found") {
  CHECK(cal::zone_observances(*TimeZone::find("Asia/Tokyo"), utc(2020, 1, 1), utc(2030, 1, 1)).size() == 1);
  // Samoa skipped 2011-12-30: from -10 (with DST -10+1) to +14 (DST) at 2011-12-30 10:00 UTC.
  const auto samoa =
      cal::zone_observances(*TimeZone::find("Pacific/Apia"), utc(2011, 12, 1), utc(2012, 1, 31));
  REQUIRE(samoa.size() == 2);
  CHECK(samoa[1].start == utc(2011, 12, 30, 10));
  CHECK(samoa[1].offset_from == -10 * 3600);
  CHECK(samoa[1].offset_to == 14 * 3600);
}

TEST_CASE("build_vtimezone: libical text with STANDARD/DAYLIGHT observances in local time") {
  const std::string text = text_of(cal::build_vtimezone(*TimeZone::find("Europe/Berlin"), 2041, 2041));
  CHECK(text.find("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n") == 0);
  // The state at the start of the range (2040-12-31, a day's margin), then both 2041 changes.
  CHECK(text.find("BEGIN:STANDARD\r\nDTSTART:20401231T010000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0100\r\n"
                  "TZNAME:CET\r\nEND:STANDARD") != std::string::npos);
  CHECK(text.find("BEGIN:DAYLIGHT\r\nDTSTART:20410331T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"
                  "TZNAME:CEST\r\nEND:DAYLIGHT") != std::string::npos);
  CHECK(text.find("BEGIN:STANDARD\r\nDTSTART:20411027T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n"
                  "TZNAME:CET\r\nEND:STANDARD") != std::string::npos);
  CHECK(text.find("20420101") == std::string::npos);  // nothing past the range's margin
  // The cached copy is the same text.
  CHECK(text_of(cal::cached_vtimezone(*TimeZone::find("Europe/Berlin"), 2041, 2041)) == text);
  CHECK(text_of(cal::cached_vtimezone(*TimeZone::find("Europe/Berlin"), 2041, 2041)) == text);
}

TEST_CASE("ical_sequence: seconds since 2000 of the last modification") {
  CHECK(cal::ical_sequence("2000-01-01 00:00:00") == 0);
  CHECK(cal::ical_sequence("2000-01-01 00:01:40") == 100);
  CHECK(cal::ical_sequence("1999-12-31 23:59:59") == 0);
  CHECK(cal::ical_sequence("0000-00-00 00:00:00") == 0);
  CHECK(cal::ical_sequence("2100-01-01 00:00:00") == 2147483647);
  CHECK(cal::ical_sequence("2026-11-24 05:00:00") < cal::ical_sequence("2026-11-24 05:00:01"));
}

TEST_CASE("the feeds' defaults: 1,000 events, reloaded hourly") {
  const cal::Config config;
  CHECK(config.ical.max_events == 1000);
  CHECK(config.ical.refresh_minutes == 60);
}
