// Implementation of cal/core/dates.h: civil-calendar arithmetic on 64-bit day counts, the
// process-wide registry of time zones, and the parser for the API's date forms.
#include "cal/core/dates.h"

#include <date/date.h>
#include <date/tz.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>

namespace cal {
namespace detail {

// One transition of a POSIX TZ rule: "M3.2.0/2" (month.week.weekday), "J60" (day 1..365, never
// counting February 29th) or "59" (day 0..365, counting it), at `time` seconds of local time.
struct PosixTransition {
  char kind = 'M';  // 'M', 'J' or 'N'
  int month = 1, week = 1, weekday = 0, day = 0;
  std::int64_t time = 7200;
};

// A POSIX TZ rule as found in TZif footers: "EST5EDT,M3.2.0,M11.1.0", "<+0530>-5:30".
struct PosixZone {
  std::string std_abbrev, dst_abbrev;
  int std_offset = 0, dst_offset = 0;  // seconds east of UTC
  bool has_dst = false;
  PosixTransition start, end;  // into and out of DST
};

// Everything known about one zone. Interned in the registry and never freed.
struct ZoneData {
  std::string name;
  const date::time_zone* zone = nullptr;  // null for fixed offsets
  int fixed_offset = 0;                   // seconds east of UTC; fixed offsets only
  // The rule from the TZif footer, which governs instants after the zone's last tabulated
  // transition. The date library ignores it, so without it DST would stop after 2037.
  std::optional<PosixZone> tail;
  Seconds tail_begin{};  // the last tabulated transition; `tail` applies from here on
};

}  // namespace detail

namespace {

using detail::PosixTransition;
using detail::PosixZone;
using detail::ZoneData;
using std::int64_t;

constexpr int64_t kSecondsPerDay = 86400;
constexpr int kMinYear = 1;
constexpr int kMaxYear = 9999;
constexpr int kMaxFixedOffset = 14 * 3600;
constexpr std::size_t kMaxInputLength = 256;
constexpr const char* kZoneInfoDir = "/usr/share/zoneinfo/";

// ---------------------------------------------------------------------------------------------
// Civil calendar on int64 (Howard Hinnant's days_from_civil / civil_from_days algorithms).

struct CivilDate {
  int64_t year = 1970;
  int month = 1;
  int day = 1;
};

struct Clock {
  int hour = 0, minute = 0, second = 0;
};

constexpr int64_t floor_div(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}

constexpr int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

// Days since 1970-01-01 of year/month/1 plus (day - 1); month must be 1..12, day may be any value.
constexpr int64_t days_from_civil(int64_t year, int64_t month, int64_t day) {
  year -= month <= 2 ? 1 : 0;
  const int64_t era = floor_div(year, 400);
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

// Like days_from_civil, but the month may be out of range too and rolls into the year (PHP-style
// overflow: 2025-14-01 is 2026-02-01, 2025-02-31 is 2025-03-03).
constexpr int64_t days_from_fields(int64_t year, int64_t month, int64_t day) {
  return days_from_civil(year + floor_div(month - 1, 12), floor_mod(month - 1, 12) + 1, day);
}

constexpr CivilDate civil_from_days(int64_t days) {
  days += 719468;
  const int64_t era = floor_div(days, 146097);
  const int64_t day_of_era = days - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t shifted_month = (5 * day_of_year + 2) / 153;
  const int day = static_cast<int>(day_of_year - (153 * shifted_month + 2) / 5 + 1);
  const int month = static_cast<int>(shifted_month < 10 ? shifted_month + 3 : shifted_month - 9);
  return CivilDate{year_of_era + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

// 0 = Sunday .. 6 = Saturday.
constexpr int weekday_from_days(int64_t days) { return static_cast<int>(floor_mod(days + 4, 7)); }

constexpr bool is_leap_year(int64_t year) {
  return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

constexpr int days_in_month(int64_t year, int month) {
  constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap_year(year) ? 29 : kDays[static_cast<std::size_t>(month - 1)];
}

constexpr bool is_valid_date(int64_t year, int64_t month, int64_t day) {
  return year >= kMinYear && year <= kMaxYear && month >= 1 && month <= 12 && day >= 1 &&
         day <= days_in_month(year, static_cast<int>(month));
}

constexpr bool is_valid_clock(int64_t hour, int64_t minute, int64_t second) {
  return hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;
}

constexpr int64_t seconds_of_clock(const Clock& clock) {
  return int64_t{clock.hour} * 3600 + int64_t{clock.minute} * 60 + clock.second;
}

constexpr int64_t epoch_seconds(const LocalDateTime& t) {
  return days_from_fields(t.year, t.month, t.day) * kSecondsPerDay + int64_t{t.hour} * 3600 +
         int64_t{t.minute} * 60 + t.second;
}

LocalDateTime date_time_from_epoch_seconds(int64_t seconds) {
  const int64_t days = floor_div(seconds, kSecondsPerDay);
  const int64_t of_day = seconds - days * kSecondsPerDay;
  const CivilDate date = civil_from_days(days);
  return LocalDateTime{static_cast<int>(date.year),
                       date.month,
                       date.day,
                       static_cast<int>(of_day / 3600),
                       static_cast<int>(of_day / 60 % 60),
                       static_cast<int>(of_day % 60)};
}

LocalDateTime make_date_time(const CivilDate& date, const Clock& clock) {
  return LocalDateTime{
      static_cast<int>(date.year), date.month, date.day, clock.hour, clock.minute, clock.second};
}

// The instants this module hands out: 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59Z.
constexpr int64_t kMinEpochSeconds = days_from_civil(kMinYear, 1, 1) * kSecondsPerDay;
constexpr int64_t kMaxEpochSeconds = days_from_civil(kMaxYear + 1, 1, 1) * kSecondsPerDay - 1;

bool in_supported_range(int64_t epoch_seconds) {
  return epoch_seconds >= kMinEpochSeconds && epoch_seconds <= kMaxEpochSeconds;
}

// ---------------------------------------------------------------------------------------------
// Zones.

// The POSIX TZ rule on the last line of a TZif (version 2+) file, or nullopt.
std::optional<std::string> read_tzif_footer(const std::string& zone_name) {
  std::ifstream in(kZoneInfoDir + zone_name, std::ios::binary);
  std::array<char, 5> magic{};
  if (!in.read(magic.data(), magic.size()) || std::string_view(magic.data(), 4) != "TZif" ||
      magic[4] < '2') {
    return std::nullopt;
  }
  constexpr std::streamoff kTailBytes = 256;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff start = size > kTailBytes ? size - kTailBytes : 0;
  std::string tail(static_cast<std::size_t>(size - start), '\0');
  in.seekg(start);
  if (!in.read(tail.data(), static_cast<std::streamsize>(tail.size())) || tail.size() < 2 ||
      tail.back() != '\n') {
    return std::nullopt;
  }
  tail.pop_back();
  const std::size_t newline = tail.rfind('\n');
  if (newline == std::string::npos || newline + 1 == tail.size()) return std::nullopt;
  return tail.substr(newline + 1);
}

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

// Parses a POSIX TZ rule; nullopt for forms it does not handle (DST without explicit rules).
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

// Whether DST is in effect at the instant (seconds since the epoch) under the rule.
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

// The earlier-period offset for a wall clock under the rule (see earliest_offset).
int posix_earliest_offset(const PosixZone& zone, int64_t wall) {
  if (!zone.has_dst) return zone.std_offset;
  const bool std_fits = !posix_is_dst(zone, wall - zone.std_offset);
  const bool dst_fits = posix_is_dst(zone, wall - zone.dst_offset);
  if (std_fits && dst_fits) return std::max(zone.std_offset, zone.dst_offset);  // fall back
  if (std_fits) return zone.std_offset;
  if (dst_fits) return zone.dst_offset;
  return std::min(zone.std_offset, zone.dst_offset);  // gap: the offset before it
}

// Attaches the footer rule of an IANA zone, when its file has one this module understands.
void attach_tail_rule(ZoneData& data) {
  const std::optional<std::string> footer = read_tzif_footer(data.zone->name());
  if (!footer) return;
  data.tail = parse_posix_zone(*footer);
  const date::sys_days far_future = date::year{kMaxYear} / 1 / 1;
  data.tail_begin = data.zone->get_info(far_future).begin;
}

struct ZoneState {
  int offset = 0;  // seconds east of UTC
  std::string abbrev;
};

ZoneState zone_state_at(const ZoneData& data, Seconds instant) {
  if (data.tail && instant >= data.tail_begin) {
    const bool dst = posix_is_dst(*data.tail, instant.time_since_epoch().count());
    return dst ? ZoneState{data.tail->dst_offset, data.tail->dst_abbrev}
               : ZoneState{data.tail->std_offset, data.tail->std_abbrev};
  }
  const date::sys_info info = data.zone->get_info(instant);
  return ZoneState{static_cast<int>(info.offset.count()), info.abbrev};
}

// The offset of the earlier of the periods around a wall-clock time: in a gap the offset before
// the transition, when ambiguous the offset before falling back. Unique times have one offset.
int earliest_offset(const ZoneData& data, date::local_seconds wall) {
  const date::local_info info = data.zone->get_info(wall);
  if (data.tail && info.result == date::local_info::unique && info.first.begin >= data.tail_begin) {
    return posix_earliest_offset(*data.tail, wall.time_since_epoch().count());
  }
  return static_cast<int>(info.first.offset.count());
}

char to_lower_ascii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (to_lower_ascii(a[i]) != to_lower_ascii(b[i])) return false;
  }
  return true;
}

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

int to_int(std::string_view digits) {
  int value = 0;
  for (char c : digits) value = value * 10 + (c - '0');
  return value;
}

// Seconds east of UTC for "UTC", "UTC+H", "UTC+HH", "UTC+H:MM", "UTC+HH:MM", "UTC+HHMM" (either
// sign, "UTC" in any case, at most 14:00); nullopt for anything else.
std::optional<int> parse_fixed_offset(std::string_view name) {
  if (name.size() < 3 || !iequals(name.substr(0, 3), "utc")) return std::nullopt;
  std::string_view rest = name.substr(3);
  if (rest.empty()) return 0;
  if (rest[0] != '+' && rest[0] != '-') return std::nullopt;
  const int sign = rest[0] == '-' ? -1 : 1;
  rest.remove_prefix(1);
  std::string_view hours = rest;
  std::string_view minutes;
  if (const std::size_t colon = rest.find(':'); colon != std::string_view::npos) {
    hours = rest.substr(0, colon);
    minutes = rest.substr(colon + 1);
    if (minutes.size() != 2) return std::nullopt;
  } else if (rest.size() == 4) {
    hours = rest.substr(0, 2);
    minutes = rest.substr(2);
  }
  if (hours.empty() || hours.size() > 2 || !all_digits(hours)) return std::nullopt;
  if (!minutes.empty() && !all_digits(minutes)) return std::nullopt;
  const int h = to_int(hours);
  const int m = minutes.empty() ? 0 : to_int(minutes);
  const int total = h * 3600 + m * 60;
  if (m > 59 || total > kMaxFixedOffset) return std::nullopt;
  return sign * total;
}

// "UTC", "UTC+2", "UTC-5:30".
std::string fixed_offset_name(int offset) {
  if (offset == 0) return "UTC";
  const int magnitude = offset < 0 ? -offset : offset;
  std::string name = offset < 0 ? "UTC-" : "UTC+";
  name += std::to_string(magnitude / 3600);
  if (const int minutes = magnitude / 60 % 60; minutes != 0) {
    name += minutes < 10 ? ":0" : ":";
    name += std::to_string(minutes);
  }
  return name;
}

// All zones ever found, by name; entries are never removed, so pointers stay valid.
class ZoneRegistry {
 public:
  static ZoneRegistry& instance() {
    static ZoneRegistry* const registry = new ZoneRegistry;  // never destroyed: zones outlive all
    return *registry;
  }

  const ZoneData* find(std::string_view name) const {
    std::shared_lock lock(mutex_);
    const auto it = zones_.find(name);
    return it == zones_.end() ? nullptr : it->second.get();
  }

  // Adds the zone unless one of that name is present; returns the registered one.
  const ZoneData* add(std::unique_ptr<ZoneData> data) {
    std::string key = data->name;
    std::unique_lock lock(mutex_);
    return zones_.try_emplace(std::move(key), std::move(data)).first->second.get();
  }

  const ZoneData* utc() const { return utc_; }

 private:
  // The tz database is read on the first IANA lookup (date::locate_zone initializes it once,
  // thread-safely), not here: a UTC site never pays for it, which counts for CGI start-up.
  ZoneRegistry() {
    auto data = std::make_unique<ZoneData>();
    data->name = "UTC";
    utc_ = add(std::move(data));
  }

  mutable std::shared_mutex mutex_;
  std::map<std::string, std::unique_ptr<const ZoneData>, std::less<>> zones_;
  const ZoneData* utc_ = nullptr;
};

const ZoneData* find_fixed_zone(int offset) {
  ZoneRegistry& registry = ZoneRegistry::instance();
  std::string name = fixed_offset_name(offset);
  if (const ZoneData* found = registry.find(name)) return found;
  auto data = std::make_unique<ZoneData>();
  data->name = std::move(name);
  data->fixed_offset = offset;
  return registry.add(std::move(data));
}

const ZoneData* find_iana_zone(std::string_view name) {
  ZoneRegistry& registry = ZoneRegistry::instance();
  if (const ZoneData* found = registry.find(name)) return found;
  if (name == "localtime") return nullptr;  // the server's own zone, not an IANA id
  auto data = std::make_unique<ZoneData>();
  try {
    data->zone = date::locate_zone(name);
  } catch (const std::exception&) {
    return nullptr;  // unknown name (or no tz database)
  }
  data->name = std::string(name);
  attach_tail_rule(*data);
  return registry.add(std::move(data));
}

// ---------------------------------------------------------------------------------------------
// Text scanning.

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_lower_alpha(char c) { return c >= 'a' && c <= 'z'; }

// A cursor over lower-cased text. Copy it to try a form and assign it back to commit.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  bool at_end() const { return pos_ == text_.size(); }
  // True at the end of the text or before a space: where an item may end.
  bool at_boundary() const { return at_end() || is_space(text_[pos_]); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }

  bool eat(char c) {
    if (at_end() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  // Skips spaces; true if there were any.
  bool skip_spaces() {
    const std::size_t start = pos_;
    while (!at_end() && is_space(text_[pos_])) ++pos_;
    return pos_ != start;
  }

  // The run of digits here (possibly empty), consumed.
  std::string_view digits() { return take_while(is_digit); }

  // The run of letters here (possibly empty), consumed.
  std::string_view word() { return take_while(is_lower_alpha); }

  // A number of min_length..max_length digits (not followed by more digits), consumed.
  std::optional<int64_t> number(std::size_t min_length, std::size_t max_length) {
    Scanner probe = *this;
    const std::string_view run = probe.digits();
    if (run.size() < min_length || run.size() > max_length) return std::nullopt;
    *this = probe;
    int64_t value = 0;
    for (char c : run) value = value * 10 + (c - '0');
    return value;
  }

 private:
  std::string_view take_while(bool (*accept)(char)) {
    const std::size_t start = pos_;
    while (!at_end() && accept(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

// "YYYY-MM-DD" naming a real date.
std::optional<CivilDate> scan_date(Scanner& s) {
  const auto year = s.number(4, 4);
  if (!year || !s.eat('-')) return std::nullopt;
  const auto month = s.number(2, 2);
  if (!month || !s.eat('-')) return std::nullopt;
  const auto day = s.number(2, 2);
  if (!day || !is_valid_date(*year, *month, *day)) return std::nullopt;
  return CivilDate{*year, static_cast<int>(*month), static_cast<int>(*day)};
}

// "HH:MM:SS" on a 24-hour clock, or also "HH:MM" unless seconds_required.
std::optional<Clock> scan_clock24(Scanner& s, bool seconds_required) {
  const auto hour = s.number(2, 2);
  if (!hour || !s.eat(':')) return std::nullopt;
  const auto minute = s.number(2, 2);
  if (!minute) return std::nullopt;
  std::optional<int64_t> second = 0;
  if (s.eat(':')) {
    second = s.number(2, 2);
  } else if (seconds_required) {
    return std::nullopt;
  }
  if (!second || !is_valid_clock(*hour, *minute, *second)) return std::nullopt;
  return Clock{static_cast<int>(*hour), static_cast<int>(*minute), static_cast<int>(*second)};
}

// A time of day: "16:00", "16:00:30", "9am", "9 am", "4:30pm", "4:30:15 pm".
std::optional<Clock> scan_time_of_day(Scanner& s) {
  Scanner probe = s;
  const auto hour = probe.number(1, 2);
  if (!hour) return std::nullopt;
  int64_t minute = 0;
  int64_t second = 0;
  const bool has_minutes = probe.eat(':');
  if (has_minutes) {
    const auto m = probe.number(2, 2);
    if (!m) return std::nullopt;
    minute = *m;
    if (probe.eat(':')) {
      const auto sec = probe.number(2, 2);
      if (!sec) return std::nullopt;
      second = *sec;
    }
  }
  Scanner meridiem = probe;
  meridiem.skip_spaces();
  const std::string_view suffix = meridiem.word();
  int64_t h = *hour;
  if (suffix == "am" || suffix == "pm") {
    if (h < 1 || h > 12) return std::nullopt;
    h = h % 12 + (suffix == "pm" ? 12 : 0);
    probe = meridiem;
  } else if (!has_minutes) {
    return std::nullopt;  // a bare number is not a time
  }
  if (!is_valid_clock(h, minute, second)) return std::nullopt;
  s = probe;
  return Clock{static_cast<int>(h), static_cast<int>(minute), static_cast<int>(second)};
}

// "Z", "+HH:MM", "+HHMM", "+HH" (or '-'): seconds east of UTC.
std::optional<int> scan_utc_offset(Scanner& s) {
  if (s.eat('z')) return 0;
  int sign = 1;
  if (s.eat('-')) {
    sign = -1;
  } else if (!s.eat('+')) {
    return std::nullopt;
  }
  const std::string_view run = s.digits();
  std::string_view hours = run;
  std::string_view minutes;
  if (run.size() == 4) {
    hours = run.substr(0, 2);
    minutes = run.substr(2);
  } else if (run.size() == 2 && s.eat(':')) {
    minutes = s.digits();
    if (minutes.size() != 2) return std::nullopt;
  }
  if (hours.size() != 2) return std::nullopt;
  const int h = to_int(hours);
  const int m = minutes.empty() ? 0 : to_int(minutes);
  if (h > 23 || m > 59) return std::nullopt;
  return sign * (h * 3600 + m * 60);
}

// ---------------------------------------------------------------------------------------------
// Date phrases ("tomorrow 9am", "+5 days", "next wednesday 4pm", "2025-05-02 16:00").

enum class Unit { kSecond, kMinute, kHour, kDay, kWeek, kMonth, kYear };

std::optional<Unit> unit_from_word(std::string_view word) {
  // clang-format off
  static constexpr std::array<std::pair<std::string_view, Unit>, 18> kUnits = {{
      {"sec", Unit::kSecond}, {"secs", Unit::kSecond},
      {"second", Unit::kSecond}, {"seconds", Unit::kSecond},
      {"min", Unit::kMinute}, {"mins", Unit::kMinute},
      {"minute", Unit::kMinute}, {"minutes", Unit::kMinute},
      {"hour", Unit::kHour}, {"hours", Unit::kHour},
      {"day", Unit::kDay}, {"days", Unit::kDay},
      {"week", Unit::kWeek}, {"weeks", Unit::kWeek},
      {"month", Unit::kMonth}, {"months", Unit::kMonth},
      {"year", Unit::kYear}, {"years", Unit::kYear},
  }};
  // clang-format on
  for (const auto& [name, unit] : kUnits) {
    if (name == word) return unit;
  }
  return std::nullopt;
}

// 0 = Sunday .. 6 = Saturday.
std::optional<int> weekday_from_word(std::string_view word) {
  // clang-format off
  static constexpr std::array<std::pair<std::string_view, int>, 17> kWeekdays = {{
      {"sunday", 0}, {"sun", 0},
      {"monday", 1}, {"mon", 1},
      {"tuesday", 2}, {"tue", 2}, {"tues", 2},
      {"wednesday", 3}, {"wed", 3},
      {"thursday", 4}, {"thu", 4}, {"thur", 4}, {"thurs", 4},
      {"friday", 5}, {"fri", 5},
      {"saturday", 6}, {"sat", 6},
  }};
  // clang-format on
  for (const auto& [name, weekday] : kWeekdays) {
    if (name == word) return weekday;
  }
  return std::nullopt;
}

// Offsets accumulated from "+N unit" items: calendar parts move the wall clock, `seconds` the
// instant.
struct Relative {
  int64_t years = 0, months = 0, days = 0, seconds = 0;
  bool moves_clock = false;  // some second/minute/hour offset was given

  void add(Unit unit, int64_t n) {
    switch (unit) {
      case Unit::kSecond:
        seconds += n;
        moves_clock = true;
        break;
      case Unit::kMinute:
        seconds += n * 60;
        moves_clock = true;
        break;
      case Unit::kHour:
        seconds += n * 3600;
        moves_clock = true;
        break;
      case Unit::kDay:
        days += n;
        break;
      case Unit::kWeek:
        days += n * 7;
        break;
      case Unit::kMonth:
        months += n;
        break;
      case Unit::kYear:
        years += n;
        break;
    }
  }
};

enum class WeekdayMode { kThisOrNext, kNext, kLast };

// What a phrase said, before resolving it against a zone and a current time.
struct Phrase {
  enum class Base { kNone, kNow, kDate, kDayShift, kWeekday };
  Base base = Base::kNone;  // at most one of: a date, now/today/tomorrow/yesterday, a weekday
  CivilDate date;           // kDate
  int day_shift = 0;        // kDayShift: today 0, tomorrow 1, yesterday -1
  int weekday = 0;          // kWeekday, 0 = Sunday
  WeekdayMode weekday_mode = WeekdayMode::kThisOrNext;
  std::optional<Clock> time;  // an explicit time of day
  Relative relative;

  // True when the base starts the day at 00:00 instead of keeping the current time.
  bool resets_time() const {
    return base == Base::kDate || base == Base::kDayShift || base == Base::kWeekday;
  }
};

bool set_base(Phrase& p, Phrase::Base base) {
  if (p.base != Phrase::Base::kNone) return false;
  p.base = base;
  return true;
}

bool set_time(Phrase& p, Clock clock) {
  if (p.time) return false;
  p.time = clock;
  return true;
}

bool set_weekday(Phrase& p, int weekday, WeekdayMode mode) {
  p.weekday = weekday;
  p.weekday_mode = mode;
  return set_base(p, Phrase::Base::kWeekday);
}

bool set_day_shift(Phrase& p, int shift) {
  p.day_shift = shift;
  return set_base(p, Phrase::Base::kDayShift);
}

// "+5 days", "-1 week", "3 hours", "2 days ago", "+1day".
bool scan_relative_item(Scanner& s, Phrase& p) {
  int64_t sign = 1;
  if (s.eat('-')) {
    sign = -1;
  } else {
    s.eat('+');
  }
  const auto count = s.number(1, 9);
  if (!count) return false;
  s.skip_spaces();
  const auto unit = unit_from_word(s.word());
  if (!unit) return false;
  Scanner probe = s;
  if (probe.skip_spaces() && probe.word() == "ago") {
    s = probe;
    sign = -sign;
  }
  p.relative.add(*unit, sign * *count);
  return true;
}

// An item starting with a digit: a date, a time of day or a relative offset.
bool scan_numeric_item(Scanner& s, Phrase& p) {
  Scanner probe = s;
  if (const auto date = scan_date(probe)) {
    s = probe;
    p.date = *date;
    return set_base(p, Phrase::Base::kDate);
  }
  probe = s;
  if (const auto clock = scan_time_of_day(probe)) {
    s = probe;
    return set_time(p, *clock);
  }
  return scan_relative_item(s, p);
}

// "next friday", "last mon", "this sunday", "next week", "last year".
bool scan_next_last_item(Scanner& s, Phrase& p, std::string_view keyword) {
  if (!s.skip_spaces()) return false;
  const std::string_view word = s.word();
  if (const auto weekday = weekday_from_word(word)) {
    const WeekdayMode mode = keyword == "next"   ? WeekdayMode::kNext
                             : keyword == "this" ? WeekdayMode::kThisOrNext
                                                 : WeekdayMode::kLast;
    return set_weekday(p, *weekday, mode);
  }
  const auto unit = unit_from_word(word);
  if (!unit || keyword == "this") return false;
  p.relative.add(*unit, keyword == "next" ? 1 : -1);
  return true;
}

// An item starting with a letter: a keyword or a weekday.
bool scan_word_item(Scanner& s, Phrase& p) {
  const std::string_view word = s.word();
  if (word == "now") return set_base(p, Phrase::Base::kNow);
  if (word == "today") return set_day_shift(p, 0);
  if (word == "tomorrow") return set_day_shift(p, 1);
  if (word == "yesterday") return set_day_shift(p, -1);
  if (word == "noon") return set_time(p, Clock{12, 0, 0});
  if (word == "midnight") return set_time(p, Clock{0, 0, 0});
  if (word == "next" || word == "last" || word == "previous" || word == "this") {
    return scan_next_last_item(s, p, word);
  }
  if (const auto weekday = weekday_from_word(word)) {
    return set_weekday(p, *weekday, WeekdayMode::kThisOrNext);
  }
  return false;
}

bool scan_item(Scanner& s, Phrase& p) {
  const char c = s.peek();
  if (is_digit(c)) return scan_numeric_item(s, p);
  if (c == '+' || c == '-') return scan_relative_item(s, p);
  if (is_lower_alpha(c)) return scan_word_item(s, p);
  return false;
}

// Space-separated items until the end of the (trimmed) text.
std::optional<Phrase> scan_phrase(std::string_view text) {
  Scanner s(text);
  Phrase phrase;
  while (!s.at_end()) {
    if (!scan_item(s, phrase) || !s.at_boundary()) return std::nullopt;
    s.skip_spaces();
  }
  return phrase;
}

// Days from `today` (a weekday) to the target weekday under the mode.
int weekday_offset(int today, int target, WeekdayMode mode) {
  const int ahead = static_cast<int>(floor_mod(target - today, 7));
  const int behind = static_cast<int>(floor_mod(today - target, 7));
  switch (mode) {
    case WeekdayMode::kThisOrNext:
      return ahead;
    case WeekdayMode::kNext:
      return ahead == 0 ? 7 : ahead;
    case WeekdayMode::kLast:
      return -(behind == 0 ? 7 : behind);
  }
  return 0;
}

std::optional<ParsedDate> make_result(Seconds instant, const TimeZone& zone, bool has_time) {
  if (!in_supported_range(instant.time_since_epoch().count())) return std::nullopt;
  const LocalDateTime local = zone.to_local(instant);
  if (local.year < kMinYear || local.year > kMaxYear) return std::nullopt;
  return ParsedDate{instant, local, has_time};
}

std::optional<ParsedDate> resolve_phrase(const Phrase& p, const TimeZone& zone, Seconds now) {
  const LocalDateTime now_local = zone.to_local(now);
  const CivilDate base = p.base == Phrase::Base::kDate
                             ? p.date
                             : CivilDate{now_local.year, now_local.month, now_local.day};
  Clock clock{now_local.hour, now_local.minute, now_local.second};
  if (p.resets_time()) clock = Clock{};
  if (p.time) clock = *p.time;

  int64_t day_shift = 0;
  if (p.base == Phrase::Base::kDayShift) day_shift = p.day_shift;
  if (p.base == Phrase::Base::kWeekday) {
    const int today = weekday_from_days(days_from_civil(base.year, base.month, base.day));
    day_shift = weekday_offset(today, p.weekday, p.weekday_mode);
  }
  const Relative& rel = p.relative;
  const int64_t days = days_from_fields(base.year + rel.years, base.month + rel.months,
                                        base.day + rel.days + day_shift);
  const int64_t wall = days * kSecondsPerDay + seconds_of_clock(clock);
  if (!in_supported_range(wall)) return std::nullopt;
  const Seconds instant =
      zone.to_instant(date_time_from_epoch_seconds(wall)) + std::chrono::seconds{rel.seconds};
  const bool has_time = p.time.has_value() || !p.resets_time() || rel.moves_clock;
  return make_result(instant, zone, has_time);
}

// "1700000000", "@1700000000", "@-86400" (at most 12 digits).
std::optional<Seconds> parse_timestamp(std::string_view text) {
  Scanner s(text);
  const bool at = s.eat('@');
  const bool negative = at && s.eat('-');
  const auto value = s.number(1, 12);
  if (!value || !s.at_end()) return std::nullopt;
  return Seconds{std::chrono::seconds{negative ? -*value : *value}};
}

// "2025-05-02T09:00[:00][.123][Z|+02:00|+0200]" (the 'T' may also be spaces).
std::optional<ParsedDate> parse_iso8601(std::string_view text, const TimeZone& zone) {
  Scanner s(text);
  const auto date = scan_date(s);
  if (!date || !(s.eat('t') || s.skip_spaces())) return std::nullopt;
  const auto clock = scan_clock24(s, false);
  if (!clock) return std::nullopt;
  if ((s.eat('.') || s.eat(',')) && s.digits().empty()) return std::nullopt;
  std::optional<int> offset;
  if (!s.at_end()) {
    offset = scan_utc_offset(s);
    if (!offset || !s.at_end()) return std::nullopt;
  }
  const LocalDateTime local = make_date_time(*date, *clock);
  const Seconds instant =
      offset ? from_utc_date_time(local) - std::chrono::seconds{*offset} : zone.to_instant(local);
  return make_result(instant, zone, true);
}

// Trimmed, ASCII-lower-cased text; nullopt when empty or unreasonably long.
std::optional<std::string> normalize_input(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  if (text.empty() || text.size() > kMaxInputLength) return std::nullopt;
  std::string lower(text);
  for (char& c : lower) c = to_lower_ascii(c);
  return lower;
}

std::string format_fields(const char* format, const LocalDateTime& t) {
  std::array<char, 96> buffer{};
  std::snprintf(buffer.data(), buffer.size(), format, t.year, t.month, t.day, t.hour, t.minute,
                t.second);
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

Seconds from_utc_date_time(const LocalDateTime& t) {
  return Seconds{std::chrono::seconds{epoch_seconds(t)}};
}

TimeZone::TimeZone() : data_(ZoneRegistry::instance().utc()) {}

std::optional<TimeZone> TimeZone::find(std::string_view name) {
  if (const auto offset = parse_fixed_offset(name)) return TimeZone(find_fixed_zone(*offset));
  if (name.empty()) return std::nullopt;
  if (const ZoneData* data = find_iana_zone(name)) return TimeZone(data);
  return std::nullopt;
}

TimeZone TimeZone::utc() { return TimeZone(); }

const std::string& TimeZone::name() const { return data_->name; }

int TimeZone::offset_seconds(Seconds instant) const {
  if (data_->zone == nullptr) return data_->fixed_offset;
  return zone_state_at(*data_, instant).offset;
}

LocalDateTime TimeZone::to_local(Seconds instant) const {
  return to_utc_date_time(instant + std::chrono::seconds{offset_seconds(instant)});
}

Seconds TimeZone::to_instant(const LocalDateTime& local) const {
  const Seconds as_if_utc = from_utc_date_time(local);
  if (data_->zone == nullptr) return as_if_utc - std::chrono::seconds{data_->fixed_offset};
  const date::local_seconds wall{as_if_utc.time_since_epoch()};
  return as_if_utc - std::chrono::seconds{earliest_offset(*data_, wall)};
}

std::string TimeZone::abbreviation(Seconds instant) const {
  if (data_->zone == nullptr) return data_->name;
  return zone_state_at(*data_, instant).abbrev;
}

std::optional<ParsedDate> parse_date(std::string_view text, const TimeZone& zone, Seconds now) {
  try {
    const std::optional<std::string> input = normalize_input(text);
    if (!input) return std::nullopt;
    if (const auto timestamp = parse_timestamp(*input)) return make_result(*timestamp, zone, true);
    if (auto iso = parse_iso8601(*input, zone)) return iso;
    const std::optional<Phrase> phrase = scan_phrase(*input);
    if (!phrase) return std::nullopt;
    return resolve_phrase(*phrase, zone, now);
  } catch (const std::exception&) {
    return std::nullopt;  // only allocation failure can get here
  }
}

std::string format_iso8601(Seconds instant, const TimeZone& zone) {
  const int offset_minutes = zone.offset_seconds(instant) / 60;  // truncates LMT seconds
  const LocalDateTime local = to_utc_date_time(instant + std::chrono::minutes{offset_minutes});
  const int magnitude = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  std::array<char, 112> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d",
                local.year, local.month, local.day, local.hour, local.minute, local.second,
                offset_minutes < 0 ? '-' : '+', magnitude / 60, magnitude % 60);
  return buffer.data();
}

}  // namespace cal
