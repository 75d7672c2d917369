// Implementation of the wall-clock part of cal/core/dates/dates.h: LocalDateTime equality and
// validity, UTC conversions, and the text forms (MySQL DATETIME, ISO 8601). Time zones are in
// time_zone.cpp, parse_date in date_parser.cpp, the shared internals in civil_time.h,
// date_scanner.h and posix_tz.h.
#include "cal/core/dates/dates.h"

#include "core/dates/civil_time.h"
#include "core/dates/date_scanner.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace cal {
namespace {

using detail::date_time_from_epoch_seconds;
using detail::epoch_seconds;
using detail::is_valid_clock;
using detail::is_valid_date;
using detail::make_date_time;
using detail::scan_clock24;
using detail::scan_date;
using detail::Scanner;

std::string format_fields(const char* format, const LocalDateTime& t) {
  std::array<char, 96> buffer{};
  std::snprintf(buffer.data(), buffer.size(), format, t.year, t.month, t.day, t.hour, t.minute, t.second);
  return buffer.data();
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Public functions.

bool operator==(const LocalDateTime& a, const LocalDateTime& b) {
  return a.year == b.year && a.month == b.month && a.day == b.day && a.hour == b.hour &&
         a.minute == b.minute && a.second == b.second;
}

bool is_valid_date_time(const LocalDateTime& t) {
  return is_valid_date(t.year, t.month, t.day) && is_valid_clock(t.hour, t.minute, t.second);
}

std::string format_date_time(const LocalDateTime& t) {
  return format_fields("%04d-%02d-%02d %02d:%02d:%02d", t);
}

std::string format_date(const LocalDateTime& t) { return format_fields("%04d-%02d-%02d", t); }

std::optional<LocalDateTime> parse_sql_date_time(std::string_view text) {
  Scanner s(text);
  const auto date = scan_date(s);
  if (!date || !s.eat(' ')) return std::nullopt;
  const auto clock = scan_clock24(s, true);
  if (!clock || !s.at_end()) return std::nullopt;
  return make_date_time(*date, *clock);
}

LocalDateTime to_utc_date_time(Seconds instant) {
  return date_time_from_epoch_seconds(instant.time_since_epoch().count());
}

Seconds from_utc_date_time(const LocalDateTime& t) { return Seconds{std::chrono::seconds{epoch_seconds(t)}}; }

std::string format_iso8601(Seconds instant, const TimeZone& zone) {
  const int offset_minutes = zone.offset_seconds(instant) / 60;  // truncates LMT seconds
  const LocalDateTime local = to_utc_date_time(instant + std::chrono::minutes{offset_minutes});
  const int magnitude = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  std::array<char, 112> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", local.year,
                local.month, local.day, local.hour, local.minute, local.second,
                offset_minutes < 0 ? '-' : '+', magnitude / 60, magnitude % 60);
  return buffer.data();
}

}  // namespace cal
