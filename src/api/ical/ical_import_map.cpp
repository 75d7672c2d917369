// Reading a checked calendar with libical and mapping each VEVENT to the JSON body of
// POST /events (see cal/api/ical/ical_import.h; docs/feeds.md has the mapping).
#include "api/ical/ical_import_lines.h"
#include "api/ical/ical_import_moment.h"
#include "api/ical/libical.h"
#include "cal/api/ical/ical_import.h"
#include "cal/core/dates/dates.h"
#include "cal/core/text/ascii.h"
#include "cal/core/text/html_escape.h"
#include "cal/core/text/numbers.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>

namespace cal {
namespace {

using Value = rapidjson::Value;

struct ComponentFree {
  void operator()(icalcomponent* c) const { libical().icalcomponent_free(c); }
};
struct PropertyFree {
  void operator()(icalproperty* p) const { libical().icalproperty_free(p); }
};

// libical aborts on its own errors when built with ICAL_ERRORS_ARE_FATAL; a request must not.
void make_errors_non_fatal() {
  static std::once_flag once;
  std::call_once(once, [] { libical().icalerror_set_errors_are_fatal(0); });
}

// Whether libical reads the content line without error. Properties unknown to libical (neither
// RFC 5545 nor X-) make it fail too: they are left out instead (`known` false).
bool line_reads(const IcalLine& line, bool& known) {
  const LibIcal& ical = libical();
  known =
      line.name.starts_with("X-") || ical.icalproperty_string_to_kind(line.name.c_str()) != ICAL_NO_PROPERTY;
  if (!known) return true;
  std::unique_ptr<icalproperty, PropertyFree> p(ical.icalproperty_new_from_string(line.text.c_str()));
  ical.icalerror_clear_errno();
  return p != nullptr;
}

std::string text_of(const char* s) { return s ? std::string(s) : std::string(); }

std::string two(int n) {
  char b[8];
  std::snprintf(b, sizeof b, "%02d", n);
  return b;
}

std::string date_text(int y, int m, int d) {
  char b[32];
  std::snprintf(b, sizeof b, "%04d-%02d-%02d", y, m, d);
  return b;
}

std::string wall_text(const LocalDateTime& t) {
  return date_text(t.year, t.month, t.day) + " " + two(t.hour) + ":" + two(t.minute) + ":" + two(t.second);
}

std::string utc_text(Seconds instant) {
  const LocalDateTime t = to_utc_date_time(instant);
  return date_text(t.year, t.month, t.day) + "T" + two(t.hour) + ":" + two(t.minute) + ":" + two(t.second) +
         "Z";
}

}  // namespace

LocalDateTime local_of(const icaltimetype& t) {
  return LocalDateTime{
      t.year, t.month, t.day, t.is_date ? 0 : t.hour, t.is_date ? 0 : t.minute, t.is_date ? 0 : t.second};
}

namespace {

// The IANA zone a TZID names: the id itself, or one after a vendor prefix
// ("/mozilla.org/20050126_1/Europe/Berlin", "/citadel.org/20190914_1/Europe/Berlin").
std::optional<TimeZone> iana_zone(std::string_view tzid) {
  if (auto z = TimeZone::find(tzid)) return z;
  if (!tzid.starts_with('/')) return std::nullopt;
  for (std::size_t slash = tzid.find('/'); slash != std::string_view::npos; slash = tzid.find('/', slash + 1))
    if (auto z = TimeZone::find(tzid.substr(slash + 1)); z && z->name().find('/') != std::string::npos)
      return z;
  return std::nullopt;
}

template <std::size_t N>
std::size_t entries(const short (&list)[N]) {
  std::size_t n = 0;
  while (n < N && list[n] != ICAL_RECURRENCE_ARRAY_MAX) ++n;
  return n;
}

// Whether libical may expand the zone's rules: only the yearly rules time zones have (one day of
// one month, "the last Sunday of October"). Others (FREQ=SECONDLY, every day of the year) could
// make it expand millions of changes up to the event's year, for one request.
bool has_plain_rules(icaltimezone* zone) {
  const LibIcal& ical = libical();
  icalcomponent* vtimezone = ical.icaltimezone_get_component(zone);
  if (!vtimezone) return false;
  for (icalcomponent* part = ical.icalcomponent_get_first_component(vtimezone, ICAL_ANY_COMPONENT); part;
       part = ical.icalcomponent_get_next_component(vtimezone, ICAL_ANY_COMPONENT))
    for (icalproperty* p = ical.icalcomponent_get_first_property(part, ICAL_RRULE_PROPERTY); p;
         p = ical.icalcomponent_get_next_property(part, ICAL_RRULE_PROPERTY)) {
      const icalrecurrencetype r = ical.icalproperty_get_rrule(p);
      if (r.freq != ICAL_YEARLY_RECURRENCE || r.interval != 1 || entries(r.by_day) > 1 ||
          entries(r.by_month) > 1 || entries(r.by_month_day) > 7 || entries(r.by_year_day) > 0 ||
          entries(r.by_week_no) > 0 || entries(r.by_hour) > 1 || entries(r.by_minute) > 1 ||
          entries(r.by_second) > 1 || entries(r.by_set_pos) > 1)
        return false;
    }
  return true;
}

}  // namespace

// Reads a DTSTART/DTEND property; a TZID that is no IANA zone is resolved through the calendar's
// VTIMEZONE into a UTC time. nullopt (with `problem`) when the TZID is unknown.
std::optional<IcalMoment> moment_of(icalcomponent* calendar, icalproperty* p, icaltimetype t,
                                    std::optional<IcalProblem>& problem) {
  const LibIcal& ical = libical();
  IcalMoment m;
  m.wall = local_of(t);
  // libical takes any digits (a 51st month, a 58th day): the service's dates must be real ones.
  if (!is_valid_date_time(m.wall)) {
    IcalProblem pr;
    pr.msgid = "%s is not a valid date.";
    pr.field = ical.icalproperty_get_property_name(p);
    pr.args = {pr.field};
    problem = std::move(pr);
    return std::nullopt;
  }
  if (t.is_date) {
    m.kind = IcalMoment::kDate;
    return m;
  }
  if (ical.icaltime_is_utc(t)) {
    m.kind = IcalMoment::kUtc;
    return m;
  }
  icalparameter* tzid_param = ical.icalproperty_get_first_parameter(p, ICAL_TZID_PARAMETER);
  const std::string tzid = tzid_param ? text_of(ical.icalparameter_get_tzid(tzid_param)) : std::string();
  if (tzid.empty()) return m;  // floating
  if (auto zone = iana_zone(tzid)) {
    m.kind = IcalMoment::kZoned;
    m.zone = zone;
    return m;
  }
  if (icaltimezone* defined = ical.icalcomponent_get_timezone(calendar, tzid.c_str());
      defined && has_plain_rules(defined)) {
    int is_daylight = 0;
    const int offset = ical.icaltimezone_get_utc_offset(defined, &t, &is_daylight);
    m.kind = IcalMoment::kUtc;
    m.wall = to_utc_date_time(from_utc_date_time(m.wall) - std::chrono::seconds(offset));
    return m;
  }
  IcalProblem pr;
  pr.msgid = "TZID %s is neither an IANA time zone nor defined by a VTIMEZONE of the calendar.";
  pr.args = {tzid};
  pr.field = ical.icalproperty_get_property_name(p);
  problem = std::move(pr);
  return std::nullopt;
}

namespace {

using Moment = IcalMoment;

// The instant of a timed moment; floating times are in `fallback`.
Seconds instant_of(const Moment& m, const TimeZone& fallback) {
  if (m.kind == Moment::kUtc) return from_utc_date_time(m.wall);
  return (m.zone ? *m.zone : fallback).to_instant(m.wall);
}

std::string date_only(const LocalDateTime& t) { return date_text(t.year, t.month, t.day); }

LocalDateTime add_days(LocalDateTime t, int days) {
  const LocalDateTime moved = to_utc_date_time(
      from_utc_date_time(LocalDateTime{t.year, t.month, t.day, 12, 0, 0}) + std::chrono::days(days));
  return LocalDateTime{moved.year, moved.month, moved.day, t.hour, t.minute, t.second};
}

void set_string(rapidjson::Document& doc, const char* name, const std::string& text) {
  auto& a = doc.GetAllocator();
  doc.AddMember(Value(name, a), Value(text.c_str(), static_cast<rapidjson::SizeType>(text.size()), a), a);
}

// Plain text (DESCRIPTION) as the HTML of an event description: escaped, line breaks kept.
std::string html_of_text(std::string_view text) {
  std::string out;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '\n' && text[i] != '\r') continue;
    append_html_escaped(out, text.substr(line_start, i - line_start));
    if (i < text.size() && text[i] == '\n') out += "<br>\n";
    line_start = i + 1;
  }
  return out;
}

// The own event a UID names: "<id>@<host>" with the site's host, with or without its port.
std::optional<long long> own_event_id(std::string_view uid, std::string_view host) {
  const std::size_t at = uid.find('@');
  if (at == std::string_view::npos || host.empty()) return std::nullopt;
  const std::string_view uid_host = uid.substr(at + 1);
  const std::string_view bare = host.substr(0, host.find(':'));
  if (!ascii::iequals(uid_host, host) && !ascii::iequals(uid_host, bare)) return std::nullopt;
  return parse_id(uid.substr(0, at));
}

// Maps one VEVENT; `problem` is set when it cannot be.
// A problem that keeps the VEVENT from being imported.
void refuse(IcalEventInput& out, std::string field, std::string msgid) {
  IcalProblem p;
  p.msgid = std::move(msgid);
  p.field = std::move(field);
  out.problem = std::move(p);
}

// The UID, and whether it names an event of this site's own feed.
void map_identity(icalcomponent* ev, const IcalImportOptions& options, IcalEventInput& out) {
  const LibIcal& ical = libical();
  if (icalproperty* uid = ical.icalcomponent_get_first_property(ev, ICAL_UID_PROPERTY)) {
    out.uid = text_of(ical.icalproperty_get_uid(uid));
    out.own_id = own_event_id(out.uid, options.site_host);
  }
}

// The description as HTML: the HTML form (X-ALT-DESC;FMTTYPE=text/html) wins over the plain one.
std::optional<std::string> description_of(icalcomponent* ev) {
  const LibIcal& ical = libical();
  for (icalproperty* p = ical.icalcomponent_get_first_property(ev, ICAL_X_PROPERTY); p;
       p = ical.icalcomponent_get_next_property(ev, ICAL_X_PROPERTY)) {
    if (!ascii::iequals(text_of(ical.icalproperty_get_x_name(p)), "X-ALT-DESC")) continue;
    icalparameter* fmt = ical.icalproperty_get_first_parameter(p, ICAL_FMTTYPE_PARAMETER);
    if (fmt && ascii::iequals(text_of(ical.icalparameter_get_fmttype(fmt)), "text/html"))
      return text_of(ical.icalproperty_get_x(p));
  }
  if (icalproperty* p = ical.icalcomponent_get_first_property(ev, ICAL_DESCRIPTION_PROPERTY))
    return html_of_text(text_of(ical.icalproperty_get_description(p)));
  return std::nullopt;
}

// CATEGORIES as names (an empty list when they are all empty).
void map_categories(icalcomponent* ev, rapidjson::Document& body) {
  const LibIcal& ical = libical();
  auto& a = body.GetAllocator();
  Value categories(rapidjson::kArrayType);
  bool has_categories = false;
  for (icalproperty* p = ical.icalcomponent_get_first_property(ev, ICAL_CATEGORIES_PROPERTY); p;
       p = ical.icalcomponent_get_next_property(ev, ICAL_CATEGORIES_PROPERTY)) {
    has_categories = true;
    const std::string name = text_of(ical.icalproperty_get_categories(p));
    if (!name.empty())
      categories.PushBack(Value(name.c_str(), static_cast<rapidjson::SizeType>(name.size()), a), a);
  }
  if (!has_categories) return;
  if (categories.Empty())
    set_string(body, "categories", "");
  else
    body.AddMember("categories", categories, a);
}

// Everything but the dates: title, description, venue, categories, website, status.
void map_fields(icalcomponent* ev, rapidjson::Document& body) {
  const LibIcal& ical = libical();
  auto& a = body.GetAllocator();
  if (icalproperty* p = ical.icalcomponent_get_first_property(ev, ICAL_SUMMARY_PROPERTY))
    set_string(body, "title", text_of(ical.icalproperty_get_summary(p)));
  if (const std::optional<std::string> description = description_of(ev))
    set_string(body, "description", *description);
  if (icalproperty* p = ical.icalcomponent_get_first_property(ev, ICAL_LOCATION_PROPERTY)) {
    const std::string name = text_of(ical.icalproperty_get_location(p));
    if (!name.empty()) {
      Value venue(rapidjson::kObjectType);
      venue.AddMember("venue", Value(name.c_str(), static_cast<rapidjson::SizeType>(name.size()), a), a);
      body.AddMember("venue", venue, a);
    }
  }
  map_categories(ev, body);
  if (icalproperty* p = ical.icalcomponent_get_first_property(ev, ICAL_URL_PROPERTY))
    set_string(body, "website", text_of(ical.icalproperty_get_url(p)));
  if (icalproperty* p = ical.icalcomponent_get_first_property(ev, ICAL_STATUS_PROPERTY))
    if (ical.icalproperty_get_status(p) == ICAL_STATUS_CANCELLED) set_string(body, "status", "draft");
}

// All day: DTEND is exclusive (the day after the last), a DURATION counts whole days.
void set_all_day_dates(const Moment& start, const std::optional<Moment>& end,
                       const std::optional<icaldurationtype>& duration, rapidjson::Document& body) {
  body.AddMember("all_day", true, body.GetAllocator());
  set_string(body, "start_date", date_only(start.wall));
  LocalDateTime last = start.wall;
  if (end)
    last = end->kind == Moment::kDate ? add_days(end->wall, -1) : end->wall;
  else if (duration && !duration->is_neg)
    last = add_days(start.wall, static_cast<int>(duration->weeks * 7 + duration->days) - 1);
  if (from_utc_date_time(last) < from_utc_date_time(start.wall)) last = start.wall;
  set_string(body, "end_date", date_only(last));
}

// Timed: the wall clock in the event zone where the VEVENT gives one, else the exact instant.
void set_timed_dates(const Moment& start, const std::optional<Moment>& end,
                     const std::optional<icaldurationtype>& duration, const TimeZone& zone,
                     rapidjson::Document& body) {
  body.AddMember("all_day", false, body.GetAllocator());
  auto text_in_zone = [&](const Moment& m) {
    if (m.kind == Moment::kFloating || m.kind == Moment::kDate ||
        (m.kind == Moment::kZoned && m.zone == zone))
      return wall_text(m.wall);
    return utc_text(instant_of(m, zone));
  };
  set_string(body, "start_date", text_in_zone(start));
  if (end) {
    set_string(body, "end_date", text_in_zone(*end));
  } else if (duration) {
    // Days and weeks move the wall clock, hours and less the instant (RFC 5545 §3.3.6).
    const int sign = duration->is_neg ? -1 : 1;
    Moment moved = start;
    moved.wall = add_days(start.wall, sign * static_cast<int>(duration->weeks * 7 + duration->days));
    const long long seconds = sign * (static_cast<long long>(duration->hours) * 3600 +
                                      duration->minutes * 60LL + duration->seconds);
    if (seconds == 0)
      set_string(body, "end_date", text_in_zone(moved));
    else
      set_string(body, "end_date", utc_text(instant_of(moved, zone) + std::chrono::seconds(seconds)));
  } else {
    set_string(body, "end_date", text_in_zone(start));
  }
}

// Dates: one zone for the event. A TZID that is an IANA zone is kept; UTC times, times in zones
// only a VTIMEZONE defines, floating times and all-day events are in the site zone.
void map_dates(icalcomponent* calendar, icalcomponent* ev, const TimeZone& site, IcalEventInput& out) {
  const LibIcal& ical = libical();
  icalproperty* start_p = ical.icalcomponent_get_first_property(ev, ICAL_DTSTART_PROPERTY);
  if (!start_p) {
    refuse(out, "DTSTART", "The VEVENT has no DTSTART.");
    return;
  }
  const auto start = moment_of(calendar, start_p, ical.icalproperty_get_dtstart(start_p), out.problem);
  if (!start) return;
  std::optional<Moment> end;
  if (icalproperty* end_p = ical.icalcomponent_get_first_property(ev, ICAL_DTEND_PROPERTY)) {
    end = moment_of(calendar, end_p, ical.icalproperty_get_dtend(end_p), out.problem);
    if (!end) return;
  }
  std::optional<icaldurationtype> duration;
  if (icalproperty* d = ical.icalcomponent_get_first_property(ev, ICAL_DURATION_PROPERTY))
    duration = ical.icalproperty_get_duration(d);
  const TimeZone zone = start->kind == Moment::kZoned ? *start->zone : site;
  set_string(out.body, "timezone", zone.name());
  if (start->kind == Moment::kDate)
    set_all_day_dates(*start, end, duration, out.body);
  else
    set_timed_dates(*start, end, duration, zone, out.body);
}

void map_event(icalcomponent* calendar, icalcomponent* ev, const IcalImportOptions& options,
               const TimeZone& site, std::vector<std::string> rules, IcalEventInput& out) {
  out.body.SetObject();
  map_identity(ev, options, out);
  map_recurrence(calendar, ev, std::move(rules), out);
  if (out.problem) return;
  map_fields(ev, out.body);
  map_dates(calendar, ev, site, out);
}

}  // namespace

IcalImport parse_ical_import(std::string_view body, const IcalImportOptions& options) {
  const LibIcal& ical = libical();
  make_errors_non_fatal();
  IcalImport result;
  IcalScan scan = scan_ical_lines(body, options.max_events);
  if (scan.failure != IcalFailure::kNone) {
    result.failure = scan.failure;
    result.problem = std::move(*scan.problem);
    return result;
  }
  // Every line must read on its own, so that a problem names its line; properties libical does
  // not know are left out of what it parses. The RRULE and EXRULE lines of VEVENTs are kept as
  // written for the service's own expander, which names the part it refuses (libical refuses
  // lower-case parts and reads some it does not support).
  std::string text;
  std::vector<std::vector<std::string>> rules;  // per VEVENT
  std::vector<std::string> open;                // the components the line is in
  for (const IcalLine& line : scan.lines) {
    if (line.name == "BEGIN") {
      open.push_back(ascii::upper(line.value));
      if (open.size() == 2 && open.back() == "VEVENT") rules.emplace_back();
    } else if (line.name == "END" && !open.empty()) {
      open.pop_back();
    } else if ((line.name == "RRULE" || line.name == "EXRULE") && open.size() == 2 &&
               open.back() == "VEVENT") {
      rules.back().push_back(line.text);
      continue;
    }
    bool known = true;
    if (line.name != "BEGIN" && line.name != "END" && !line_reads(line, known)) {
      result.failure = IcalFailure::kMalformed;
      result.problem = malformed_line(line);
      return result;
    }
    if (!known) continue;
    text += line.text;
    text += "\r\n";
  }
  std::unique_ptr<icalcomponent, ComponentFree> calendar(ical.icalparser_parse_string(text.c_str()));
  ical.icalerror_clear_errno();
  if (!calendar || ical.icalcomponent_isa(calendar.get()) != ICAL_VCALENDAR_COMPONENT) {
    result.failure = IcalFailure::kMalformed;
    result.problem = malformed_line(scan.lines.front());
    return result;
  }
  const TimeZone site = TimeZone::find(options.site_zone).value_or(TimeZone::utc());
  int index = 0;
  for (icalcomponent* ev = ical.icalcomponent_get_first_component(calendar.get(), ICAL_VEVENT_COMPONENT); ev;
       ev = ical.icalcomponent_get_next_component(calendar.get(), ICAL_VEVENT_COMPONENT)) {
    IcalEventInput& in = result.events.emplace_back();
    in.index = ++index;
    in.line = index <= static_cast<int>(scan.vevent_lines.size()) ? scan.vevent_lines[index - 1] : 0;
    // What libical still refused (each line read alone, so this is a safety net).
    if (ical.icalcomponent_get_first_property(ev, ICAL_XLICERROR_PROPERTY)) {
      result.failure = IcalFailure::kMalformed;
      result.problem = malformed_line(IcalLine{in.line, "BEGIN:VEVENT", "BEGIN", "VEVENT"});
      result.events.clear();
      return result;
    }
    map_event(
        calendar.get(), ev, options, site,
        index <= static_cast<int>(rules.size()) ? std::move(rules[index - 1]) : std::vector<std::string>{},
        in);
  }
  return result;
}

}  // namespace cal
