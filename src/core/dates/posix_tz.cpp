// POSIX TZ rules for the dates module (see core/dates/posix_tz.h): the rule
// parser ("EST5EDT,M3.2.0,M11.1.0") and the rule's DST and offset evaluation.
#include "core/dates/posix_tz.h"

#include "core/dates/civil_time.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace cal::detail {
namespace {

using std::int64_t;

// Consumes a POSIX zone abbreviation: "<+0530>" or three or more letters.
std::optional<std::string> consume_posix_abbrev(std::string_view& s) {
  std::size_t length = 0;
  if (!s.empty() && s[0] == '<') {
    const std::size_t close = s.find('>');
    if (close == std::string_view::npos || close < 2) return std::nullopt;
    std::string abbrev(s.substr(1, close - 1));
    s.remove_prefix(close + 1);
    return abbrev;
  }
  while (length < s.size() &&
         ((s[length] >= 'A' && s[length] <= 'Z') || (s[length] >= 'a' && s[length] <= 'z'))) {
    ++length;
  }
  if (length < 3) return std::nullopt;
  std::string abbrev(s.substr(0, length));
  s.remove_prefix(length);
  return abbrev;
}

// Consumes up to max_digits digits (at least one).
std::optional<int64_t> consume_posix_number(std::string_view& s, std::size_t max_digits) {
  std::size_t length = 0;
  int64_t value = 0;
  while (length < s.size() && length < max_digits && s[length] >= '0' && s[length] <= '9') {
    value = value * 10 + (s[length] - '0');
    ++length;
  }
  if (length == 0) return std::nullopt;
  s.remove_prefix(length);
  return value;
}

// Consumes "[+-]h[h[h]][:mm[:ss]]" as seconds.
std::optional<int64_t> consume_posix_time(std::string_view& s) {
  int64_t sign = 1;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    sign = s[0] == '-' ? -1 : 1;
    s.remove_prefix(1);
  }
  const auto hours = consume_posix_number(s, 3);
  if (!hours || *hours > 167) return std::nullopt;
  int64_t total = *hours * 3600;
  for (int64_t unit : {60, 1}) {
    if (s.empty() || s[0] != ':') break;
    s.remove_prefix(1);
    const auto part = consume_posix_number(s, 2);
    if (!part || *part > 59) return std::nullopt;
    total += *part * unit;
  }
  return sign * total;
}

// Consumes one transition: "M3.2.0", "J60", "59", each optionally followed by "/time".
std::optional<PosixTransition> consume_posix_transition(std::string_view& s) {
  PosixTransition t;
  if (!s.empty() && s[0] == 'M') {
    s.remove_prefix(1);
    const auto month = consume_posix_number(s, 2);
    if (!month || s.empty() || s[0] != '.') return std::nullopt;
    s.remove_prefix(1);
    const auto week = consume_posix_number(s, 1);
    if (!week || s.empty() || s[0] != '.') return std::nullopt;
    s.remove_prefix(1);
    const auto weekday = consume_posix_number(s, 1);
    if (!weekday || *month < 1 || *month > 12 || *week < 1 || *week > 5 || *weekday > 6) {
      return std::nullopt;
    }
    t.month = static_cast<int>(*month);
    t.week = static_cast<int>(*week);
    t.weekday = static_cast<int>(*weekday);
  } else {
    t.kind = 'N';
    if (!s.empty() && s[0] == 'J') {
      t.kind = 'J';
      s.remove_prefix(1);
    }
    const auto day = consume_posix_number(s, 3);
    if (!day || *day > 365 || (t.kind == 'J' && *day < 1)) return std::nullopt;
    t.day = static_cast<int>(*day);
  }
  if (!s.empty() && s[0] == '/') {
    s.remove_prefix(1);
    const auto time = consume_posix_time(s);
    if (!time) return std::nullopt;
    t.time = *time;
  }
  return t;
}

// Local seconds (since 1970 on the wall clock) at which the transition happens in `year`.
int64_t transition_wall_seconds(const PosixTransition& t, int64_t year) {
  const int64_t jan1 = days_from_civil(year, 1, 1);
  int64_t day = 0;
  if (t.kind == 'M') {
    const int64_t first = days_from_civil(year, t.month, 1);
    day = first + floor_mod(t.weekday - weekday_from_days(first), 7) + 7 * (t.week - 1);
    while (day >= first + days_in_month(year, t.month)) day -= 7;  // week 5 means "last"
  } else if (t.kind == 'J') {
    day = jan1 + t.day - 1 + (is_leap_year(year) && t.day >= 60 ? 1 : 0);
  } else {
    day = jan1 + t.day;
  }
  return day * kSecondsPerDay + t.time;
}

}  // namespace

std::optional<PosixZone> parse_posix_zone(std::string_view s) {
  PosixZone zone;
  auto std_abbrev = consume_posix_abbrev(s);
  const auto std_offset = std_abbrev ? consume_posix_time(s) : std::nullopt;
  if (!std_offset) return std::nullopt;
  zone.std_abbrev = std::move(*std_abbrev);
  zone.std_offset = static_cast<int>(-*std_offset);  // POSIX counts west of UTC
  if (s.empty()) return zone;
  auto dst_abbrev = consume_posix_abbrev(s);
  if (!dst_abbrev) return std::nullopt;
  zone.has_dst = true;
  zone.dst_abbrev = std::move(*dst_abbrev);
  zone.dst_offset = zone.std_offset + 3600;
  if (!s.empty() && s[0] != ',') {
    const auto dst_offset = consume_posix_time(s);
    if (!dst_offset) return std::nullopt;
    zone.dst_offset = static_cast<int>(-*dst_offset);
  }
  if (s.empty() || s[0] != ',') return std::nullopt;
  s.remove_prefix(1);
  const auto start = consume_posix_transition(s);
  if (!start || s.empty() || s[0] != ',') return std::nullopt;
  s.remove_prefix(1);
  const auto end = consume_posix_transition(s);
  if (!end || !s.empty()) return std::nullopt;
  zone.start = *start;
  zone.end = *end;
  return zone;
}

bool posix_is_dst(const PosixZone& zone, int64_t instant) {
  if (!zone.has_dst) return false;
  const int64_t year = civil_from_days(floor_div(instant, kSecondsPerDay)).year;
  bool dst = false;
  int64_t latest = std::numeric_limits<int64_t>::min();
  for (int64_t y = year - 1; y <= year + 1; ++y) {  // on a tie the later-listed change wins
    const int64_t end = transition_wall_seconds(zone.end, y) - zone.dst_offset;
    if (end <= instant && end >= latest) {
      latest = end;
      dst = false;
    }
    const int64_t start = transition_wall_seconds(zone.start, y) - zone.std_offset;
    if (start <= instant && start >= latest) {
      latest = start;
      dst = true;
    }
  }
  return dst;
}

int posix_earliest_offset(const PosixZone& zone, int64_t wall) {
  if (!zone.has_dst) return zone.std_offset;
  const bool std_fits = !posix_is_dst(zone, wall - zone.std_offset);
  const bool dst_fits = posix_is_dst(zone, wall - zone.dst_offset);
  if (std_fits && dst_fits) return std::max(zone.std_offset, zone.dst_offset);  // fall back
  if (std_fits) return zone.std_offset;
  if (dst_fits) return zone.dst_offset;
  return std::min(zone.std_offset, zone.dst_offset);  // gap: the offset before it
}

}  // namespace cal::detail
