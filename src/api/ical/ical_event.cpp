// Events as VEVENTs (see cal/api/ical/ical_event.h).
#include "cal/api/ical/ical_event.h"
#include "api/ical/libical.h"
#include "cal/api/ical/ical_vtimezone.h"

#include "cal/api/posts/post_record.h"
#include "cal/core/text/html_text.h"

#include <algorithm>
#include <climits>

namespace cal {
namespace {

// libical's UTC zone, created on first use: once, here, where C++ makes that thread-safe.
icaltimezone* utc_zone() {
  static icaltimezone* const zone = libical().icaltimezone_get_utc_timezone();
  return zone;
}

icaltimetype date_time(const LocalDateTime& t, bool utc) {
  icaltimetype v = floating_date_time(t);
  if (utc) v.zone = utc_zone();
  return v;
}

icaltimetype date_only(const LocalDateTime& t) {
  icaltimetype v = libical().icaltime_null_date();
  v.year = t.year;
  v.month = t.month;
  v.day = t.day;
  v.is_date = 1;
  return v;
}

// A UTC property value from a stored UTC text; nullopt for a non-date.
std::optional<icaltimetype> utc_value(std::string_view stored) {
  const auto instant = stored_utc_instant(stored);
  if (!instant) return std::nullopt;
  return date_time(to_utc_date_time(*instant), true);
}

void add(icalcomponent* c, icalproperty* p) { libical().icalcomponent_add_property(c, p); }

// DTSTART or DTEND (`start`) in the form `times` says.
icalproperty* time_property(bool start, const EventDetails& d, IcalTimes times, const TimeZone& zone) {
  const LibIcal& ical = libical();
  const LocalDateTime local =
      parse_sql_date_time(start ? d.start_local : d.end_local).value_or(LocalDateTime{});
  icaltimetype v;
  switch (times) {
    case IcalTimes::kAllDay: {
      LocalDateTime day = local;
      if (!start)
        day = to_utc_date_time(from_utc_date_time({local.year, local.month, local.day + 1, 0, 0, 0}));
      v = date_only(day);
      break;
    }
    case IcalTimes::kUtc:
      v = date_time(to_utc_date_time(zone.to_instant(local)), true);
      if (const auto stored = stored_utc_instant(start ? d.start_utc : d.end_utc))
        v = date_time(to_utc_date_time(*stored), true);
      break;
    case IcalTimes::kZoned:
      v = date_time(local, false);
      break;
  }
  icalproperty* p = start ? ical.icalproperty_new_dtstart(v) : ical.icalproperty_new_dtend(v);
  if (times == IcalTimes::kZoned)
    ical.icalproperty_add_parameter(p, ical.icalparameter_new_tzid(zone.name().c_str()));
  return p;
}

// "Name, phone, e-mail, website": an organizer as CONTACT text.
std::string organizer_contact(const Organizer& o) {
  std::string out = o.post.title;
  for (const std::string* part : {&o.details.phone, &o.details.email, &o.details.website}) {
    if (part->empty()) continue;
    if (!out.empty()) out += ", ";
    out += *part;
  }
  return out;
}

icalproperty_status status_of(const std::string& status) {
  if (status == "draft" || status == "pending") return ICAL_STATUS_TENTATIVE;
  if (status == "trash") return ICAL_STATUS_CANCELLED;
  return ICAL_STATUS_CONFIRMED;
}

template <typename Map>
const typename Map::mapped_type* lookup(const Map& map, long long key) {
  const auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

// An RDATE or EXDATE line of several values as one line per value: libical reads only the first
// value of a line it is given whole. Other lines as they are.
std::vector<std::string> single_valued(const std::string& line) {
  if (line.rfind("RDATE", 0) != 0 && line.rfind("EXDATE", 0) != 0) return {line};
  bool quoted = false;
  std::size_t colon = 0;
  for (; colon < line.size(); ++colon) {
    if (line[colon] == '"') quoted = !quoted;
    if (line[colon] == ':' && !quoted) break;
  }
  if (colon == line.size()) return {line};
  std::vector<std::string> out;
  const std::string head = line.substr(0, colon + 1);
  for (std::size_t at = colon + 1; at <= line.size();) {
    const std::size_t comma = std::min(line.find(',', at), line.size());
    out.push_back(head + line.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

// The rule's lines of a series (in normal form, so libical reads each as written), or the
// RECURRENCE-ID of an override: the original start in the form of the series' DTSTART.
void add_series_properties(icalcomponent* ev, const VeventSeries& series) {
  const LibIcal& ical = libical();
  if (series.recurrence)
    for (const std::string& line : *series.recurrence)
      for (const std::string& one : single_valued(line))
        if (icalproperty* p = ical.icalproperty_new_from_string(one.c_str())) add(ev, p);
  if (!series.overrides) return;
  const LocalDateTime local = parse_sql_date_time(series.overrides->original_local).value_or(LocalDateTime{});
  icaltimetype v;
  switch (series.series_times) {
    case IcalTimes::kAllDay:
      v = date_only(local);
      break;
    case IcalTimes::kUtc:
      v = date_time(to_utc_date_time(stored_utc_instant(series.overrides->original_utc).value_or(Seconds{})),
                    true);
      break;
    case IcalTimes::kZoned:
      v = date_time(local, false);
      break;
  }
  icalproperty* p = ical.icalproperty_new_recurrenceid(v);
  if (series.series_times == IcalTimes::kZoned)
    ical.icalproperty_add_parameter(p, ical.icalparameter_new_tzid(series.series_zone.c_str()));
  add(ev, p);
}

}  // namespace

// "Name, address, city, state or province, zip, country": the non-empty parts.
std::string venue_location(const Venue& v) {
  std::string out = v.post.title;
  const VenueDetails& d = v.details;
  const std::string& region =
      d.stateprovince.empty() ? (d.state.empty() ? d.province : d.state) : d.stateprovince;
  for (const std::string* part : {&d.address, &d.city, &region, &d.zip, &d.country}) {
    if (part->empty()) continue;
    if (!out.empty()) out += ", ";
    out += *part;
  }
  return out;
}

std::optional<Seconds> stored_utc_instant(std::string_view text) {
  const auto t = parse_sql_date_time(text);
  if (!t) return std::nullopt;
  return from_utc_date_time(*t);
}

IcalTimes ical_times_of(const Event& event, bool masked) {
  if (event.details.all_day && !masked) return IcalTimes::kAllDay;
  const TimeZone zone = TimeZone::find(event.details.timezone).value_or(TimeZone::utc());
  return zone.is_fixed_offset() ? IcalTimes::kUtc : IcalTimes::kZoned;
}

int ical_sequence(std::string_view modified_utc) {
  const auto modified = stored_utc_instant(modified_utc);
  if (!modified) return 0;
  const long long s = (*modified - from_utc_date_time({2000, 1, 1, 0, 0, 0})).count();
  return s < 0 ? 0 : s > INT_MAX ? INT_MAX : static_cast<int>(s);
}

icalcomponent* event_vevent(const RequestContext& ctx, const Event& event, const EventRelations& rel,
                            bool masked, std::string_view uid_host, const VeventSeries* series) {
  const LibIcal& ical = libical();
  const PostRow& post = event.post;
  const EventDetails& d = event.details;
  icalcomponent* ev = ical.icalcomponent_new(ICAL_VEVENT_COMPONENT);
  const std::string uid = std::to_string(series ? series->uid_id : post.id) + "@" + std::string(uid_host);
  add(ev, ical.icalproperty_new_uid(uid.c_str()));
  if (series) add_series_properties(ev, *series);
  // DTSTAMP is the last modification rather than the time of the request, so that an unchanged
  // feed is byte for byte the same (ETag, 304, the response cache).
  const auto modified = utc_value(post.modified_utc);
  const auto created = utc_value(post.date_utc);
  add(ev, ical.icalproperty_new_dtstamp(modified ? *modified : created ? *created : date_time({}, true)));
  const TimeZone zone = TimeZone::find(d.timezone).value_or(TimeZone::utc());
  const IcalTimes times = ical_times_of(event, masked);
  add(ev, time_property(true, d, times, zone));
  add(ev, time_property(false, d, times, zone));
  add(ev, ical.icalproperty_new_summary(post.title.c_str()));
  if (!masked && !post.content.empty()) {
    const std::string text = html_to_text(post.content);
    if (!text.empty()) add(ev, ical.icalproperty_new_description(text.c_str()));
    // A TEXT value (VALUE=TEXT), so that parsers unescape it as libical escapes it.
    icalproperty* alt = ical.icalproperty_new_x("");
    ical.icalproperty_set_x_name(alt, "X-ALT-DESC");
    ical.icalproperty_set_value(alt, ical.icalvalue_new_text(post.content.c_str()));
    ical.icalproperty_add_parameter(alt, ical.icalparameter_new_fmttype("text/html"));
    add(ev, alt);
  }
  if (!masked) {
    if (const Venue* venue = lookup(rel.venues, event.venue_id)) {
      const std::string location = venue_location(*venue);
      if (!location.empty()) add(ev, ical.icalproperty_new_location(location.c_str()));
      if (venue->details.geo_lat && venue->details.geo_lng) {
        icalgeotype geo;
        geo.lat = *venue->details.geo_lat;
        geo.lon = *venue->details.geo_lng;
        add(ev, ical.icalproperty_new_geo(geo));
      }
    }
    bool organizer_written = false;
    if (const auto* ids = lookup(rel.organizer_ids, post.id))
      for (long long id : *ids) {
        const Organizer* o = lookup(rel.organizers, id);
        if (!o) continue;
        if (!organizer_written && !o->details.email.empty()) {
          const std::string address = "mailto:" + o->details.email;
          icalproperty* p = ical.icalproperty_new_organizer(address.c_str());
          if (!o->post.title.empty())
            ical.icalproperty_add_parameter(p, ical.icalparameter_new_cn(o->post.title.c_str()));
          add(ev, p);
          organizer_written = true;
          continue;
        }
        organizer_written = true;  // only the first organizer may be the ORGANIZER
        const std::string contact = organizer_contact(*o);
        if (!contact.empty()) add(ev, ical.icalproperty_new_contact(contact.c_str()));
      }
    if (const auto* categories = lookup(rel.categories, post.id))
      for (const Term& t : *categories) add(ev, ical.icalproperty_new_categories(t.name.c_str()));
  }
  const std::string url = public_url(ctx, kEventKind, post.slug);
  add(ev, ical.icalproperty_new_url(url.c_str()));
  if (created) add(ev, ical.icalproperty_new_created(*created));
  if (modified) add(ev, ical.icalproperty_new_lastmodified(*modified));
  add(ev, ical.icalproperty_new_sequence(ical_sequence(post.modified_utc)));
  add(ev, ical.icalproperty_new_status(status_of(post.status)));
  return ev;
}

}  // namespace cal
