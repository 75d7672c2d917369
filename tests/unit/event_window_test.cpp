// Unit tests for cal/api/events/event_window.h: the date window of GET /events (docs/api.md §4.1) — defaults,
// their dropping, whole site-local days when not strict, exact instants when strict, include,
// time zones with DST, month and leap-year roll-over, invalid input.
#include "cal/api/events/event_window.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using cal::Seconds;
using cal::TimeZone;

Seconds instant_of(const char* text) {
  const auto parsed = cal::parse_sql_date_time(text);
  REQUIRE_MESSAGE(parsed.has_value(), "bad test instant ", text);
  return cal::from_utc_date_time(*parsed);
}

std::string text_of(const std::optional<Seconds>& s) {
  return s ? cal::format_date_time(cal::to_utc_date_time(*s)) : "-";
}

std::optional<std::string> opt(const char* s) { return s ? std::optional<std::string>(s) : std::nullopt; }

constexpr const char* kNow = "2025-05-14 10:20:30";  // a Wednesday, UTC

struct WindowCase {
  const char* name;
  const char* zone;
  // start_date, end_date, starts_before, starts_after, ends_before, ends_after (nullptr = absent)
  const char* inputs[6];
  bool strict;
  bool include;
  // Expected UTC bounds: start_min, end_max, start_before, start_after, end_before, end_after
  // ("-" = no bound).
  const char* expected[6];
  const char* invalid = "";
  const char* now = kNow;
};

const WindowCase kCases[] = {
    {"defaults", "UTC", {}, false, false, {"2025-05-13 00:00:00", "2027-05-14 23:59:59", "-", "-", "-", "-"}},
    {"defaults strict too",
     "UTC",
     {},
     true,
     false,
     {"2025-05-13 00:00:00", "2027-05-14 23:59:59", "-", "-", "-", "-"}},
    {"defaults in New York",
     "America/New_York",
     {},
     false,
     false,
     {"2025-05-13 04:00:00", "2027-05-15 03:59:59", "-", "-", "-", "-"}},
    {"defaults in UTC+5:30",
     "UTC+5:30",
     {},
     false,
     false,
     {"2025-05-12 18:30:00", "2027-05-14 18:29:59", "-", "-", "-", "-"}},
    {"defaults: New York evening is still the previous day",
     "America/New_York",
     {},
     false,
     false,
     {"2025-05-12 04:00:00", "2027-05-14 03:59:59", "-", "-", "-", "-"},
     "",
     "2025-05-14 02:00:00"},
    {"yesterday across a month end",
     "UTC",
     {},
     false,
     false,
     {"2025-02-28 00:00:00", "2027-03-01 23:59:59", "-", "-", "-", "-"},
     "",
     "2025-03-01 05:00:00"},
    {"yesterday across a year end",
     "UTC",
     {},
     false,
     false,
     {"2024-12-31 00:00:00", "2027-01-01 23:59:59", "-", "-", "-", "-"},
     "",
     "2025-01-01 00:00:00"},
    {"24 months from a leap day roll over like PHP",
     "UTC",
     {},
     false,
     false,
     {"2024-02-28 00:00:00", "2026-03-01 23:59:59", "-", "-", "-", "-"},
     "",
     "2024-02-29 12:00:00"},
    {"start_date: whole day",
     "UTC",
     {"2025-06-01"},
     false,
     false,
     {"2025-06-01 00:00:00", "2027-05-14 23:59:59", "-", "-", "-", "-"}},
    {"start_date with a time: still the whole day",
     "UTC",
     {"2025-06-01 15:00"},
     false,
     false,
     {"2025-06-01 00:00:00", "2027-05-14 23:59:59", "-", "-", "-", "-"}},
    {"start_date strict: the instant",
     "UTC",
     {"2025-06-01 15:00"},
     true,
     false,
     {"2025-06-01 15:00:00", "2027-05-14 23:59:59", "-", "-", "-", "-"}},
    {"start_date strict without time: midnight",
     "UTC",
     {"2025-06-01"},
     true,
     false,
     {"2025-06-01 00:00:00", "2027-05-14 23:59:59", "-", "-", "-", "-"}},
    {"end_date: end of day",
     "UTC",
     {nullptr, "2025-06-30"},
     false,
     false,
     {"2025-05-13 00:00:00", "2025-06-30 23:59:59", "-", "-", "-", "-"}},
    {"end_date with time: end of day",
     "UTC",
     {nullptr, "2025-06-30 08:00"},
     false,
     false,
     {"2025-05-13 00:00:00", "2025-06-30 23:59:59", "-", "-", "-", "-"}},
    {"end_date strict",
     "UTC",
     {nullptr, "2025-06-30 08:00"},
     true,
     false,
     {"2025-05-13 00:00:00", "2025-06-30 08:00:00", "-", "-", "-", "-"}},
    {"both dates",
     "UTC",
     {"2025-01-01", "2025-01-31"},
     false,
     false,
     {"2025-01-01 00:00:00", "2025-01-31 23:59:59", "-", "-", "-", "-"}},
    {"both dates in New York",
     "America/New_York",
     {"2025-01-01", "2025-01-31"},
     false,
     false,
     {"2025-01-01 05:00:00", "2025-02-01 04:59:59", "-", "-", "-", "-"}},
    {"start_date on a spring-forward day",
     "America/New_York",
     {"2025-03-09 12:00"},
     false,
     false,
     {"2025-03-09 05:00:00", "2027-05-15 03:59:59", "-", "-", "-", "-"}},
    {"end_date on a fall-back day",
     "America/New_York",
     {nullptr, "2025-11-02 01:30"},
     false,
     false,
     {"2025-05-13 04:00:00", "2025-11-03 04:59:59", "-", "-", "-", "-"}},
    {"an instant with Z lands on its site-local day",
     "America/New_York",
     {"2025-06-01T02:00:00Z"},
     false,
     false,
     {"2025-05-31 04:00:00", "2027-05-15 03:59:59", "-", "-", "-", "-"}},
    {"an instant with Z strict",
     "America/New_York",
     {"2025-06-01T02:00:00Z"},
     true,
     false,
     {"2025-06-01 02:00:00", "2027-05-15 03:59:59", "-", "-", "-", "-"}},
    {"relative form tomorrow",
     "UTC",
     {"tomorrow"},
     false,
     false,
     {"2025-05-15 00:00:00", "2027-05-14 23:59:59", "-", "-", "-", "-"}},
    {"relative form +1 week 3pm strict",
     "UTC",
     {"+1 week 3pm"},
     true,
     false,
     {"2025-05-21 15:00:00", "2027-05-14 23:59:59", "-", "-", "-", "-"}},
    {"relative form next monday in New York",
     "America/New_York",
     {"next monday"},
     false,
     false,
     {"2025-05-19 04:00:00", "2027-05-15 03:59:59", "-", "-", "-", "-"}},
    {"a Unix timestamp",
     "UTC",
     {"1748779200"},
     false,
     false,  // 2025-06-01 12:00:00 UTC
     {"2025-06-01 00:00:00", "2027-05-14 23:59:59", "-", "-", "-", "-"}},
    {"starts_before: before the day, defaults dropped",
     "UTC",
     {nullptr, nullptr, "2025-06-01 15:00"},
     false,
     false,
     {"-", "-", "2025-06-01 00:00:00", "-", "-", "-"}},
    {"starts_before strict",
     "UTC",
     {nullptr, nullptr, "2025-06-01 15:00"},
     true,
     false,
     {"-", "-", "2025-06-01 15:00:00", "-", "-", "-"}},
    {"starts_after: after the day",
     "UTC",
     {nullptr, nullptr, nullptr, "2025-06-01 09:00"},
     false,
     false,
     {"-", "-", "-", "2025-06-01 23:59:59", "-", "-"}},
    {"starts_after strict",
     "UTC",
     {nullptr, nullptr, nullptr, "2025-06-01 09:00"},
     true,
     false,
     {"-", "-", "-", "2025-06-01 09:00:00", "-", "-"}},
    {"ends_before: before the day",
     "UTC",
     {nullptr, nullptr, nullptr, nullptr, "2025-06-01 23:00"},
     false,
     false,
     {"-", "-", "-", "-", "2025-06-01 00:00:00", "-"}},
    {"ends_before strict",
     "UTC",
     {nullptr, nullptr, nullptr, nullptr, "2025-06-01 23:00"},
     true,
     false,
     {"-", "-", "-", "-", "2025-06-01 23:00:00", "-"}},
    {"ends_after: after the day",
     "UTC",
     {nullptr, nullptr, nullptr, nullptr, nullptr, "2025-06-01"},
     false,
     false,
     {"-", "-", "-", "-", "-", "2025-06-01 23:59:59"}},
    {"ends_after strict",
     "UTC",
     {nullptr, nullptr, nullptr, nullptr, nullptr, "2025-06-01"},
     true,
     false,
     {"-", "-", "-", "-", "-", "2025-06-01 00:00:00"}},
    {"ends_after in Berlin",
     "Europe/Berlin",
     {nullptr, nullptr, nullptr, nullptr, nullptr, "2025-01-10"},
     false,
     false,
     {"-", "-", "-", "-", "-", "2025-01-10 22:59:59"}},
    {"a relative filter keeps a given start_date but drops the end default",
     "UTC",
     {"2025-06-01", nullptr, nullptr, "2025-06-03"},
     false,
     false,
     {"2025-06-01 00:00:00", "-", "-", "2025-06-03 23:59:59", "-", "-"}},
    {"a relative filter keeps a given end_date",
     "UTC",
     {nullptr, "2025-07-01", "2025-06-20"},
     false,
     false,
     {"-", "2025-07-01 23:59:59", "2025-06-20 00:00:00", "-", "-", "-"}},
    {"all six",
     "UTC",
     {"2025-06-01", "2025-06-30", "2025-06-20", "2025-06-02", "2025-06-25", "2025-06-03"},
     false,
     false,
     {"2025-06-01 00:00:00", "2025-06-30 23:59:59", "2025-06-20 00:00:00", "2025-06-02 23:59:59",
      "2025-06-25 00:00:00", "2025-06-03 23:59:59"}},
    {"include ignores every date filter",
     "UTC",
     {"2025-06-01", "2025-06-30", "2025-06-20"},
     false,
     true,
     {"-", "-", "-", "-", "-", "-"}},
    {"include drops the defaults", "UTC", {}, false, true, {"-", "-", "-", "-", "-", "-"}},
    {"an invalid start_date",
     "UTC",
     {"not a date"},
     false,
     false,
     {"-", "-", "-", "-", "-", "-"},
     "start_date"},
    {"an invalid ends_after",
     "UTC",
     {nullptr, nullptr, nullptr, nullptr, nullptr, "2025-02-30"},
     false,
     false,
     {"-", "-", "-", "-", "-", "-"},
     "ends_after"},
    {"include does not even parse", "UTC", {"not a date"}, false, true, {"-", "-", "-", "-", "-", "-"}},
};

}  // namespace

TEST_CASE("compute_event_window: every filter, default and mode") {
  for (const WindowCase& c : kCases) {
    CAPTURE(c.name);
    cal::EventDateFilters f;
    f.start_date = opt(c.inputs[0]);
    f.end_date = opt(c.inputs[1]);
    f.starts_before = opt(c.inputs[2]);
    f.starts_after = opt(c.inputs[3]);
    f.ends_before = opt(c.inputs[4]);
    f.ends_after = opt(c.inputs[5]);
    f.strict = c.strict;
    f.include = c.include;
    const auto zone = TimeZone::find(c.zone);
    REQUIRE(zone.has_value());
    const cal::EventWindowResult r = cal::compute_event_window(f, *zone, instant_of(c.now));
    CHECK(r.invalid_param == c.invalid);
    CHECK(text_of(r.window.start_min) == c.expected[0]);
    CHECK(text_of(r.window.end_max) == c.expected[1]);
    CHECK(text_of(r.window.start_before) == c.expected[2]);
    CHECK(text_of(r.window.start_after) == c.expected[3]);
    CHECK(text_of(r.window.end_before) == c.expected[4]);
    CHECK(text_of(r.window.end_after) == c.expected[5]);
  }
}

TEST_CASE("start_of_local_day and end_of_local_day") {
  struct DayCase {
    const char* zone;
    const char* instant;
    const char* start;
    const char* end;
  };
  static const DayCase kDays[] = {
      {"UTC", "2025-05-14 10:20:30", "2025-05-14 00:00:00", "2025-05-14 23:59:59"},
      {"America/New_York", "2025-05-14 02:00:00", "2025-05-13 04:00:00", "2025-05-14 03:59:59"},
      {"Asia/Kolkata", "2025-05-14 20:00:00", "2025-05-14 18:30:00", "2025-05-15 18:29:59"},
      {"UTC-5", "2025-01-01 03:00:00", "2024-12-31 05:00:00", "2025-01-01 04:59:59"},
  };
  for (const DayCase& c : kDays) {
    CAPTURE(c.zone);
    CAPTURE(c.instant);
    const auto zone = TimeZone::find(c.zone);
    REQUIRE(zone.has_value());
    CHECK(text_of(cal::start_of_local_day(instant_of(c.instant), *zone)) == c.start);
    CHECK(text_of(cal::end_of_local_day(instant_of(c.instant), *zone)) == c.end);
  }
}
