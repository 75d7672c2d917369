// TimeZone (cal/core/dates/dates.h): the process-wide registry of time zones, IANA zones read one
// file at a time from the system database (core/dates/tzif.h, extended past the last tabulated
// transition by the TZif footer rule, see posix_tz.h) and fixed UTC± offsets, and the zone's
// offsets and abbreviations.
#include "cal/core/dates/dates.h"

#include "core/dates/civil_time.h"
#include "core/dates/date_scanner.h"
#include "core/dates/posix_tz.h"
#include "core/dates/tzif.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
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
  bool iana = false;     // false for fixed offsets
  Tzif history;          // IANA zones only
  int fixed_offset = 0;  // seconds east of UTC; fixed offsets only
  // The rule from the TZif footer, which governs instants after the zone's last tabulated
  // transition (files may tabulate only up to 2037, or to the last change of their rules).
  std::optional<PosixZone> tail;
  Seconds tail_begin{};  // the last tabulated transition; `tail` applies from here on
};

}  // namespace detail

namespace {

using detail::parse_posix_zone;
using detail::posix_earliest_offset;
using detail::posix_is_dst;
using detail::to_int;
using detail::Tzif;
using detail::TzifType;
using detail::ZoneData;

constexpr int kMaxFixedOffset = 14 * 3600;

// Attaches the footer rule of an IANA zone, when its file has one this module understands.
void attach_tail_rule(ZoneData& data) {
  if (data.history.footer.empty()) return;
  data.tail = parse_posix_zone(data.history.footer);
  data.tail_begin = data.history.transitions.empty()
                        ? Seconds::min()
                        : Seconds{std::chrono::seconds{data.history.transitions.back()}};
}

// The periods of a zone's history are numbered from -1 (before the first transition) to
// transitions.size() - 1 (from the last one on).
const TzifType& period_type(const Tzif& zone, std::ptrdiff_t period) {
  return zone.types[period < 0 ? zone.initial_type : zone.type_after[static_cast<std::size_t>(period)]];
}

std::int64_t period_begin(const Tzif& zone, std::ptrdiff_t period) {
  return period < 0 ? INT64_MIN : zone.transitions[static_cast<std::size_t>(period)];
}

std::int64_t period_end(const Tzif& zone, std::ptrdiff_t period) {
  const auto next = static_cast<std::size_t>(period + 1);
  return next < zone.transitions.size() ? zone.transitions[next] : INT64_MAX;
}

// The period holding an instant.
std::ptrdiff_t period_at(const Tzif& zone, std::int64_t instant) {
  const auto after = std::upper_bound(zone.transitions.begin(), zone.transitions.end(), instant);
  return (after - zone.transitions.begin()) - 1;
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
  const TzifType& type =
      period_type(data.history, period_at(data.history, instant.time_since_epoch().count()));
  return ZoneState{type.offset, type.abbrev, type.dst};
}

// The offset of the earlier of the periods around a wall-clock time: in a gap the offset before
// the transition, when ambiguous the offset before falling back. Unique times have one offset.
int earliest_offset(const ZoneData& data, std::int64_t wall) {
  const Tzif& zone = data.history;
  const std::ptrdiff_t last = static_cast<std::ptrdiff_t>(zone.transitions.size()) - 1;
  // Offsets stay within a day of UTC, so the periods that can hold the wall clock are the one
  // holding the same number read as UTC and its neighbours.
  const std::ptrdiff_t near = period_at(zone, wall);
  const std::ptrdiff_t from = std::max<std::ptrdiff_t>(-1, near - 2);
  const std::ptrdiff_t to = std::min(last, near + 2);
  std::optional<std::ptrdiff_t> first;
  int holding = 0;
  std::ptrdiff_t before_gap = from;
  for (std::ptrdiff_t p = from; p <= to; ++p) {
    const std::int64_t offset = period_type(zone, p).offset;
    const std::int64_t instant = wall - offset;
    if (instant >= period_begin(zone, p) && instant < period_end(zone, p)) {
      if (!first) first = p;
      ++holding;
    } else if (period_end(zone, p) != INT64_MAX && period_end(zone, p) + offset <= wall) {
      before_gap = p;  // this period's wall clocks all come before `wall`
    }
  }
  if (!first) return period_type(zone, before_gap).offset;
  if (data.tail && holding == 1 && period_begin(zone, *first) >= data.tail_begin.time_since_epoch().count()) {
    return posix_earliest_offset(*data.tail, wall);
  }
  return period_type(zone, *first).offset;
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
  // Each IANA zone's file is read on its first lookup, not here: a UTC site never reads one,
  // and a CGI process reads only the zones its request needs.
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
  std::optional<Tzif> history = detail::load_tzif(name);
  if (!history) return nullptr;  // unknown name (or no tz database)
  auto data = std::make_unique<ZoneData>();
  data->iana = true;
  data->history = std::move(*history);
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
  if (!data_->iana) return data_->fixed_offset;
  return zone_state_at(*data_, instant).offset;
}

LocalDateTime TimeZone::to_local(Seconds instant) const {
  return to_utc_date_time(instant + std::chrono::seconds{offset_seconds(instant)});
}

Seconds TimeZone::to_instant(const LocalDateTime& local) const {
  const Seconds as_if_utc = from_utc_date_time(local);
  if (!data_->iana) return as_if_utc - std::chrono::seconds{data_->fixed_offset};
  return as_if_utc - std::chrono::seconds{earliest_offset(*data_, as_if_utc.time_since_epoch().count())};
}

std::string TimeZone::abbreviation(Seconds instant) const {
  if (!data_->iana) return data_->name;
  return zone_state_at(*data_, instant).abbrev;
}

bool TimeZone::is_dst(Seconds instant) const {
  if (!data_->iana) return false;
  return zone_state_at(*data_, instant).dst;
}

bool TimeZone::is_fixed_offset() const { return !data_->iana; }

}  // namespace cal
