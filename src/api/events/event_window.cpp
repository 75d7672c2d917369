// The date window of GET /events (see cal/api/events/event_window.h).
#include "cal/api/events/event_window.h"

namespace cal {
namespace {

LocalDateTime at_clock(LocalDateTime day, int hour, int minute, int second) {
  day.hour = hour;
  day.minute = minute;
  day.second = second;
  return day;
}

}  // namespace

Seconds start_of_local_day(Seconds instant, const TimeZone& zone) {
  return zone.to_instant(at_clock(zone.to_local(instant), 0, 0, 0));
}

Seconds end_of_local_day(Seconds instant, const TimeZone& zone) {
  return zone.to_instant(at_clock(zone.to_local(instant), 23, 59, 59));
}

EventWindowResult compute_event_window(const EventDateFilters& f, const TimeZone& zone, Seconds now) {
  EventWindowResult result;
  if (f.include) return result;
  EventDateWindow& w = result.window;

  // Each filter: parse, then widen to the whole day unless strict.
  enum class Edge { kDayStart, kDayEnd };
  auto bound = [&](const std::optional<std::string>& text, const char* name,
                   Edge edge) -> std::optional<Seconds> {
    if (!text || !result.invalid_param.empty()) return std::nullopt;
    const auto parsed = parse_date(*text, zone, now);
    if (!parsed) {
      result.invalid_param = name;
      return std::nullopt;
    }
    if (f.strict) return parsed->instant;
    return edge == Edge::kDayStart ? start_of_local_day(parsed->instant, zone)
                                   : end_of_local_day(parsed->instant, zone);
  };
  w.start_min = bound(f.start_date, "start_date", Edge::kDayStart);
  w.end_max = bound(f.end_date, "end_date", Edge::kDayEnd);
  w.start_before = bound(f.starts_before, "starts_before", Edge::kDayStart);
  w.start_after = bound(f.starts_after, "starts_after", Edge::kDayEnd);
  w.end_before = bound(f.ends_before, "ends_before", Edge::kDayStart);
  w.end_after = bound(f.ends_after, "ends_after", Edge::kDayEnd);
  if (!result.invalid_param.empty()) {
    result.window = EventDateWindow{};
    return result;
  }

  const bool relative = f.starts_before || f.starts_after || f.ends_before || f.ends_after;
  if (!relative) {
    const LocalDateTime today = zone.to_local(now);
    if (!f.start_date) {
      LocalDateTime yesterday = at_clock(today, 0, 0, 0);
      yesterday.day -= 1;  // day 0 rolls back into the previous month
      w.start_min = zone.to_instant(yesterday);
    }
    if (!f.end_date) {
      LocalDateTime horizon = at_clock(today, 23, 59, 59);
      horizon.month += 24;  // rolls over like PHP's "+24 months"
      w.end_max = zone.to_instant(horizon);
    }
  }
  return result;
}

std::optional<Seconds> event_window_valid_until(const EventDateFilters& f, const TimeZone& zone,
                                                Seconds now) {
  if (f.include) return std::nullopt;
  // A text is relative when it reads differently at another time; the probe is far and odd
  // enough (400 days, 3 hours, 7 seconds later) to move every relative form.
  const Seconds later = now + std::chrono::hours(24 * 400 + 3) + std::chrono::seconds(7);
  bool relative_text = false;
  for (const auto* text :
       {&f.start_date, &f.end_date, &f.starts_before, &f.starts_after, &f.ends_before, &f.ends_after}) {
    if (!*text) continue;
    const auto a = parse_date(**text, zone, now);
    const auto b = parse_date(**text, zone, later);
    if (a.has_value() != b.has_value() || (a && a->instant != b->instant)) relative_text = true;
  }
  if (relative_text) return now + std::chrono::seconds(1);
  const bool relative_filters = f.starts_before || f.starts_after || f.ends_before || f.ends_after;
  if (relative_filters || (f.start_date && f.end_date)) return std::nullopt;
  LocalDateTime tomorrow = at_clock(zone.to_local(now), 0, 0, 0);
  tomorrow.day += 1;  // rolls over into the next month or year
  return zone.to_instant(tomorrow);
}

}  // namespace cal
