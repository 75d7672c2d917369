// format_recurrence (cal/core/dates/recurrence.h): the normal form of a recurrence set, written so
// that parsing it again gives the same set, occurrence identities included: a value is written as
// the event zone's wall clock when that wall clock resolves to its instant, else in UTC.
#include "cal/core/dates/recurrence.h"

#include "core/dates/recurrence_rule.h"
#include "core/dates/recurrence_text.h"

#include <string_view>

namespace cal {
namespace {

// A TZID parameter, quoted when the name holds a character that ends a parameter ("UTC+5:30").
std::string tzid_param(const TimeZone& zone) {
  const std::string& name = zone.name();
  const bool quote = name.find_first_of(":;,") != std::string::npos;
  return ";TZID=" + (quote ? "\"" + name + "\"" : name);
}

// The lines of one property: wall clocks in the zone, UTC values, DATEs, then PERIODs (each
// kind in the zone, then in UTC); each line's values in the order given (by instant).
void add_lines(std::vector<std::string>& lines, std::string_view property,
               const std::vector<RecurrenceDate>& dates, const TimeZone& zone) {
  enum Group { kZone, kUtc, kDate, kZonePeriod, kUtcPeriod, kGroups };
  std::string values[kGroups];
  for (const RecurrenceDate& date : dates) {
    const bool in_zone = zone.to_instant(date.local) == date.instant;
    const Group group = date.is_date      ? kDate
                        : date.period_end ? (in_zone ? kZonePeriod : kUtcPeriod)
                        : in_zone         ? kZone
                                          : kUtc;
    std::string text = date.is_date ? detail::format_ical_date(date.local)
                       : in_zone    ? detail::format_ical_date_time(date.local)
                                    : detail::format_ical_utc(date.instant);
    if (date.period_end)
      text += "/" + detail::format_exact_duration((*date.period_end - date.instant).count());
    values[group] += (values[group].empty() ? "" : ",") + text;
  }
  const std::string heads[kGroups] = {tzid_param(zone), "", ";VALUE=DATE", tzid_param(zone) + ";VALUE=PERIOD",
                                      ";VALUE=PERIOD"};
  for (int group = 0; group < kGroups; ++group)
    if (!values[group].empty()) lines.push_back(std::string(property) + heads[group] + ":" + values[group]);
}

}  // namespace

std::vector<std::string> format_recurrence(const RecurrenceSet& set) {
  std::vector<std::string> lines;
  if (set.rule) lines.push_back("RRULE:" + detail::format_rule(*set.rule));
  add_lines(lines, "RDATE", set.rdates, set.first.zone);
  add_lines(lines, "EXDATE", set.exdates, set.first.zone);
  return lines;
}

}  // namespace cal
