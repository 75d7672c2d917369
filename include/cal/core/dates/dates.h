// Dates and time zones for calendar-fcgi: wall-clock values, UTC instants, IANA and fixed-offset
// ("UTC+5:30") time zones, the parser for every date form the REST API accepts (docs/api.md §6) and the
// formatters for MySQL DATETIME text and ISO 8601. Pure functions; the only I/O is the system time
// zone database (/usr/share/zoneinfo), read once per zone on first use.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace cal {

// A UTC instant with whole-second precision.
using Seconds = std::chrono::time_point<std::chrono::system_clock, std::chrono::seconds>;

// A wall-clock date and time without a zone (proleptic Gregorian calendar). Values produced by
// this module always have year 1..9999 and fields within their calendar ranges.
struct LocalDateTime {
  int year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0;
};

// True when every field is equal.
bool operator==(const LocalDateTime&, const LocalDateTime&);

// True when the fields name a real calendar date and time: year 1..9999, month 1..12, a day that
// exists in that month, hour 0..23, minute 0..59, second 0..59.
bool is_valid_date_time(const LocalDateTime&);

// "YYYY-MM-DD HH:MM:SS" (the MySQL DATETIME text form), fields zero-padded.
std::string format_date_time(const LocalDateTime&);

// "YYYY-MM-DD", the date part only.
std::string format_date(const LocalDateTime&);

// Parses exactly "YYYY-MM-DD HH:MM:SS" (as stored in MySQL DATETIME) naming a valid date and
// time (see is_valid_date_time); nullopt for anything else, including surrounding spaces.
std::optional<LocalDateTime> parse_sql_date_time(std::string_view);

// The UTC wall clock of an instant.
LocalDateTime to_utc_date_time(Seconds);

// The instant whose UTC wall clock is the given one. Out-of-range fields roll over
// (month 13 is January of the next year, day 32 of January is February 1st, and so on).
Seconds from_utc_date_time(const LocalDateTime&);

namespace detail {
struct ZoneData;  // interned zone rules, defined in time_zone.cpp
}

// A time zone: an IANA zone from the system database ("America/New_York") or a fixed offset from
// UTC ("UTC+5:30", "UTC-5", "UTC"). Copying is copying one pointer; zones live for the whole
// process and may be used from any thread.
class TimeZone {
 public:
  // UTC, the same as TimeZone::utc().
  TimeZone();

  // The zone with the given name, or nullopt when unknown. Accepts IANA ids exactly as spelled in
  // the database and fixed offsets "UTC", "UTC+H", "UTC+HH", "UTC+H:MM", "UTC+HH:MM", "UTC+HHMM"
  // (sign '+' or '-', at most 14:00, prefix "UTC" in any case). Repeated lookups are cheap.
  static std::optional<TimeZone> find(std::string_view name);

  // Coordinated Universal Time, named "UTC".
  static TimeZone utc();

  // The zone's name: the IANA id as given, or the normalized fixed-offset form "UTC+5:30",
  // "UTC-5", "UTC" (zero offsets such as "UTC+0" and "UTC-00:00" are named "UTC").
  const std::string& name() const;

  // The wall clock in this zone at the instant.
  LocalDateTime to_local(Seconds instant) const;

  // The instant at which this zone's wall clock shows `local`. In a DST gap the time is moved
  // forward by the gap length (02:30 in a one-hour spring-forward gap becomes 03:30 local); an
  // ambiguous time (fall back) takes the earlier instant. Out-of-range fields roll over as in
  // from_utc_date_time.
  Seconds to_instant(const LocalDateTime& local) const;

  // The zone abbreviation in effect at the instant ("EST"/"EDT", "CET"/"CEST"; some IANA zones
  // use numeric forms such as "-03"). Fixed-offset zones return their name ("UTC+5:30", "UTC").
  std::string abbreviation(Seconds instant) const;

  // The offset from UTC in effect at the instant, in seconds (-18000 for EST).
  int offset_seconds(Seconds instant) const;
  // Whether daylight saving time is in effect at the instant (never for fixed offsets).
  bool is_dst(Seconds instant) const;
  // Whether this is a fixed offset from UTC ("UTC", "UTC+5:30") rather than an IANA zone.
  bool is_fixed_offset() const;

  // True when both are the same zone by name.
  friend bool operator==(const TimeZone& a, const TimeZone& b) { return a.data_ == b.data_; }

 private:
  explicit TimeZone(const detail::ZoneData* data) : data_(data) {}

  const detail::ZoneData* data_;  // interned for the whole process, never null
};

// Result of parsing a user-supplied date.
struct ParsedDate {
  Seconds instant;      // the UTC instant
  LocalDateTime local;  // that instant as wall clock in the zone passed to parse_date
  // The text named a time of day (or is a timestamp / relative with time / now).
  bool has_time = false;
};

// Parses every date form the API accepts (docs/api.md §6, PHP strtotime meanings), resolving relative
// forms and wall-clock times in `zone`, relative to `now`:
//   "2025-05-02", "2025-05-02 09:00", "2025-05-02 09:00:00";
//   ISO 8601 "2025-05-02T09:00:00[.fff][Z|+02:00|+0200]" (with Z or an offset: that exact instant);
//   Unix timestamps "1700000000", "@1700000000", "@-86400";
//   "now", "today", "tomorrow", "yesterday", "midnight", "noon";
//   "+N unit", "-N unit", "N unit", "N unit ago", "next unit", "last unit" with unit one of
//   sec(s)/second(s), min(s)/minute(s), hour(s), day(s), week(s), month(s), year(s);
//   "next <weekday>" (strictly after today), "last <weekday>" (strictly before today),
//   "<weekday>" / "this <weekday>" (today or the next one), full or 3-letter names;
//   each optionally combined with a time of day "9am", "9 am", "4:30pm", "16:00", "16:00:30",
//   "noon", "midnight" which replaces the time ("tomorrow 9am", "+5 days 11am").
// Parts are separated by spaces, in any order: at most one date / keyword / weekday, at most one
// time of day, any number of offsets ("today +3 days", "+1 day +2 hours"). A time of day alone
// means today at that time.
// Case-insensitive; extra spaces are ignored. Day, week, month and year offsets move the wall
// clock (months overflow like PHP: January 31st + 1 month is March 3rd or 2nd); second, minute and
// hour offsets move the instant. Dates without a time are at 00:00:00 and have has_time false.
// nullopt for anything else: invalid calendar dates or times, results outside years 1..9999,
// empty text, garbage. Never throws.
std::optional<ParsedDate> parse_date(std::string_view text, const TimeZone& zone, Seconds now);

// The ISO 8601 text of an instant in a zone with its offset: "2025-05-02T09:00:00-04:00",
// "...+00:00" for UTC. Offsets with a seconds part (local mean time before ~1900) are truncated
// to whole minutes and the wall clock shown matches the truncated offset, so the text always
// names the exact instant.
std::string format_iso8601(Seconds instant, const TimeZone& zone);

}  // namespace cal
