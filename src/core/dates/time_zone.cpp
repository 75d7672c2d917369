// TimeZone (cal/core/dates/dates.h): the process-wide registry of time zones, IANA zones from the
// system database via Howard Hinnant's date library (extended past 2037 by the TZif footer rule,
// see posix_tz.h) and fixed UTC± offsets, and the zone's offsets and abbreviations.
#include "cal/core/dates/dates.h"

#include "core/dates/civil_time.h"
#include "core/dates/date_scanner.h"
#include "core/dates/posix_tz.h"

#include <date/date.h>
#include <date/tz.h>

#include <cstddef>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <utility>

namespace cal {
namespace detail {

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

using detail::kMaxYear;
using detail::parse_posix_zone;
using detail::posix_earliest_offset;
using detail::posix_is_dst;
using detail::read_tzif_footer;
using detail::to_int;
using detail::ZoneData;

constexpr int kMaxFixedOffset = 14 * 3600;

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
  bool dst = false;
};

ZoneState zone_state_at(const ZoneData& data, Seconds instant) {
  if (data.tail && instant >= data.tail_begin) {
    const bool dst = posix_is_dst(*data.tail, instant.time_since_epoch().count());
    return dst ? ZoneState{data.tail->dst_offset, data.tail->dst_abbrev, true}
               : ZoneState{data.tail->std_offset, data.tail->std_abbrev, false};
  }
  const date::sys_info info = data.zone->get_info(instant);
  return ZoneState{static_cast<int>(info.offset.count()), info.abbrev, info.save != std::chrono::minutes{0}};
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

using ascii::all_digits;

// Seconds east of UTC for "UTC", "UTC+H", "UTC+HH", "UTC+H:MM", "UTC+HH:MM", "UTC+HHMM" (either
// sign, "UTC" in any case, at most 14:00); nullopt for anything else.
std::optional<int> parse_fixed_offset(std::string_view name) {
  if (name.size() < 3 || !ascii::starts_with_ignoring_case(name, "utc")) return std::nullopt;
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

}  // namespace

// ---------------------------------------------------------------------------------------------
// Public functions.

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

bool TimeZone::is_dst(Seconds instant) const {
  if (data_->zone == nullptr) return false;
  return zone_state_at(*data_, instant).dst;
}

bool TimeZone::is_fixed_offset() const { return data_->zone == nullptr; }

}  // namespace cal
