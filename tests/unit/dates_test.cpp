// Unit tests for cal/core/dates/dates.h: the date parser (every docs/api.md §6 form, relative forms against a
// fixed now, DST gaps and overlaps, invalid input), time-zone lookup, abbreviations and offsets,
// ISO 8601 and MySQL DATETIME text.
#include "cal/core/dates/dates.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

namespace {

using cal::LocalDateTime;
using cal::Seconds;
using cal::TimeZone;

// "YYYY-MM-DD HH:MM:SS" UTC -> instant; the tables below write instants this way.
Seconds instant_of(const char* text) {
  const auto parsed = cal::parse_sql_date_time(text);
  REQUIRE_MESSAGE(parsed.has_value(), "bad test instant ", text);
  return cal::from_utc_date_time(*parsed);
}

TimeZone zone_named(const char* name) {
  const auto found = TimeZone::find(name);
  REQUIRE_MESSAGE(found.has_value(), "unknown test zone ", name);
  return *found;
}

// Wednesday.
constexpr const char* kNow = "2025-05-14 10:20:30";

struct ParseCase {
  const char* text;
  const char* zone;
  const char* utc;    // expected instant as UTC "YYYY-MM-DD HH:MM:SS"; nullptr: expect nullopt
  const char* local;  // expected wall clock in `zone`
  bool has_time;
  const char* now = kNow;  // UTC
};

const ParseCase kParseCases[] = {
    // Plain dates and date-times.
    {"2025-05-02", "UTC", "2025-05-02 00:00:00", "2025-05-02 00:00:00", false},
    {"2025-05-02 09:00", "UTC", "2025-05-02 09:00:00", "2025-05-02 09:00:00", true},
    {"2025-05-02 09:00:15", "UTC", "2025-05-02 09:00:15", "2025-05-02 09:00:15", true},
    {"2025-05-02 9:05", "UTC", "2025-05-02 09:05:00", "2025-05-02 09:05:00", true},
    {"2024-02-29", "UTC", "2024-02-29 00:00:00", "2024-02-29 00:00:00", false},
    {"0001-01-01", "UTC", "0001-01-01 00:00:00", "0001-01-01 00:00:00", false},
    {"9999-12-31 23:59:59", "UTC", "9999-12-31 23:59:59", "9999-12-31 23:59:59", true},
    {"2025-05-02", "America/New_York", "2025-05-02 04:00:00", "2025-05-02 00:00:00", false},
    {"2025-01-15 12:00", "America/New_York", "2025-01-15 17:00:00", "2025-01-15 12:00:00", true},
    {"2025-01-10 10:00", "Europe/Berlin", "2025-01-10 09:00:00", "2025-01-10 10:00:00", true},
    {"2025-05-02 09:00", "UTC+5:30", "2025-05-02 03:30:00", "2025-05-02 09:00:00", true},
    {"2025-05-02 09:00", "UTC-5", "2025-05-02 14:00:00", "2025-05-02 09:00:00", true},
    // ISO 8601.
    {"2025-05-02T09:00:00Z", "UTC", "2025-05-02 09:00:00", "2025-05-02 09:00:00", true},
    {"2025-05-02t09:00:00z", "UTC", "2025-05-02 09:00:00", "2025-05-02 09:00:00", true},
    {"2025-05-02T09:00Z", "UTC", "2025-05-02 09:00:00", "2025-05-02 09:00:00", true},
    {"2025-05-02T09:00:00.123Z", "UTC", "2025-05-02 09:00:00", "2025-05-02 09:00:00", true},
    {"2025-05-02T09:00:00.5+02:00", "UTC", "2025-05-02 07:00:00", "2025-05-02 07:00:00", true},
    {"2025-05-02T09:00:00+02:00", "UTC", "2025-05-02 07:00:00", "2025-05-02 07:00:00", true},
    {"2025-05-02T09:00:00-0430", "UTC", "2025-05-02 13:30:00", "2025-05-02 13:30:00", true},
    {"2025-05-02T09:00:00+05", "UTC", "2025-05-02 04:00:00", "2025-05-02 04:00:00", true},
    {"2025-05-02 09:00:00+02:00", "UTC", "2025-05-02 07:00:00", "2025-05-02 07:00:00", true},
    {"2025-05-02T09:00:00Z", "America/New_York", "2025-05-02 09:00:00", "2025-05-02 05:00:00", true},
    {"2025-05-02T09:00:00", "America/New_York", "2025-05-02 13:00:00", "2025-05-02 09:00:00", true},
    {"2025-05-02T09:00", "Europe/Berlin", "2025-05-02 07:00:00", "2025-05-02 09:00:00", true},
    {"2025-05-02T09:00:00-04:00", "Europe/Berlin", "2025-05-02 13:00:00", "2025-05-02 15:00:00", true},
    // Unix timestamps.
    {"1700000000", "UTC", "2023-11-14 22:13:20", "2023-11-14 22:13:20", true},
    {"@1700000000", "UTC", "2023-11-14 22:13:20", "2023-11-14 22:13:20", true},
    {"@1700000000", "America/New_York", "2023-11-14 22:13:20", "2023-11-14 17:13:20", true},
    {"0", "UTC", "1970-01-01 00:00:00", "1970-01-01 00:00:00", true},
    {"@-86400", "UTC", "1969-12-31 00:00:00", "1969-12-31 00:00:00", true},
    {"86400", "Europe/Berlin", "1970-01-02 00:00:00", "1970-01-02 01:00:00", true},
    // Keywords.
    {"now", "UTC", "2025-05-14 10:20:30", "2025-05-14 10:20:30", true},
    {"today", "UTC", "2025-05-14 00:00:00", "2025-05-14 00:00:00", false},
    {"tomorrow", "UTC", "2025-05-15 00:00:00", "2025-05-15 00:00:00", false},
    {"yesterday", "UTC", "2025-05-13 00:00:00", "2025-05-13 00:00:00", false},
    {"midnight", "UTC", "2025-05-14 00:00:00", "2025-05-14 00:00:00", true},
    {"noon", "UTC", "2025-05-14 12:00:00", "2025-05-14 12:00:00", true},
    {"now", "America/New_York", "2025-05-14 10:20:30", "2025-05-14 06:20:30", true},
    {"today", "America/New_York", "2025-05-14 04:00:00", "2025-05-14 00:00:00", false},
    {"today", "America/New_York", "2025-05-13 04:00:00", "2025-05-13 00:00:00", false, "2025-05-14 02:00:00"},
    {"today", "Europe/Berlin", "2025-05-13 22:00:00", "2025-05-14 00:00:00", false},
    {"tomorrow", "Europe/Berlin", "2025-05-14 22:00:00", "2025-05-15 00:00:00", false},
    {"today", "UTC+5:30", "2025-05-13 18:30:00", "2025-05-14 00:00:00", false},
    {"today", "UTC+5:30", "2025-05-14 18:30:00", "2025-05-15 00:00:00", false, "2025-05-14 19:00:00"},
    // Relative offsets from now.
    {"+1 day", "UTC", "2025-05-15 10:20:30", "2025-05-15 10:20:30", true},
    {"+2 days", "UTC", "2025-05-16 10:20:30", "2025-05-16 10:20:30", true},
    {"-1 day", "UTC", "2025-05-13 10:20:30", "2025-05-13 10:20:30", true},
    {"3 days", "UTC", "2025-05-17 10:20:30", "2025-05-17 10:20:30", true},
    {"+1day", "UTC", "2025-05-15 10:20:30", "2025-05-15 10:20:30", true},
    {"+1 week", "UTC", "2025-05-21 10:20:30", "2025-05-21 10:20:30", true},
    {"+2 weeks", "UTC", "2025-05-28 10:20:30", "2025-05-28 10:20:30", true},
    {"+1 month", "UTC", "2025-06-14 10:20:30", "2025-06-14 10:20:30", true},
    {"+12 months", "UTC", "2026-05-14 10:20:30", "2026-05-14 10:20:30", true},
    {"-1 year", "UTC", "2024-05-14 10:20:30", "2024-05-14 10:20:30", true},
    {"+1 hour", "UTC", "2025-05-14 11:20:30", "2025-05-14 11:20:30", true},
    {"-2 hours", "UTC", "2025-05-14 08:20:30", "2025-05-14 08:20:30", true},
    {"+90 minutes", "UTC", "2025-05-14 11:50:30", "2025-05-14 11:50:30", true},
    {"+5 mins", "UTC", "2025-05-14 10:25:30", "2025-05-14 10:25:30", true},
    {"+1 min", "UTC", "2025-05-14 10:21:30", "2025-05-14 10:21:30", true},
    {"+30 sec", "UTC", "2025-05-14 10:21:00", "2025-05-14 10:21:00", true},
    {"+45 seconds", "UTC", "2025-05-14 10:21:15", "2025-05-14 10:21:15", true},
    {"2 days ago", "UTC", "2025-05-12 10:20:30", "2025-05-12 10:20:30", true},
    {"next week", "UTC", "2025-05-21 10:20:30", "2025-05-21 10:20:30", true},
    {"last month", "UTC", "2025-04-14 10:20:30", "2025-04-14 10:20:30", true},
    {"now +1 hour", "UTC", "2025-05-14 11:20:30", "2025-05-14 11:20:30", true},
    {"today +3 days", "UTC", "2025-05-17 00:00:00", "2025-05-17 00:00:00", false},
    {"tomorrow +1 hour", "UTC", "2025-05-15 01:00:00", "2025-05-15 01:00:00", true},
    {"+1 day +2 hours", "UTC", "2025-05-15 12:20:30", "2025-05-15 12:20:30", true},
    {"+1 day", "America/New_York", "2025-05-15 10:20:30", "2025-05-15 06:20:30", true},
    {"+1 hour", "Europe/Berlin", "2025-05-14 11:20:30", "2025-05-14 13:20:30", true},
    // PHP month overflow.
    {"+1 month", "UTC", "2025-03-03 08:00:00", "2025-03-03 08:00:00", true, "2025-01-31 08:00:00"},
    {"-1 month", "UTC", "2025-03-03 08:00:00", "2025-03-03 08:00:00", true, "2025-03-31 08:00:00"},
    {"+1 year", "UTC", "2025-03-01 08:00:00", "2025-03-01 08:00:00", true, "2024-02-29 08:00:00"},
    {"+1 month", "UTC", "2025-01-15 08:00:00", "2025-01-15 08:00:00", true, "2024-12-15 08:00:00"},
    // Relative arithmetic across DST (2025-03-09 in New York): days keep the wall clock.
    {"+1 day", "America/New_York", "2025-03-09 16:00:00", "2025-03-09 12:00:00", true, "2025-03-08 17:00:00"},
    {"+24 hours", "America/New_York", "2025-03-09 17:00:00", "2025-03-09 13:00:00", true,
     "2025-03-08 17:00:00"},
    {"tomorrow 2:30am", "America/New_York", "2025-03-09 07:30:00", "2025-03-09 03:30:00", true,
     "2025-03-08 17:00:00"},
    // Weekdays (now is a Wednesday).
    {"next wednesday", "UTC", "2025-05-21 00:00:00", "2025-05-21 00:00:00", false},
    {"next thursday", "UTC", "2025-05-15 00:00:00", "2025-05-15 00:00:00", false},
    {"next mon", "UTC", "2025-05-19 00:00:00", "2025-05-19 00:00:00", false},
    {"next tuesday", "UTC", "2025-05-20 00:00:00", "2025-05-20 00:00:00", false},
    {"last wednesday", "UTC", "2025-05-07 00:00:00", "2025-05-07 00:00:00", false},
    {"last tuesday", "UTC", "2025-05-13 00:00:00", "2025-05-13 00:00:00", false},
    {"last fri", "UTC", "2025-05-09 00:00:00", "2025-05-09 00:00:00", false},
    {"last thursday", "UTC", "2025-05-08 00:00:00", "2025-05-08 00:00:00", false},
    {"wednesday", "UTC", "2025-05-14 00:00:00", "2025-05-14 00:00:00", false},
    {"thursday", "UTC", "2025-05-15 00:00:00", "2025-05-15 00:00:00", false},
    {"Tue", "UTC", "2025-05-20 00:00:00", "2025-05-20 00:00:00", false},
    {"sunday", "UTC", "2025-05-18 00:00:00", "2025-05-18 00:00:00", false},
    {"SAT", "UTC", "2025-05-17 00:00:00", "2025-05-17 00:00:00", false},
    {"this friday", "UTC", "2025-05-16 00:00:00", "2025-05-16 00:00:00", false},
    {"Next Wednesday", "UTC", "2025-05-21 00:00:00", "2025-05-21 00:00:00", false},
    {"next monday", "America/New_York", "2025-05-19 04:00:00", "2025-05-19 00:00:00", false},
    {"next friday", "Europe/Berlin", "2025-05-15 22:00:00", "2025-05-16 00:00:00", false},
    // Times of day after a date or relative form, or alone (today).
    {"tomorrow 9am", "UTC", "2025-05-15 09:00:00", "2025-05-15 09:00:00", true},
    {"tomorrow 9 am", "UTC", "2025-05-15 09:00:00", "2025-05-15 09:00:00", true},
    {"today 4:30pm", "UTC", "2025-05-14 16:30:00", "2025-05-14 16:30:00", true},
    {"today 4:30:15 PM", "UTC", "2025-05-14 16:30:15", "2025-05-14 16:30:15", true},
    {"+5 days 11am", "UTC", "2025-05-19 11:00:00", "2025-05-19 11:00:00", true},
    {"next wednesday 4pm", "UTC", "2025-05-21 16:00:00", "2025-05-21 16:00:00", true},
    {"2018-01-01 4pm", "UTC", "2018-01-01 16:00:00", "2018-01-01 16:00:00", true},
    {"today noon", "UTC", "2025-05-14 12:00:00", "2025-05-14 12:00:00", true},
    {"tomorrow midnight", "UTC", "2025-05-15 00:00:00", "2025-05-15 00:00:00", true},
    {"yesterday 16:00:30", "UTC", "2025-05-13 16:00:30", "2025-05-13 16:00:30", true},
    {"12am", "UTC", "2025-05-14 00:00:00", "2025-05-14 00:00:00", true},
    {"12pm", "UTC", "2025-05-14 12:00:00", "2025-05-14 12:00:00", true},
    {"12:30am", "UTC", "2025-05-14 00:30:00", "2025-05-14 00:30:00", true},
    {"16:00", "UTC", "2025-05-14 16:00:00", "2025-05-14 16:00:00", true},
    {"9am tomorrow", "UTC", "2025-05-15 09:00:00", "2025-05-15 09:00:00", true},
    {"  TOMORROW \t  9AM  ", "UTC", "2025-05-15 09:00:00", "2025-05-15 09:00:00", true},
    {"tomorrow 9am", "America/New_York", "2025-05-15 13:00:00", "2025-05-15 09:00:00", true},
    {"tomorrow 9am", "Europe/Berlin", "2025-05-15 07:00:00", "2025-05-15 09:00:00", true},
    {"next wednesday 4pm", "America/New_York", "2025-05-21 20:00:00", "2025-05-21 16:00:00", true},
    // DST gaps move forward by the gap; ambiguous times take the earlier instant.
    {"2025-03-09 02:30", "America/New_York", "2025-03-09 07:30:00", "2025-03-09 03:30:00", true},
    {"2025-03-09T02:30:00", "America/New_York", "2025-03-09 07:30:00", "2025-03-09 03:30:00", true},
    {"2025-03-09 03:30", "America/New_York", "2025-03-09 07:30:00", "2025-03-09 03:30:00", true},
    {"2025-03-09 01:59:59", "America/New_York", "2025-03-09 06:59:59", "2025-03-09 01:59:59", true},
    {"2025-11-02 01:30", "America/New_York", "2025-11-02 05:30:00", "2025-11-02 01:30:00", true},
    {"2025-11-02 02:00", "America/New_York", "2025-11-02 07:00:00", "2025-11-02 02:00:00", true},
    {"2025-03-30 02:30", "Europe/Berlin", "2025-03-30 01:30:00", "2025-03-30 03:30:00", true},
    {"2025-10-26 02:30", "Europe/Berlin", "2025-10-26 00:30:00", "2025-10-26 02:30:00", true},
    // After the last tabulated transition (2037) the zone's POSIX rule still applies.
    {"2050-07-01 12:00", "America/New_York", "2050-07-01 16:00:00", "2050-07-01 12:00:00", true},
    {"2050-01-01 12:00", "America/New_York", "2050-01-01 17:00:00", "2050-01-01 12:00:00", true},
    {"2050-03-13 02:30", "America/New_York", "2050-03-13 07:30:00", "2050-03-13 03:30:00", true},
    {"2050-11-06 01:30", "America/New_York", "2050-11-06 05:30:00", "2050-11-06 01:30:00", true},
    {"2050-03-27 02:30", "Europe/Berlin", "2050-03-27 01:30:00", "2050-03-27 03:30:00", true},
    {"2050-10-30 02:30", "Europe/Berlin", "2050-10-30 00:30:00", "2050-10-30 02:30:00", true},
    // Invalid calendar dates and times.
    {"2025-02-30", "UTC", nullptr, nullptr, false},
    {"2025-13-01", "UTC", nullptr, nullptr, false},
    {"2023-02-29", "UTC", nullptr, nullptr, false},
    {"2025-00-10", "UTC", nullptr, nullptr, false},
    {"2025-01-00", "UTC", nullptr, nullptr, false},
    {"0000-01-01", "UTC", nullptr, nullptr, false},
    {"2025-01-01 25:00", "UTC", nullptr, nullptr, false},
    {"2025-01-01 24:00", "UTC", nullptr, nullptr, false},
    {"2025-01-01 23:60", "UTC", nullptr, nullptr, false},
    {"2025-01-01 10:00:60", "UTC", nullptr, nullptr, false},
    {"2025-02-30T10:00:00Z", "UTC", nullptr, nullptr, false},
    {"2025-05-02T25:00", "UTC", nullptr, nullptr, false},
    {"2025-05-02T09:00+25:00", "UTC", nullptr, nullptr, false},
    {"2025-05-02T9:00", "UTC", nullptr, nullptr, false},
    {"2025-05-02T09:00:00.Z", "UTC", nullptr, nullptr, false},
    {"2025-5-2", "UTC", nullptr, nullptr, false},
    {"13pm", "UTC", nullptr, nullptr, false},
    {"0am", "UTC", nullptr, nullptr, false},
    {"16:00pm", "UTC", nullptr, nullptr, false},
    {"tomorrow 25:00", "UTC", nullptr, nullptr, false},
    // Out of range.
    {"9999-12-31 23:59:59", "America/New_York", nullptr, nullptr, false},
    {"+999999999 years", "UTC", nullptr, nullptr, false},
    {"1234567890123", "UTC", nullptr, nullptr, false},
    {"@999999999999", "UTC", nullptr, nullptr, false},
    // Garbage.
    {"", "UTC", nullptr, nullptr, false},
    {"   ", "UTC", nullptr, nullptr, false},
    {"tomorrowx", "UTC", nullptr, nullptr, false},
    {"1.5", "UTC", nullptr, nullptr, false},
    {"abc", "UTC", nullptr, nullptr, false},
    {"+5", "UTC", nullptr, nullptr, false},
    {"@", "UTC", nullptr, nullptr, false},
    {"@abc", "UTC", nullptr, nullptr, false},
    {"next", "UTC", nullptr, nullptr, false},
    {"next foo", "UTC", nullptr, nullptr, false},
    {"this week", "UTC", nullptr, nullptr, false},
    {"+1 fortnight", "UTC", nullptr, nullptr, false},
    {"5 days agox", "UTC", nullptr, nullptr, false},
    {"days", "UTC", nullptr, nullptr, false},
    {"tomorrow tomorrow", "UTC", nullptr, nullptr, false},
    {"9am 10am", "UTC", nullptr, nullptr, false},
    {"2025-05-02 tomorrow", "UTC", nullptr, nullptr, false},
    {"2025-05-02 09:00 +0200", "UTC", nullptr, nullptr, false},
    {"2025-05-02x", "UTC", nullptr, nullptr, false},
    {"9 amsterdam", "UTC", nullptr, nullptr, false},
    {"tomorrow,9am", "UTC", nullptr, nullptr, false},
    {"2025-05-02\xC3\xA9", "UTC", nullptr, nullptr, false},
};

TEST_CASE("parse_date accepts every API form and rejects everything else") {
  for (const ParseCase& c : kParseCases) {
    const std::string text = c.text;
    CAPTURE(text);
    const std::string zone = c.zone;
    CAPTURE(zone);
    const std::string now = c.now;
    CAPTURE(now);
    const auto parsed = cal::parse_date(c.text, zone_named(c.zone), instant_of(c.now));
    if (c.utc == nullptr) {
      CHECK_FALSE(parsed.has_value());
      continue;
    }
    CHECK(parsed.has_value());
    if (!parsed) continue;
    CHECK(cal::format_date_time(cal::to_utc_date_time(parsed->instant)) == c.utc);
    CHECK(cal::format_date_time(parsed->local) == c.local);
    CHECK(parsed->has_time == c.has_time);
  }
}

struct FindCase {
  const char* name;
  const char* canonical;  // nullptr: expect nullopt
};

const FindCase kFindCases[] = {
    {"UTC", "UTC"},
    {"utc", "UTC"},
    {"UTC+0", "UTC"},
    {"UTC-00:00", "UTC"},
    {"UTC+2", "UTC+2"},
    {"UTC+02", "UTC+2"},
    {"UTC+02:00", "UTC+2"},
    {"UTC+5:30", "UTC+5:30"},
    {"UTC+05:30", "UTC+5:30"},
    {"UTC+0530", "UTC+5:30"},
    {"UTC-5:30", "UTC-5:30"},
    {"UTC-0:30", "UTC-0:30"},
    {"UTC-12", "UTC-12"},
    {"UTC+14", "UTC+14"},
    {"America/New_York", "America/New_York"},
    {"Europe/Berlin", "Europe/Berlin"},
    {"Asia/Kolkata", "Asia/Kolkata"},
    {"Etc/UTC", "Etc/UTC"},
    {"US/Eastern", "US/Eastern"},
    {"Mars/Base", nullptr},
    {"UTC+25", nullptr},
    {"UTC+14:30", nullptr},
    {"UTC+5:60", nullptr},
    {"UTC+5:3", nullptr},
    {"UTC+", nullptr},
    {"UTC5", nullptr},
    {"UTC+123", nullptr},
    {"", nullptr},
    {"america/new_york", nullptr},
    {"Europe/Berlin ", nullptr},
    {"localtime", nullptr},
    {"../../etc/passwd", nullptr},
};

TEST_CASE("TimeZone::find knows IANA ids and UTC offsets") {
  for (const FindCase& c : kFindCases) {
    const std::string name = c.name;
    CAPTURE(name);
    const auto found = TimeZone::find(c.name);
    if (c.canonical == nullptr) {
      CHECK_FALSE(found.has_value());
      continue;
    }
    CHECK(found.has_value());
    if (!found) continue;
    CHECK(found->name() == c.canonical);
    CHECK(*found == *TimeZone::find(c.canonical));
  }
  CHECK(TimeZone::utc().name() == "UTC");
  CHECK(TimeZone().name() == "UTC");
}

struct ZoneCase {
  const char* zone;
  const char* utc;  // instant as UTC "YYYY-MM-DD HH:MM:SS"
  const char* abbreviation;
  int offset;
  const char* local;
  bool round_trips = true;  // false for the second occurrence of an ambiguous wall clock
};

const ZoneCase kZoneCases[] = {
    {"America/New_York", "2025-01-15 12:00:00", "EST", -18000, "2025-01-15 07:00:00"},
    {"America/New_York", "2025-07-15 12:00:00", "EDT", -14400, "2025-07-15 08:00:00"},
    {"America/New_York", "2025-03-09 06:59:59", "EST", -18000, "2025-03-09 01:59:59"},
    {"America/New_York", "2025-03-09 07:00:00", "EDT", -14400, "2025-03-09 03:00:00"},
    {"America/New_York", "2025-11-02 05:59:59", "EDT", -14400, "2025-11-02 01:59:59"},
    {"America/New_York", "2025-11-02 06:00:00", "EST", -18000, "2025-11-02 01:00:00", false},
    {"America/New_York", "2050-07-01 12:00:00", "EDT", -14400, "2050-07-01 08:00:00"},
    {"America/New_York", "2050-12-01 12:00:00", "EST", -18000, "2050-12-01 07:00:00"},
    {"America/New_York", "2050-03-13 06:59:59", "EST", -18000, "2050-03-13 01:59:59"},
    {"America/New_York", "2050-03-13 07:00:00", "EDT", -14400, "2050-03-13 03:00:00"},
    {"Europe/Berlin", "2025-01-15 12:00:00", "CET", 3600, "2025-01-15 13:00:00"},
    {"Europe/Berlin", "2025-07-15 12:00:00", "CEST", 7200, "2025-07-15 14:00:00"},
    {"Europe/Berlin", "2060-07-15 12:00:00", "CEST", 7200, "2060-07-15 14:00:00"},
    {"Europe/Dublin", "2025-07-15 12:00:00", "IST", 3600, "2025-07-15 13:00:00"},
    {"Europe/Dublin", "2050-07-15 12:00:00", "IST", 3600, "2050-07-15 13:00:00"},
    {"Europe/Dublin", "2050-01-15 12:00:00", "GMT", 0, "2050-01-15 12:00:00"},
    {"Australia/Sydney", "2050-01-15 12:00:00", "AEDT", 39600, "2050-01-15 23:00:00"},
    {"Australia/Sydney", "2050-07-15 12:00:00", "AEST", 36000, "2050-07-15 22:00:00"},
    {"Asia/Kolkata", "2025-05-14 10:00:00", "IST", 19800, "2025-05-14 15:30:00"},
    {"America/Sao_Paulo", "2025-05-14 10:00:00", "-03", -10800, "2025-05-14 07:00:00"},
    {"Etc/UTC", "2025-05-14 10:00:00", "UTC", 0, "2025-05-14 10:00:00"},
    {"UTC", "2025-05-14 10:00:00", "UTC", 0, "2025-05-14 10:00:00"},
    {"UTC+5:30", "2025-05-14 10:00:00", "UTC+5:30", 19800, "2025-05-14 15:30:00"},
    {"UTC+05:30", "2050-12-31 20:00:00", "UTC+5:30", 19800, "2051-01-01 01:30:00"},
    {"UTC-5", "2025-05-14 03:00:00", "UTC-5", -18000, "2025-05-13 22:00:00"},
    {"UTC-9:30", "2025-05-14 03:00:00", "UTC-9:30", -34200, "2025-05-13 17:30:00"},
};

TEST_CASE("TimeZone reports abbreviations, offsets and wall clocks") {
  for (const ZoneCase& c : kZoneCases) {
    const std::string zone = c.zone;
    CAPTURE(zone);
    const std::string utc = c.utc;
    CAPTURE(utc);
    const TimeZone tz = zone_named(c.zone);
    const Seconds instant = instant_of(c.utc);
    CHECK(tz.abbreviation(instant) == c.abbreviation);
    CHECK(tz.offset_seconds(instant) == c.offset);
    CHECK(cal::format_date_time(tz.to_local(instant)) == c.local);
    if (c.round_trips) CHECK(tz.to_instant(tz.to_local(instant)) == instant);
  }
}

struct IsoCase {
  const char* utc;
  const char* zone;
  const char* expected;
};

const IsoCase kIsoCases[] = {
    {"2025-05-02 13:00:00", "America/New_York", "2025-05-02T09:00:00-04:00"},
    {"2025-01-02 13:00:00", "America/New_York", "2025-01-02T08:00:00-05:00"},
    {"2025-05-02 13:00:00", "UTC", "2025-05-02T13:00:00+00:00"},
    {"2025-05-02 13:00:00", "Etc/UTC", "2025-05-02T13:00:00+00:00"},
    {"2025-05-02 13:00:00", "Europe/Berlin", "2025-05-02T15:00:00+02:00"},
    {"2025-05-02 13:00:00", "UTC+5:30", "2025-05-02T18:30:00+05:30"},
    {"2025-05-02 13:00:00", "UTC-5:30", "2025-05-02T07:30:00-05:30"},
    {"2025-05-02 13:00:00", "UTC-0:30", "2025-05-02T12:30:00-00:30"},
    {"2050-07-01 16:00:00", "America/New_York", "2050-07-01T12:00:00-04:00"},
    {"1970-01-01 00:00:00", "UTC", "1970-01-01T00:00:00+00:00"},
    // Local mean time (-4:56:02) is shown with the offset truncated to minutes.
    {"1850-01-01 12:00:00", "America/New_York", "1850-01-01T07:04:00-04:56"},
};

TEST_CASE("format_iso8601 writes the wall clock with its offset") {
  for (const IsoCase& c : kIsoCases) {
    const std::string utc = c.utc;
    CAPTURE(utc);
    const std::string zone = c.zone;
    CAPTURE(zone);
    const std::string text = cal::format_iso8601(instant_of(c.utc), zone_named(c.zone));
    CHECK(text == c.expected);
    const auto reparsed = cal::parse_date(text, TimeZone::utc(), instant_of(kNow));
    CHECK(reparsed.has_value());
    if (reparsed) CHECK(reparsed->instant == instant_of(c.utc));
  }
}

struct SqlCase {
  const char* text;
  bool valid;
};

const SqlCase kSqlCases[] = {
    {"2025-05-02 09:00:00", true},
    {"2024-02-29 23:59:59", true},
    {"0001-01-01 00:00:00", true},
    {"9999-12-31 23:59:59", true},
    {"2025-05-02T09:00:00", false},
    {"2025-05-02 09:00", false},
    {"2025-05-02", false},
    {"2025-02-29 00:00:00", false},
    {"2025-05-02 24:00:00", false},
    {"2025-05-02 09:60:00", false},
    {"0000-00-00 00:00:00", false},
    {" 2025-05-02 09:00:00", false},
    {"2025-05-02 09:00:00 ", false},
    {"2025-05-02  09:00:00", false},
    {"2025-05-02 09:00:00.5", false},
    {"", false},
};

TEST_CASE("parse_sql_date_time reads exactly the MySQL DATETIME form") {
  for (const SqlCase& c : kSqlCases) {
    const std::string text = c.text;
    CAPTURE(text);
    const auto parsed = cal::parse_sql_date_time(c.text);
    CHECK(parsed.has_value() == c.valid);
    if (c.valid && parsed) {
      CHECK(cal::format_date_time(*parsed) == c.text);
      CHECK(cal::is_valid_date_time(*parsed));
    }
  }
}

struct UtcCase {
  std::int64_t epoch;
  LocalDateTime utc;
};

const UtcCase kUtcCases[] = {
    {0, {1970, 1, 1, 0, 0, 0}},
    {-1, {1969, 12, 31, 23, 59, 59}},
    {951782400, {2000, 2, 29, 0, 0, 0}},
    {1747218030, {2025, 5, 14, 10, 20, 30}},
    {253402300799, {9999, 12, 31, 23, 59, 59}},
    {-62135596800, {1, 1, 1, 0, 0, 0}},
};

TEST_CASE("UTC wall clock conversions") {
  for (const UtcCase& c : kUtcCases) {
    CAPTURE(c.epoch);
    const Seconds instant{std::chrono::seconds{c.epoch}};
    CHECK(cal::to_utc_date_time(instant) == c.utc);
    CHECK(cal::from_utc_date_time(c.utc) == instant);
  }
  // Out-of-range fields roll over.
  CHECK(cal::to_utc_date_time(cal::from_utc_date_time({2025, 13, 1, 0, 0, 0})) ==
        LocalDateTime{2026, 1, 1, 0, 0, 0});
  CHECK(cal::to_utc_date_time(cal::from_utc_date_time({2025, 1, 32, 24, 0, 0})) ==
        LocalDateTime{2025, 2, 2, 0, 0, 0});
  CHECK(cal::format_date_time({2025, 5, 2, 9, 0, 0}) == "2025-05-02 09:00:00");
  CHECK(cal::format_date({2025, 5, 2, 9, 0, 0}) == "2025-05-02");
  CHECK_FALSE(cal::is_valid_date_time({2025, 2, 29, 0, 0, 0}));
  CHECK_FALSE(cal::is_valid_date_time({2025, 1, 1, 0, 0, 60}));
}

}  // namespace
