// Unit tests for cal/api/events/event_times.h: an event's start and end on create and update — wall
// clock in the event zone, offsets and timestamps shown in the event zone, relative forms,
// all-day rounding, one-sided updates, zone changes, DST gaps, and end-before-start.
#include "cal/api/events/event_times.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using cal::EventTimesError;

constexpr const char* kNow = "2025-05-14 10:20:30";  // a Wednesday, UTC

struct TimesCase {
  const char* name;
  const char* zone;
  const char* start;          // start_date sent (nullptr = absent)
  const char* end;            // end_date sent
  const char* current_start;  // stored wall clock (nullptr = create)
  const char* current_end;
  bool all_day;
  // Expected: local start, local end, UTC start, UTC end ("" when an error is expected).
  const char* start_local;
  const char* end_local;
  const char* start_utc;
  const char* end_utc;
  EventTimesError error = EventTimesError::kNone;
};

const TimesCase kCases[] = {
    {"wall clock in UTC", "UTC", "2025-06-01 09:00", "2025-06-01 11:00", nullptr, nullptr, false,
     "2025-06-01 09:00:00", "2025-06-01 11:00:00", "2025-06-01 09:00:00", "2025-06-01 11:00:00"},
    {"wall clock in New York (EDT)", "America/New_York", "2025-06-01 09:00", "2025-06-01 11:00", nullptr,
     nullptr, false, "2025-06-01 09:00:00", "2025-06-01 11:00:00", "2025-06-01 13:00:00",
     "2025-06-01 15:00:00"},
    {"wall clock in New York (EST)", "America/New_York", "2025-01-15 09:00", "2025-01-15 11:00", nullptr,
     nullptr, false, "2025-01-15 09:00:00", "2025-01-15 11:00:00", "2025-01-15 14:00:00",
     "2025-01-15 16:00:00"},
    {"fixed offset zone", "UTC+5:30", "2025-06-01 09:00", "2025-06-01 10:00", nullptr, nullptr, false,
     "2025-06-01 09:00:00", "2025-06-01 10:00:00", "2025-06-01 03:30:00", "2025-06-01 04:30:00"},
    {"negative fixed offset", "UTC-3", "2025-06-01 23:00", "2025-06-02 01:00", nullptr, nullptr, false,
     "2025-06-01 23:00:00", "2025-06-02 01:00:00", "2025-06-02 02:00:00", "2025-06-02 04:00:00"},
    {"Z instants are shown in the event zone", "Europe/Berlin", "2025-06-01T07:00:00Z",
     "2025-06-01T09:30:00Z", nullptr, nullptr, false, "2025-06-01 09:00:00", "2025-06-01 11:30:00",
     "2025-06-01 07:00:00", "2025-06-01 09:30:00"},
    {"offset instants are shown in the event zone", "America/New_York", "2025-06-01T09:00:00+02:00",
     "2025-06-01T10:00:00+02:00", nullptr, nullptr, false, "2025-06-01 03:00:00", "2025-06-01 04:00:00",
     "2025-06-01 07:00:00", "2025-06-01 08:00:00"},
    {"Unix timestamps", "Asia/Tokyo", "1748779200", "1748782800", nullptr, nullptr, false,
     "2025-06-01 21:00:00", "2025-06-01 22:00:00", "2025-06-01 12:00:00", "2025-06-01 13:00:00"},
    {"relative forms in the event zone", "America/New_York", "tomorrow 9am", "tomorrow 5pm", nullptr, nullptr,
     false, "2025-05-15 09:00:00", "2025-05-15 17:00:00", "2025-05-15 13:00:00", "2025-05-15 21:00:00"},
    {"next weekday with time", "UTC", "next friday 4pm", "next friday 6pm", nullptr, nullptr, false,
     "2025-05-16 16:00:00", "2025-05-16 18:00:00", "2025-05-16 16:00:00", "2025-05-16 18:00:00"},
    {"all day rounds to whole local days", "America/New_York", "2025-06-01 09:00", "2025-06-03 11:00",
     nullptr, nullptr, true, "2025-06-01 00:00:00", "2025-06-03 23:59:59", "2025-06-01 04:00:00",
     "2025-06-04 03:59:59"},
    {"all day on dates only", "UTC", "2025-06-01", "2025-06-01", nullptr, nullptr, true,
     "2025-06-01 00:00:00", "2025-06-01 23:59:59", "2025-06-01 00:00:00", "2025-06-01 23:59:59"},
    {"all day uses the local day of an instant", "Asia/Tokyo", "2025-06-01T20:00:00Z", "2025-06-01T21:00:00Z",
     nullptr, nullptr, true, "2025-06-02 00:00:00", "2025-06-02 23:59:59", "2025-06-01 15:00:00",
     "2025-06-02 14:59:59"},
    {"end equal to start is fine", "UTC", "2025-06-01 09:00", "2025-06-01 09:00", nullptr, nullptr, false,
     "2025-06-01 09:00:00", "2025-06-01 09:00:00", "2025-06-01 09:00:00", "2025-06-01 09:00:00"},
    {"end before start", "UTC", "2025-06-01 09:00", "2025-06-01 08:59:59", nullptr, nullptr, false, "", "",
     "", "", EventTimesError::kEndBeforeStart},
    {"end before start across zones of the text", "UTC", "2025-06-01T10:00:00+00:00",
     "2025-06-01T11:00:00+02:00", nullptr, nullptr, false, "", "", "", "", EventTimesError::kEndBeforeStart},
    {"bad start", "UTC", "2025-02-30 10:00", "2025-03-01", nullptr, nullptr, false, "", "", "", "",
     EventTimesError::kBadStart},
    {"bad end", "UTC", "2025-03-01", "soon", nullptr, nullptr, false, "", "", "", "",
     EventTimesError::kBadEnd},
    {"missing start on create", "UTC", nullptr, "2025-03-01", nullptr, nullptr, false, "", "", "", "",
     EventTimesError::kMissingStart},
    {"missing end on create", "UTC", "2025-03-01", nullptr, nullptr, nullptr, false, "", "", "", "",
     EventTimesError::kMissingEnd},
    {"update: only start, end kept", "UTC", "2025-06-01 08:00", nullptr, "2025-06-01 09:00:00",
     "2025-06-01 10:00:00", false, "2025-06-01 08:00:00", "2025-06-01 10:00:00", "2025-06-01 08:00:00",
     "2025-06-01 10:00:00"},
    {"update: only end, start kept", "UTC", nullptr, "2025-06-02 10:00", "2025-06-01 09:00:00",
     "2025-06-01 10:00:00", false, "2025-06-01 09:00:00", "2025-06-02 10:00:00", "2025-06-01 09:00:00",
     "2025-06-02 10:00:00"},
    {"update: only start, after the kept end", "UTC", "2025-06-01 11:00", nullptr, "2025-06-01 09:00:00",
     "2025-06-01 10:00:00", false, "", "", "", "", EventTimesError::kEndBeforeStart},
    {"update: zone change keeps the wall clock", "Europe/Berlin", nullptr, nullptr, "2025-06-01 09:00:00",
     "2025-06-01 10:00:00", false, "2025-06-01 09:00:00", "2025-06-01 10:00:00", "2025-06-01 07:00:00",
     "2025-06-01 08:00:00"},
    {"update: all day on stored times", "UTC", nullptr, nullptr, "2025-06-01 09:00:00", "2025-06-02 10:00:00",
     true, "2025-06-01 00:00:00", "2025-06-02 23:59:59", "2025-06-01 00:00:00", "2025-06-02 23:59:59"},
    {"DST gap moves forward", "America/New_York", "2025-03-09 02:30", "2025-03-09 04:00", nullptr, nullptr,
     false, "2025-03-09 03:30:00", "2025-03-09 04:00:00", "2025-03-09 07:30:00", "2025-03-09 08:00:00"},
    {"DST overlap takes the earlier instant", "America/New_York", "2025-11-02 01:30", "2025-11-02 03:00",
     nullptr, nullptr, false, "2025-11-02 01:30:00", "2025-11-02 03:00:00", "2025-11-02 05:30:00",
     "2025-11-02 08:00:00"},
};

std::optional<std::string> opt(const char* s) { return s ? std::optional<std::string>(s) : std::nullopt; }

}  // namespace

TEST_CASE("resolve_event_times: zones, forms, all-day, updates, errors") {
  const cal::Seconds now = cal::from_utc_date_time(*cal::parse_sql_date_time(kNow));
  for (const TimesCase& c : kCases) {
    CAPTURE(c.name);
    const auto zone = cal::TimeZone::find(c.zone);
    REQUIRE(zone.has_value());
    cal::EventTimesInput in;
    in.start_text = opt(c.start);
    in.end_text = opt(c.end);
    if (c.current_start) in.current_start = cal::parse_sql_date_time(c.current_start);
    if (c.current_end) in.current_end = cal::parse_sql_date_time(c.current_end);
    in.all_day = c.all_day;
    const cal::EventTimesResult r = cal::resolve_event_times(in, *zone, now);
    CHECK(static_cast<int>(r.error) == static_cast<int>(c.error));
    if (c.error != EventTimesError::kNone) continue;
    CHECK(cal::format_date_time(r.times.start_local) == c.start_local);
    CHECK(cal::format_date_time(r.times.end_local) == c.end_local);
    CHECK(cal::format_date_time(cal::to_utc_date_time(r.times.start)) == c.start_utc);
    CHECK(cal::format_date_time(cal::to_utc_date_time(r.times.end)) == c.end_utc);
  }
}
