// The iCalendar feeds (see cal/api/ical/ical_feed.h): one VCALENDAR with the VTIMEZONEs of the
// zones its events use and one VEVENT per event. A feed of a list costs what the JSON page
// costs (the page with its count, then the relations of all its events); the
// VTIMEZONEs are computed once per zone and years (cal/api/ical/ical_vtimezone.h).
#include "cal/api/ical/ical_feed.h"
#include "api/ical/libical.h"

#include "cal/api/events/event_filter.h"
#include "cal/api/events/event_record.h"
#include "cal/api/ical/ical_event.h"
#include "cal/api/ical/ical_series.h"
#include "cal/api/ical/ical_vtimezone.h"
#include "cal/api/pipeline/bulkhead.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/handlers.h"
#include "cal/api/pipeline/listing.h"
#include "cal/api/posts/post_access.h"
#include "cal/api/posts/site_time.h"
#include "cal/http/accept.h"
#include "cal/store/event_series.h"

#include <future>
#include <map>
#include <memory>
#include <system_error>
#include <utility>

namespace cal {
namespace {

// The host of the site ("example.org", "example.org:8080"): the UIDs' and the default name's.
std::string site_host(const RequestContext& ctx) {
  std::string host = ctx.site_url;
  if (const auto scheme = host.find("://"); scheme != std::string::npos) host = host.substr(scheme + 3);
  return host.substr(0, host.find('/'));
}

std::string calendar_name(const RequestContext& ctx) {
  return ctx.config.ical.name.empty() ? site_host(ctx) : ctx.config.ical.name;
}

// "site (search=jazz, categories=music)": the filters the client gave, as sent.
std::string list_title(const RequestContext& ctx) {
  std::string filters;
  for (const auto& [name, value] : ctx.params.all()) {
    if (!value.given || name == param::kIcal || name == param::kExpand || name == param::kPage ||
        name == param::kPerPage)
      continue;
    if (!filters.empty()) filters += ", ";
    filters += name + "=" + value.text;
  }
  const std::string name = calendar_name(ctx);
  return filters.empty() ? name : name + " (" + filters + ")";
}

// A file name of safe characters only, for Content-Disposition.
std::string file_name(std::string_view stem) {
  std::string out;
  for (char c : stem)
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.')
      out += c;
  return (out.empty() ? std::string("event") : out) + ".ics";
}

void add_x(icalcomponent* c, const char* name, const std::string& value) {
  const LibIcal& ical = libical();
  icalproperty* p = ical.icalproperty_new_x(value.c_str());
  ical.icalproperty_set_x_name(p, name);
  ical.icalcomponent_add_property(c, p);
}

// From this many events on, a feed's VEVENTs are written by two threads: writing half of them
// then takes far longer than starting the thread costs (docs/performance.md).
constexpr std::size_t kTwoWriterEvents = 32;

struct Years {
  int first, last;
};

// The VCALENDAR text of `events`, with a VTIMEZONE for every zone a DTSTART/DTEND names.
std::string calendar_text(const RequestContext& ctx, const std::vector<FeedItem>& items,
                          const EventRelations& relations, bool mask_protected, const std::string& title) {
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

  std::map<std::string, std::pair<TimeZone, Years>> zones;  // in a fixed order: a stable text
  for (const FeedItem& item : items) {
    const Event& e = item.event;
    const bool masked = mask_protected && !e.post.password.empty();
    if (ical_times_of(e, masked) != IcalTimes::kZoned) continue;
    const TimeZone zone = TimeZone::find(e.details.timezone).value_or(TimeZone::utc());
    const int first = to_utc_date_time(stored_utc_instant(e.details.start_utc).value_or(Seconds{})).year;
    const int last = std::max(
        item.last_year, to_utc_date_time(stored_utc_instant(e.details.end_utc).value_or(Seconds{})).year);
    auto [it, added] = zones.try_emplace(zone.name(), zone, Years{first, last});
    if (!added) {
      it->second.second.first = std::min(it->second.second.first, first);
      it->second.second.last = std::max(it->second.second.last, std::max(first, last));
    } else {
      it->second.second.last = std::max(first, last);
    }
  }
  for (const auto& [name, zone_years] : zones)
    ical.icalcomponent_add_component(
        cal.get(), cached_vtimezone(zone_years.first, zone_years.second.first, zone_years.second.last));
  // The calendar without its events, written by libical, is cut before its END:VCALENDAR line
  // and each VEVENT, written by libical too, goes in there as soon as it is built and is freed:
  // one small tree at a time instead of a tree of 1,000 events and one growing buffer (malloc
  // was the largest share of a 1,000-event feed's time).
  char* frame = ical.icalcomponent_as_ical_string_r(cal.get());
  const std::string_view text(frame);
  const std::size_t end = text.rfind("END:VCALENDAR");
  std::string out(text.substr(0, end));
  const std::string tail(text.substr(end));
  ical.icalmemory_free_buffer(frame);
  const std::string host = site_host(ctx);
  auto vevents = [&](std::size_t from, std::size_t to) {
    std::string part;
    part.reserve((to - from) * 1024);
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
      part += written;
      ical.icalmemory_free_buffer(written);
      ical.icalcomponent_free(vevent);
    }
    return part;
  };
  // A large feed is written by two threads, half each: libical's writing is most of a large
  // feed's time in the service, and each half touches
  // only its own components (libical keeps its buffers and errors per thread; the service's 8
  // workers already use it side by side).
  std::size_t half = items.size() >= kTwoWriterEvents ? items.size() / 2 : items.size();
  std::future<std::string> second;
  try {
    if (half < items.size()) second = std::async(std::launch::async, vevents, half, items.size());
  } catch (const std::system_error&) {
    half = items.size();  // no thread to be had (a process at its limit): this one writes all
  }
  out += vevents(0, half);
  if (second.valid()) out += second.get();
  out += tail;
  return out;
}

Response calendar_response(std::string body, const std::string& file) {
  Response r;
  r.status = 200;
  r.body = std::move(body);
  r.set_header("Content-Type", "text/calendar; charset=utf-8");
  r.set_header("Content-Disposition", "inline; filename=\"" + file + "\"");
  return r;
}

Response list_feed(RequestContext& ctx) {
  // page/per_page as for JSON when either is given; otherwise one page of [ical] max_events.
  const bool paged = ctx.params.given(param::kPage) || ctx.params.given(param::kPerPage);
  Paging paging = read_paging(ctx);
  if (!paged) paging = Paging{1, ctx.config.ical.max_events};
  EventFilter filter = build_event_filter(ctx);
  std::optional<Transaction> snapshot;
  plan_filter_search(ctx, filter, snapshot);
  PlannedWork work;
  work.event_list = plan_event_list(filter);
  work.feed_events = paging.per_page;
  const Admission admission = admit(ctx, work);
  const EventPage page = find_event_page(ctx.db, filter, paging.per_page, paging.offset());
  check_page_exists(paging, page.total, "event", ctx.locale);
  // A VEVENT shows no image, tag or term count: the statement reads none of them.
  EventRelations relations = load_event_relations(
      ctx.db, page.events,
      RelationParts{.images = false, .tags = false, .term_counts = false, .per_part = true});
  const bool expand = ctx.params.given(param::kExpand) && ctx.params.boolean(param::kExpand);
  const std::vector<FeedItem> items = feed_items(ctx, page.events, expand, relations);
  // Lists never show a protected event's content (docs/api.md §3.5).
  Response r =
      calendar_response(calendar_text(ctx, items, relations, true, list_title(ctx)), file_name("events"));
  const long long pages = page.total == 0 ? 0 : (page.total + paging.per_page - 1) / paging.per_page;
  r.set_header("X-WP-Total", std::to_string(page.total));
  r.set_header("X-WP-TotalPages", std::to_string(pages));
  r.set_header("X-TEC-Total", std::to_string(page.total));
  r.set_header("X-TEC-TotalPages", std::to_string(pages));
  if (snapshot) snapshot->commit();
  return r;
}

// The feed of series `id`: its VEVENT with the rule, then its occurrences edited alone that the
// caller may see, exactly as a feed listing one of its occurrences writes them.
Response series_feed(RequestContext& ctx, long long id) {
  auto series = load_series_with_relations(ctx.db, id, std::nullopt);
  if (!series) throw std::runtime_error("series " + std::to_string(id) + " vanished");
  const PostRow& row = series->first.post;
  check_readable(ctx, kEventKind, row);
  if (!event_unlocked(ctx, row))
    throw ApiError{403, "event-password-protected",
                   translate(ctx.locale, "The event is password protected.")};
  std::vector<long long> any_occurrence;
  for (const StoredOccurrence& o : find_series_occurrences(ctx.db, id)) {
    any_occurrence.push_back(o.event_id);
    break;
  }
  EventRelations relations;
  const std::vector<FeedItem> items = feed_items(ctx, find_events(ctx.db, any_occurrence), false, relations);
  return calendar_response(
      calendar_text(ctx, items, relations, false, calendar_name(ctx) + " (" + row.title + ")"),
      file_name(row.slug));
}

Response single_feed(RequestContext& ctx) {
  // As get_event (src/api/events/events.cpp): the same checks, in the same order; an id or slug
  // that names no event but a series gives the series.
  NamedEventRead named = find_named_event(ctx);
  if (named.series_id) return series_feed(ctx, named.series_id);
  std::optional<std::pair<Event, EventRelations>>& loaded = named.loaded;
  const PostRow& row = named.row;
  check_readable(ctx, kEventKind, row);
  if (!event_unlocked(ctx, row))
    throw ApiError{403, "event-password-protected",
                   translate(ctx.locale, "The event is password protected.")};
  if (!loaded) loaded = load_event_with_relations(ctx.db, row.id);
  if (!loaded) throw std::runtime_error("event " + std::to_string(row.id) + " has no details");
  const std::vector<FeedItem> one{{loaded->first, loaded->first.post.id, {}, std::nullopt, {}, false, 0}};
  return calendar_response(
      calendar_text(ctx, one, loaded->second, false, calendar_name(ctx) + " (" + row.title + ")"),
      file_name(row.slug));
}

}  // namespace

bool wants_ical(const RequestContext& ctx) {
  if (ctx.params.given(param::kIcal)) return ctx.params.boolean(param::kIcal);
  return prefers_calendar(ctx.request.header("accept"));
}

Response list_events_negotiated(RequestContext& ctx) {
  return wants_ical(ctx) ? list_feed(ctx) : list_events(ctx);
}

Response get_event_negotiated(RequestContext& ctx) {
  return wants_ical(ctx) ? single_feed(ctx) : get_event(ctx);
}

}  // namespace cal
