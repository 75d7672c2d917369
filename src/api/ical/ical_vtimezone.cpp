// VTIMEZONE components (see cal/api/ical/ical_vtimezone.h).
#include "cal/api/ical/ical_vtimezone.h"
#include "api/ical/libical.h"

#include <map>
#include <mutex>
#include <utility>

namespace cal {
namespace {

using std::chrono::seconds;

constexpr seconds kStep{6 * 3600};

struct State {
  int offset;
  bool dst;
  bool operator==(const State&) const = default;
};

State state_at(const TimeZone& zone, Seconds t) { return {zone.offset_seconds(t), zone.is_dst(t)}; }

constexpr std::size_t kMaxCached = 512;

}  // namespace

icaltimetype floating_date_time(const LocalDateTime& t) {
  icaltimetype v = libical().icaltime_null_time();
  v.year = t.year;
  v.month = t.month;
  v.day = t.day;
  v.hour = t.hour;
  v.minute = t.minute;
  v.second = t.second;
  v.is_date = 0;
  return v;
}

std::vector<ZoneObservance> zone_observances(const TimeZone& zone, Seconds from, Seconds to) {
  std::vector<ZoneObservance> out;
  State current = state_at(zone, from);
  out.push_back({from, current.offset, current.offset, zone.abbreviation(from), current.dst});
  for (Seconds t = from; t < to;) {
    const Seconds next = std::min(t + kStep, to);
    const State s = state_at(zone, next);
    if (s == current) {
      t = next;
      continue;
    }
    // The first second of the new state lies in (t, next].
    Seconds lo = t, hi = next;
    while (hi - lo > seconds{1}) {
      const Seconds mid = lo + (hi - lo) / 2;
      (state_at(zone, mid) == current ? lo : hi) = mid;
    }
    const State changed = state_at(zone, hi);
    out.push_back({hi, current.offset, changed.offset, zone.abbreviation(hi), changed.dst});
    current = changed;
    t = hi;
  }
  return out;
}

icalcomponent* build_vtimezone(const TimeZone& zone, int first_year, int last_year) {
  const LibIcal& ical = libical();
  const Seconds from = from_utc_date_time({first_year, 1, 1, 0, 0, 0}) - seconds{86400};
  const Seconds to = from_utc_date_time({last_year + 1, 1, 1, 0, 0, 0}) + seconds{86400};
  icalcomponent* tz = ical.icalcomponent_new(ICAL_VTIMEZONE_COMPONENT);
  ical.icalcomponent_add_property(tz, ical.icalproperty_new_tzid(zone.name().c_str()));
  for (const ZoneObservance& o : zone_observances(zone, from, to)) {
    icalcomponent* part = ical.icalcomponent_new(o.dst ? ICAL_XDAYLIGHT_COMPONENT : ICAL_XSTANDARD_COMPONENT);
    // DTSTART is the wall clock of the change in the offset before it (RFC 5545 §3.6.5).
    ical.icalcomponent_add_property(part, ical.icalproperty_new_dtstart(floating_date_time(
                                              to_utc_date_time(o.start + seconds{o.offset_from}))));
    ical.icalcomponent_add_property(part, ical.icalproperty_new_tzoffsetfrom(o.offset_from));
    ical.icalcomponent_add_property(part, ical.icalproperty_new_tzoffsetto(o.offset_to));
    if (!o.abbrev.empty())
      ical.icalcomponent_add_property(part, ical.icalproperty_new_tzname(o.abbrev.c_str()));
    ical.icalcomponent_add_component(tz, part);
  }
  return tz;
}

icalcomponent* cached_vtimezone(const TimeZone& zone, int first_year, int last_year) {
  const LibIcal& ical = libical();
  static std::mutex mutex;
  // Never freed, and reachable to the end through this pointer (no destructor runs at exit while
  // a request thread may still read it, and leak checkers see it held).
  static auto* const cache = new std::map<std::string, icalcomponent*>();
  const std::string key = zone.name() + '\n' + std::to_string(first_year) + '\n' + std::to_string(last_year);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache->find(key); it != cache->end()) return ical.icalcomponent_new_clone(it->second);
  }
  icalcomponent* built = build_vtimezone(zone, first_year, last_year);
  std::lock_guard<std::mutex> lock(mutex);
  if (cache->size() >= kMaxCached || cache->count(key)) return built;
  cache->emplace(key, built);
  return ical.icalcomponent_new_clone(built);
}

}  // namespace cal
