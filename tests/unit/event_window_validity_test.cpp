// Unit tests for event_window_valid_until (cal/api/events/event_window.h): how long the response cache
// may keep an event list whose date window was computed at some instant: relative dates move with
// the clock, so a stored list must expire when its window would change.
#include "cal/api/events/event_window.h"

#include <doctest/doctest.h>

#include <string>

namespace {

cal::Seconds instant_of(const char* text) {
  const auto parsed = cal::parse_sql_date_time(text);
  REQUIRE_MESSAGE(parsed.has_value(), "bad test instant ", text);
  return cal::from_utc_date_time(*parsed);
}

std::string text_of(const std::optional<cal::Seconds>& s) {
  return s ? cal::format_date_time(cal::to_utc_date_time(*s)) : "never";
}

}  // namespace

TEST_CASE("an event list window holds until the clock moves what it was computed from") {
  struct Case {
    const char* name;
    const char* zone;
    const char* now;  // UTC
    cal::EventDateFilters filters;
    const char* until;  // UTC, or "never"
  };
  const auto with = [](auto set) {
    cal::EventDateFilters f;
    set(f);
    return f;
  };
  const Case cases[] = {
      {"defaults: the next midnight", "UTC", "2025-05-14 10:20:30", {}, "2025-05-15 00:00:00"},
      {"default end only", "UTC", "2025-05-14 10:20:30", with([](auto& f) { f.start_date = "2025-01-01"; }),
       "2025-05-15 00:00:00"},
      {"default start only", "UTC", "2025-05-14 10:20:30",
       with([](auto& f) { f.end_date = "2026-01-01 12:00"; }), "2025-05-15 00:00:00"},
      {"site-local midnight", "America/New_York", "2025-05-14 03:00:00", {}, "2025-05-14 04:00:00"},
      {"month and year roll over", "UTC", "2025-12-31 23:59:59", {}, "2026-01-01 00:00:00"},
      {"absolute start and end", "UTC", "2025-05-14 10:20:30", with([](auto& f) {
         f.start_date = "2025-01-01";
         f.end_date = "2025-12-31T10:00:00Z";
       }),
       "never"},
      {"a relative filter drops the defaults", "UTC", "2025-05-14 10:20:30",
       with([](auto& f) { f.starts_after = "2025-01-01"; }), "never"},
      {"include drops every filter", "UTC", "2025-05-14 10:20:30", with([](auto& f) {
         f.include = true;
         f.start_date = "now";
       }),
       "never"},
      {"now", "UTC", "2025-05-14 10:20:30", with([](auto& f) { f.start_date = "now"; }),
       "2025-05-14 10:20:31"},
      {"today", "UTC", "2025-05-14 10:20:30", with([](auto& f) {
         f.start_date = "today";
         f.end_date = "2026-01-01";
       }),
       "2025-05-14 10:20:31"},
      {"+1 month", "UTC", "2025-05-14 10:20:30", with([](auto& f) {
         f.start_date = "2025-01-01";
         f.end_date = "+1 month";
       }),
       "2025-05-14 10:20:31"},
      {"next monday", "UTC", "2025-05-14 10:20:30", with([](auto& f) { f.ends_before = "next monday"; }),
       "2025-05-14 10:20:31"},
      {"a Unix timestamp", "UTC", "2025-05-14 10:20:30", with([](auto& f) { f.ends_after = "1700000000"; }),
       "never"},
  };
  for (const Case& c : cases) {
    const std::string captured = c.name;
    CAPTURE(captured);
    const auto zone = cal::TimeZone::find(c.zone);
    REQUIRE(zone.has_value());
    CHECK(text_of(cal::event_window_valid_until(c.filters, *zone, instant_of(c.now))) == c.until);
  }
}
