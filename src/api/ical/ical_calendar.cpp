// Writing a VCALENDAR (see cal/api/ical/ical_calendar.h): the VTIMEZONEs are computed once per
// zone and years (cal/api/ical/ical_vtimezone.h).
#include "cal/api/ical/ical_calendar.h"
#include "api/ical/libical.h"

#include "cal/api/ical/ical_event.h"
#include "cal/api/ical/ical_vtimezone.h"
#include "cal/api/posts/site_time.h"

#include <future>
#include <map>
#include <memory>
#include <system_error>
#include <utility>

namespace cal {
namespace {

void add_x(icalcomponent* c, const char* name, const std::string& value) {
  const LibIcal& ical = libical();
  icalproperty* p = ical.icalproperty_new_x(value.c_str());
  ical.icalproperty_set_x_name(p, name);
  ical.icalcomponent_add_property(c, p);
}

// From this many events on, a feed's VEVENTs are written by two threads: writing half of them
// then takes far longer than starting the thread costs (docs/performance.md).
constexpr std::size_t kTwoWriterEvents = 32;

}  // namespace

std::string site_host(const RequestContext& ctx) {
  std::string host = ctx.site_url;
  if (const auto scheme = host.find("://"); scheme != std::string::npos) host = host.substr(scheme + 3);
  return host.substr(0, host.find('/'));
}

std::optional<ZoneYears> item_zone_years(const FeedItem& item, bool mask_protected) {
  const Event& e = item.event;
  const bool masked = mask_protected && !e.post.password.empty();
  if (ical_times_of(e, masked) != IcalTimes::kZoned) return std::nullopt;
  const TimeZone zone = TimeZone::find(e.details.timezone).value_or(TimeZone::utc());
  const int first = to_utc_date_time(stored_utc_instant(e.details.start_utc).value_or(Seconds{})).year;
  const int last = std::max(item.last_year,
                            to_utc_date_time(stored_utc_instant(e.details.end_utc).value_or(Seconds{})).year);
  return ZoneYears{zone.name(), first, std::max(first, last)};
}

std::vector<std::string> vevent_texts(const RequestContext& ctx, const std::vector<FeedItem>& items,
                                      const EventRelations& relations, bool mask_protected) {
  const LibIcal& ical = libical();
  const std::string host = site_host(ctx);
  std::vector<std::string> out(items.size());
  // Each VEVENT is written as soon as it is built and freed: one small tree at a time instead of
  // a tree of 1,000 events (malloc was the largest share of a 1,000-event feed's time).
  auto write = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      const FeedItem& item = items[i];
      const Event& e = item.event;
      std::optional<VeventSeries> series;
      if (item.uid_id != e.post.id || !item.recurrence.empty() || item.overrides) {
        const TimeZone zone = TimeZone::find(item.series_zone).value_or(TimeZone::utc());
        series = VeventSeries{item.uid_id, item.recurrence.empty() ? nullptr : &item.recurrence,
                              item.overrides ? &*item.overrides : nullptr,
                              item.series_all_day      ? IcalTimes::kAllDay
                              : zone.is_fixed_offset() ? IcalTimes::kUtc
                                                       : IcalTimes::kZoned,
                              zone.name()};
      }
      icalcomponent* vevent = event_vevent(ctx, e, relations, mask_protected && !e.post.password.empty(),
                                           host, series ? &*series : nullptr);
      char* written = ical.icalcomponent_as_ical_string_r(vevent);
      out[i] = written;
      ical.icalmemory_free_buffer(written);
      ical.icalcomponent_free(vevent);
    }
  };
  // A large feed is written by two threads, half each: libical's writing is most of a large
  // feed's time in the service, and each half touches only its own components and strings
  // (libical keeps its buffers and errors per thread; the service's workers already use it side
  // by side).
  std::size_t half = items.size() >= kTwoWriterEvents ? items.size() / 2 : items.size();
  std::future<void> second;
  try {
    if (half < items.size()) second = std::async(std::launch::async, write, half, items.size());
  } catch (const std::system_error&) {
    half = items.size();  // no thread to be had (a process at its limit): this one writes all
  }
  write(0, half);
  if (second.valid()) second.get();
  return out;
}

std::string categories_text(const std::vector<const Term*>& terms) {
  const LibIcal& ical = libical();
  std::string out;
  for (const Term* t : terms) {
    icalproperty* p = ical.icalproperty_new_categories(t->name.c_str());
    char* text = ical.icalproperty_as_ical_string_r(p);
    out += text;
    ical.icalmemory_free_buffer(text);
    ical.icalproperty_free(p);
  }
  return out;
}

std::string calendar_of(const RequestContext& ctx, const std::string& title,
                        const std::vector<ZoneYears>& zones, const std::vector<const std::string*>& vevents) {
  const LibIcal& ical = libical();
  using Calendar = std::unique_ptr<icalcomponent, decltype(ical.icalcomponent_free)>;
  Calendar cal(ical.icalcomponent_new(ICAL_VCALENDAR_COMPONENT), ical.icalcomponent_free);
  ical.icalcomponent_add_property(cal.get(),
                                  ical.icalproperty_new_prodid("-//calendar-fcgi//Calendar events API//EN"));
  ical.icalcomponent_add_property(cal.get(), ical.icalproperty_new_version("2.0"));
  ical.icalcomponent_add_property(cal.get(), ical.icalproperty_new_calscale("GREGORIAN"));
  ical.icalcomponent_add_property(cal.get(), ical.icalproperty_new_method(ICAL_METHOD_PUBLISH));
  add_x(cal.get(), "X-WR-CALNAME", title);
  // X-WR-TIMEZONE takes an IANA id: the site zone when it is one, UTC for UTC itself.
  const TimeZone site = site_zone(ctx);
  if (!site.is_fixed_offset() || site.name() == "UTC") add_x(cal.get(), "X-WR-TIMEZONE", site.name());
  icaldurationtype refresh = ical.icaldurationtype_null_duration();
  refresh.hours = static_cast<unsigned>(ctx.config.ical.refresh_minutes / 60);  // PT1H, not PT60M
  refresh.minutes = static_cast<unsigned>(ctx.config.ical.refresh_minutes % 60);
  icalproperty* interval = ical.icalproperty_new_refreshinterval(refresh);
  ical.icalproperty_add_parameter(interval, ical.icalparameter_new_value(ICAL_VALUE_DURATION));
  ical.icalcomponent_add_property(cal.get(), interval);
  char* ttl = ical.icaldurationtype_as_ical_string_r(refresh);
  add_x(cal.get(), "X-PUBLISHED-TTL", ttl);
  ical.icalmemory_free_buffer(ttl);

  std::map<std::string, ZoneYears> by_name;  // in a fixed order: a stable text
  for (const ZoneYears& z : zones) {
    auto [it, added] = by_name.try_emplace(z.zone, z);
    if (!added) {
      it->second.first = std::min(it->second.first, z.first);
      it->second.last = std::max(it->second.last, z.last);
    }
  }
  for (const auto& [name, z] : by_name)
    ical.icalcomponent_add_component(
        cal.get(), cached_vtimezone(TimeZone::find(name).value_or(TimeZone::utc()), z.first, z.last));
  // The calendar without its events, written by libical, is cut before its END:VCALENDAR line,
  // and the VEVENTs go in there.
  char* frame = ical.icalcomponent_as_ical_string_r(cal.get());
  const std::string_view text(frame);
  const std::size_t end = text.rfind("END:VCALENDAR");
  std::size_t size = text.size();
  for (const std::string* v : vevents) size += v->size();
  std::string out;
  out.reserve(size);
  out += text.substr(0, end);
  for (const std::string* v : vevents) out += *v;
  out += text.substr(end);
  ical.icalmemory_free_buffer(frame);
  return out;
}

std::string calendar_text(const RequestContext& ctx, const std::vector<FeedItem>& items,
                          const EventRelations& relations, bool mask_protected, const std::string& title) {
  std::vector<ZoneYears> zones;
  for (const FeedItem& item : items)
    if (std::optional<ZoneYears> z = item_zone_years(item, mask_protected)) zones.push_back(std::move(*z));
  const std::vector<std::string> texts = vevent_texts(ctx, items, relations, mask_protected);
  std::vector<const std::string*> vevents;
  vevents.reserve(texts.size());
  for (const std::string& t : texts) vevents.push_back(&t);
  return calendar_of(ctx, title, zones, vevents);
}

}  // namespace cal
