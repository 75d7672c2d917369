// The iCalendar feeds (see cal/api/ical/ical_feed.h): one VCALENDAR with the VTIMEZONEs of the
// zones its events use and one VEVENT per event (cal/api/ical/ical_calendar.h). A feed of a list
// costs what the JSON page costs: the page as keys with its count, then only the events whose
// VEVENT the fragment cache does not keep, with their relations (as a JSON page's records).
#include "cal/api/ical/ical_feed.h"

#include "cal/api/events/event_filter.h"
#include "cal/api/events/event_fragments.h"
#include "cal/api/events/event_record.h"
#include "cal/api/ical/ical_calendar.h"
#include "cal/api/ical/ical_series.h"
#include "cal/api/pipeline/bulkhead.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/handlers.h"
#include "cal/api/pipeline/listing.h"
#include "cal/api/posts/post_access.h"
#include "cal/api/posts/site_time.h"
#include "cal/cache/fragment_cache.h"
#include "cal/http/accept.h"
#include "cal/store/event_relations.h"
#include "cal/store/event_series.h"
#include "cal/store/events.h"

#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>

namespace cal {
namespace {

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

Response calendar_response(std::string body, const std::string& file) {
  Response r;
  r.status = 200;
  r.body = std::move(body);
  r.set_header("Content-Type", "text/calendar; charset=utf-8");
  r.set_header("Content-Disposition", "inline; filename=\"" + file + "\"");
  return r;
}

// A list feed's VEVENT kept in the fragment cache: a one-off event's as every list feed writes it
// (a protected event's content masked), under what its text depends on besides its rows: the
// site's URL (links, the UID's host) and mount point.
std::string vevent_key(const RequestContext& ctx, long long id) {
  return "vevent|" + std::to_string(id) + "|" + ctx.site_url + "|" + ctx.rest_root;
}

// Keeps `text`, the VEVENT `item` was written as, when the item is a one-off event (a series'
// and an occurrence's depend on other events and on `expand`) whose records may be kept. Its
// CATEGORIES are cut out and written again from the terms' current rows each time it is used, as
// a kept JSON record's terms are (cal/api/events/event_fragments.h): every event written in a
// category changes the category's count, which would otherwise drop the VEVENT of every event in
// it, though a VEVENT shows only the name.
void keep_vevent(RequestContext& ctx, const FeedItem& item, const EventRelations& relations,
                 const std::string& text, const std::string& key) {
  const Event& e = item.event;
  if (e.occurrence || item.uid_id != e.post.id || !item.recurrence.empty() || item.overrides) return;
  Fragment f;
  if (!collect_shown(e, relations, f)) return;
  f.json = text;
  const auto categories = relations.categories.find(e.post.id);
  // A protected event's VEVENT shows no categories (the list feed masks it).
  if (e.post.password.empty() && categories != relations.categories.end() && !categories->second.empty()) {
    std::vector<const Term*> shown;
    TermSplice splice;
    for (const Term& t : categories->second) {
      shown.push_back(&t);
      splice.ids.push_back(t.id);
    }
    // A property starts a line; the lines of a folded one start with a space.
    const std::string lines = "\r\n" + categories_text(shown);
    const std::size_t at = f.json.find(lines);
    if (at == std::string::npos) return;
    f.json.erase(at + 2, lines.size() - 2);
    splice.at = at + 2;
    f.splices.push_back(std::move(splice));
  }
  if (std::optional<ZoneYears> zone = item_zone_years(item, true)) {
    f.source_bytes = sizeof(ZoneYears) + zone->zone.size();
    f.source = std::make_shared<const ZoneYears>(std::move(*zone));
  }
  ctx.fragments.cache->store(key, ctx.fragments.epoch, std::move(f));
}

// The text of the list feed of `keys` (a page in list order) with the VEVENTs kept in the fragment
// cache: only the other events' rows and relations are read (a narrow statement a kind) and their
// VEVENTs written, and kept. nullopt when an event read after its key no longer lists as the key
// says (written in between): the caller then reads the page whole.
std::optional<std::string> kept_feed_text(RequestContext& ctx, const std::vector<ListedEventKey>& keys,
                                          bool expand) {
  std::vector<std::string> fragment_keys;
  fragment_keys.reserve(keys.size());
  for (const ListedEventKey& k : keys) fragment_keys.push_back(vevent_key(ctx, k.id));
  const std::vector<std::shared_ptr<const Fragment>> kept = ctx.fragments.cache->find_all(fragment_keys);
  std::optional<UnkeptEvents> unkept = read_unkept_events(
      ctx, keys, kept, RelationParts{.images = false, .tags = false, .term_counts = false, .per_part = true});
  if (!unkept) return std::nullopt;
  const std::vector<Event>& events = unkept->events;
  EventRelations& relations = unkept->relations;
  const std::vector<FeedItem> items = feed_items(ctx, events, expand, relations);
  const std::vector<std::string> texts = vevent_texts(ctx, items, relations, true);
  // In page order: each kept VEVENT where its event stands (with its categories as they are now),
  // each written item where the event it stands for does (a series where its first occurrence on
  // the page does, its occurrences edited alone after it).
  std::vector<const Fragment*> spliced;
  for (const auto& f : kept)
    if (f && !f->splices.empty()) spliced.push_back(f.get());
  const TermRows terms = current_terms(ctx, spliced);
  // Each category's property written once for the page: through libical for every event, some
  // 1,400 of them took a 1,000-event feed about 2 ms of CPU.
  std::unordered_map<long long, std::string> category_texts;
  const auto categories_now = [&](const TermSplice& splice) {
    std::string out;
    for (const Term* t : current_order(splice, terms)) {
      auto [it, added] = category_texts.try_emplace(t->id);
      if (added) it->second = categories_text({t});
      out += it->second;
    }
    return out;
  };
  std::deque<std::string> with_categories;
  std::vector<ZoneYears> zones;
  std::vector<const std::string*> vevents;
  std::size_t next = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (kept[i]) {
      note_fragment_read(*kept[i]);
      if (kept[i]->splices.empty()) {
        vevents.push_back(&kept[i]->json);
      } else {
        const std::string& text = kept[i]->json;
        const TermSplice& splice = kept[i]->splices.front();
        with_categories.push_back(text.substr(0, splice.at) + categories_now(splice) +
                                  text.substr(splice.at));
        vevents.push_back(&with_categories.back());
      }
      if (kept[i]->source) zones.push_back(*static_cast<const ZoneYears*>(kept[i]->source.get()));
      continue;
    }
    for (; next < items.size() && items[next].listed_id == keys[i].id; ++next) {
      if (std::optional<ZoneYears> zone = item_zone_years(items[next], true))
        zones.push_back(std::move(*zone));
      vevents.push_back(&texts[next]);
      keep_vevent(ctx, items[next], relations, texts[next], fragment_keys[i]);
    }
  }
  if (next != items.size()) return std::nullopt;
  return calendar_of(ctx, list_title(ctx), zones, vevents);
}

// A list feed's answer: `text`, with the total and pages as the JSON list's headers say them.
Response listed_feed(std::string text, long long total, long long per_page) {
  Response r = calendar_response(std::move(text), file_name("events"));
  const long long pages = total == 0 ? 0 : (total + per_page - 1) / per_page;
  r.set_header("X-WP-Total", std::to_string(total));
  r.set_header("X-WP-TotalPages", std::to_string(pages));
  r.set_header("X-TEC-Total", std::to_string(total));
  r.set_header("X-TEC-TotalPages", std::to_string(pages));
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
  const bool expand = ctx.params.given(param::kExpand) && ctx.params.boolean(param::kExpand);
  // The page as keys, where the plan gives them, when VEVENTs may be kept.
  if (ctx.fragments.cache)
    if (const std::optional<EventKeyPage> keys =
            find_event_key_page(ctx.db, filter, paging.per_page, paging.offset())) {
      check_page_exists(paging, keys->total, "event", ctx.locale);
      if (std::optional<std::string> text = kept_feed_text(ctx, keys->keys, expand)) {
        if (snapshot) snapshot->commit();
        return listed_feed(std::move(*text), keys->total, paging.per_page);
      }
    }
  const EventPage page = find_event_page(ctx.db, filter, paging.per_page, paging.offset());
  check_page_exists(paging, page.total, "event", ctx.locale);
  // A VEVENT shows no image, tag or term count: the statement reads none of them.
  EventRelations relations = load_event_relations(
      ctx.db, page.events,
      RelationParts{.images = false, .tags = false, .term_counts = false, .per_part = true});
  const std::vector<FeedItem> items = feed_items(ctx, page.events, expand, relations);
  // Lists never show a protected event's content (docs/api.md §3.5).
  Response r =
      listed_feed(calendar_text(ctx, items, relations, true, list_title(ctx)), page.total, paging.per_page);
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
  const std::vector<FeedItem> one{
      {loaded->first, loaded->first.post.id, {}, std::nullopt, {}, false, 0, loaded->first.post.id}};
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
