// The recurrence of an imported VEVENT (see api/ical/ical_import_moment.h, docs/feeds.md): RRULE
// and EXRULE pass as written, so the service's own expander judges them and names the part it
// refuses; RDATE and EXDATE values become lines of the `recurrence` field with their zones
// resolved as DTSTART's are (a vendor-prefixed TZID as its IANA zone, one only a VTIMEZONE defines
// as UTC); a RECURRENCE-ID names the occurrence the VEVENT overrides.
#include "api/ical/ical_import_moment.h"

#include <cstdio>
#include <memory>

namespace cal {
namespace {

void refuse(IcalEventInput& out, std::string field, std::string msgid) {
  IcalProblem p;
  p.msgid = std::move(msgid);
  p.field = std::move(field);
  out.problem = std::move(p);
}

std::string compact(const LocalDateTime& t, bool date) {
  char b[32];
  if (date)
    std::snprintf(b, sizeof b, "%04d%02d%02d", t.year, t.month, t.day);
  else
    std::snprintf(b, sizeof b, "%04d%02d%02dT%02d%02d%02d", t.year, t.month, t.day, t.hour, t.minute,
                  t.second);
  return b;
}

// A zone name as a TZID parameter (quoted when it holds a ':').
std::string tzid_parameter(const TimeZone& zone) {
  const std::string name = zone.name();
  return ";TZID=" + (name.find(':') == std::string::npos ? name : "\"" + name + "\"");
}

// The parameters and the value of a moment as a line of `recurrence` writes them.
struct Written {
  std::string parameters;
  std::string value;
};

Written written(const IcalMoment& m) {
  switch (m.kind) {
    case IcalMoment::kDate:
      return {";VALUE=DATE", compact(m.wall, true)};
    case IcalMoment::kUtc:
      return {"", compact(m.wall, false) + "Z"};
    case IcalMoment::kZoned:
      return {tzid_parameter(*m.zone), compact(m.wall, false)};
    case IcalMoment::kFloating:
      break;
  }
  return {"", compact(m.wall, false)};
}

std::string duration_text(icaldurationtype d) {
  const LibIcal& ical = libical();
  std::unique_ptr<char, void (*)(void*)> text(ical.icaldurationtype_as_ical_string_r(d),
                                              ical.icalmemory_free_buffer);
  return text ? std::string(text.get()) : std::string();
}

// One RDATE value as a line; false (with out.problem) when its zone is unknown.
bool add_rdate(icalcomponent* calendar, icalproperty* p, IcalEventInput& out) {
  const LibIcal& ical = libical();
  const icaldatetimeperiodtype v = ical.icalproperty_get_rdate(p);
  if (!ical.icaltime_is_null_time(v.time)) {
    const auto m = moment_of(calendar, p, v.time, out.problem);
    if (!m) return false;
    const Written w = written(*m);
    out.recurrence.push_back("RDATE" + w.parameters + ":" + w.value);
    return true;
  }
  const auto start = moment_of(calendar, p, v.period.start, out.problem);
  if (!start) return false;
  std::string end;
  if (!ical.icaltime_is_null_time(v.period.end)) {
    const auto m = moment_of(calendar, p, v.period.end, out.problem);
    if (!m) return false;
    end = written(*m).value;
  } else {
    end = duration_text(v.period.duration);
  }
  const Written w = written(*start);
  out.recurrence.push_back("RDATE" + w.parameters + ";VALUE=PERIOD:" + w.value + "/" + end);
  return true;
}

// The original start a RECURRENCE-ID names; false (with out.problem) when it cannot be read.
bool read_recurrence_id(icalcomponent* calendar, icalproperty* p, IcalEventInput& out) {
  const LibIcal& ical = libical();
  if (icalparameter* range = ical.icalproperty_get_first_parameter(p, ICAL_RANGE_PARAMETER);
      range && ical.icalparameter_get_range(range) == ICAL_RANGE_THISANDFUTURE) {
    refuse(out, "RECURRENCE-ID",
           "RANGE=THISANDFUTURE is not imported: send the series again with its changed rule.");
    return false;
  }
  const auto m = moment_of(calendar, p, ical.icalproperty_get_recurrenceid(p), out.problem);
  if (!m) return false;
  IcalOriginalStart original;
  original.wall = format_date_time(m->wall);
  original.is_date = m->kind == IcalMoment::kDate;
  original.is_utc = m->kind == IcalMoment::kUtc;
  if (m->kind == IcalMoment::kZoned) original.zone = m->zone->name();
  const Written w = written(*m);
  original.exdate = "EXDATE" + w.parameters + ":" + w.value;
  out.recurrence_id = std::move(original);
  return true;
}

}  // namespace

void map_recurrence(icalcomponent* calendar, icalcomponent* ev, std::vector<std::string> rules,
                    IcalEventInput& out) {
  const LibIcal& ical = libical();
  if (icalproperty* p = ical.icalcomponent_get_first_property(ev, ICAL_STATUS_PROPERTY))
    out.cancelled = ical.icalproperty_get_status(p) == ICAL_STATUS_CANCELLED;
  if (icalproperty* p = ical.icalcomponent_get_first_property(ev, ICAL_RECURRENCEID_PROPERTY)) {
    // An override replaces one occurrence: it has no recurrence of its own.
    const bool has_own = !rules.empty() ||
                         ical.icalcomponent_get_first_property(ev, ICAL_RDATE_PROPERTY) != nullptr ||
                         ical.icalcomponent_get_first_property(ev, ICAL_EXDATE_PROPERTY) != nullptr;
    if (has_own) {
      refuse(out, "RECURRENCE-ID",
             "A VEVENT with RECURRENCE-ID overrides one occurrence and cannot have RRULE, RDATE or EXDATE.");
      return;
    }
    if (out.uid.empty()) {
      refuse(out, "UID", "A VEVENT with RECURRENCE-ID needs the UID of its series.");
      return;
    }
    read_recurrence_id(calendar, p, out);
    return;
  }
  out.recurrence = std::move(rules);
  for (icalproperty* p = ical.icalcomponent_get_first_property(ev, ICAL_RDATE_PROPERTY); p;
       p = ical.icalcomponent_get_next_property(ev, ICAL_RDATE_PROPERTY))
    if (!add_rdate(calendar, p, out)) return;
  for (icalproperty* p = ical.icalcomponent_get_first_property(ev, ICAL_EXDATE_PROPERTY); p;
       p = ical.icalcomponent_get_next_property(ev, ICAL_EXDATE_PROPERTY)) {
    const auto m = moment_of(calendar, p, ical.icalproperty_get_exdate(p), out.problem);
    if (!m) return;
    const Written w = written(*m);
    out.recurrence.push_back("EXDATE" + w.parameters + ":" + w.value);
  }
}

}  // namespace cal
