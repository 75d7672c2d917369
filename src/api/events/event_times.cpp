// An event's start and end on writes (see cal/api/events/event_times.h).
#include "cal/api/events/event_times.h"

namespace cal {
namespace {

struct Side {
  LocalDateTime local;
  Seconds instant;
};

// The side from its text, or its stored wall clock; nullopt (with `error` set) when neither works.
std::optional<Side> resolve_side(const std::optional<std::string>& text,
                                 const std::optional<LocalDateTime>& current, const TimeZone& zone,
                                 Seconds now, EventTimesError missing, EventTimesError bad,
                                 EventTimesError& error) {
  if (text) {
    const auto parsed = parse_date(*text, zone, now);
    if (!parsed) {
      error = bad;
      return std::nullopt;
    }
    return Side{parsed->local, parsed->instant};
  }
  if (!current) {
    error = missing;
    return std::nullopt;
  }
  const Seconds instant = zone.to_instant(*current);
  return Side{zone.to_local(instant), instant};
}

Side round_to(const Side& side, const TimeZone& zone, int hour, int minute, int second) {
  LocalDateTime local = side.local;
  local.hour = hour;
  local.minute = minute;
  local.second = second;
  const Seconds instant = zone.to_instant(local);
  return Side{zone.to_local(instant), instant};
}

}  // namespace

EventTimesResult resolve_event_times(const EventTimesInput& input, const TimeZone& zone, Seconds now) {
  EventTimesResult result;
  auto start = resolve_side(input.start_text, input.current_start, zone, now, EventTimesError::kMissingStart,
                            EventTimesError::kBadStart, result.error);
  if (!start) return result;
  auto end = resolve_side(input.end_text, input.current_end, zone, now, EventTimesError::kMissingEnd,
                          EventTimesError::kBadEnd, result.error);
  if (!end) return result;
  if (input.all_day) {
    start = round_to(*start, zone, 0, 0, 0);
    end = round_to(*end, zone, 23, 59, 59);
  }
  result.times = EventTimes{start->local, end->local, start->instant, end->instant};
  if (end->instant < start->instant) result.error = EventTimesError::kEndBeforeStart;
  return result;
}

}  // namespace cal
