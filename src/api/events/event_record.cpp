// The event record writer and its batch-loaded relations (see cal/api/events/event_record.h).
#include "cal/api/events/event_record.h"

#include "cal/api/events/event_fragments.h"
#include "cal/api/events/event_json_ld.h"
#include "cal/api/events/event_recurrence.h"
#include "cal/api/linked/linked_records.h"
#include "cal/api/posts/post_access.h"
#include "cal/api/posts/post_record.h"
#include "cal/api/terms/term_records.h"
#include "cal/core/text/cost.h"
#include "cal/store/event_relations.h"
#include "cal/store/posts.h"

namespace cal {
namespace {

const std::vector<Term> kNoTerms;
const std::vector<long long> kNoIds;

template <typename Map>
const typename Map::mapped_type& value_or(const Map& map, long long key,
                                          const typename Map::mapped_type& fallback) {
  const auto it = map.find(key);
  return it == map.end() ? fallback : it->second;
}

// `value` in decimal, left-padded with zeros to `width` digits. Written into a buffer: a list page
// writes 24 of these per event, and a std::string each was a measurable share of the uncached
// request's allocations (docs/performance.md).
void write_padded(JsonWriter& w, std::string_view key, int value, int width) {
  write_key(w, key);
  if (value < 0) {  // never from a stored date; kept exact all the same
    std::string s = std::to_string(value);
    if (s.size() < static_cast<size_t>(width)) s.insert(0, static_cast<size_t>(width) - s.size(), '0');
    w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
    return;
  }
  char digits[16];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n < width) digits[n++] = '0';
  char out[16];
  for (int i = 0; i < n; ++i) out[i] = digits[n - 1 - i];
  w.String(out, static_cast<rapidjson::SizeType>(n));
}

// {"year":"2025","month":"05","day":"02","hour":"09","minutes":"00","seconds":"00"}
void write_details(JsonWriter& w, const LocalDateTime& t) {
  w.StartObject();
  write_padded(w, "year", t.year, 4);
  write_padded(w, "month", t.month, 2);
  write_padded(w, "day", t.day, 2);
  write_padded(w, "hour", t.hour, 2);
  write_padded(w, "minutes", t.minute, 2);
  write_padded(w, "seconds", t.second, 2);
  w.EndObject();
}

// `key` is one of the four literal date keys below, `key_details` its companion.
void write_date_pair(JsonWriter& w, std::string_view key, std::string_view key_details,
                     const std::string& text) {
  const LocalDateTime t = parse_sql_date_time(text).value_or(LocalDateTime{});
  write_member(w, key, format_date_time(t));
  write_key(w, key_details);
  write_details(w, t);
}

void write_cost_details(JsonWriter& w, const CostDetails* cost) {
  w.StartObject();
  write_member(w, "currency_symbol", cost ? cost->currency_symbol : "");
  write_member(w, "currency_code", cost ? cost->currency_code : "");
  write_member(w, "currency_position", cost ? cost->currency_position : "");
  write_key(w, "values");
  w.StartArray();
  if (cost)
    for (const auto& v : cost->values) write_string(w, v);
  w.EndArray();
  w.EndObject();
}

void write_flag(JsonWriter& w, std::string_view key, bool value, bool masked) {
  write_key(w, key);
  if (masked)
    w.Null();
  else
    w.Bool(value);
}

void write_terms(JsonWriter& w, const RequestContext& ctx, const std::vector<Term>& terms, bool masked,
                 TermSlots* slots) {
  const std::vector<Term>& shown = masked ? kNoTerms : terms;
  w.StartArray();
  if (slots && !shown.empty()) {
    TermSplice splice{.at = slots->buffer.GetSize(), .ids = {}};
    for (const Term& t : shown) splice.ids.push_back(t.id);
    slots->splices.push_back(std::move(splice));
  } else {
    for (const Term& t : shown) write_term(w, ctx, t);
  }
  w.EndArray();
}

// The relations as the writer looks them up.
EventRelations keyed_relations(EventRelationRows rows) {
  EventRelations rel;
  for (const auto& [event_id, organizer_id] : rows.organizer_links)
    rel.organizer_ids[event_id].push_back(organizer_id);
  for (Venue& v : rows.venues) rel.venues.emplace(v.post.id, std::move(v));
  for (Organizer& o : rows.organizers) rel.organizers.emplace(o.post.id, std::move(o));
  for (auto& [event_id, term] : rows.terms) {
    auto& list = term.taxonomy == Taxonomy::kCategory ? rel.categories : rel.tags;
    list[event_id].push_back(std::move(term));
  }
  rel.images = std::move(rows.images);
  return rel;
}

// recurrence, and what a write did or the upcoming occurrences (docs/recurring-events.md).
void write_series_members(JsonWriter& w, const RequestContext& ctx, const SeriesRecord& series) {
  write_key(w, "recurrence");
  w.StartArray();
  for (const std::string& line : series.recurrence) write_string(w, line);
  w.EndArray();
  if (series.counts) {
    write_key(w, "occurrences_created");
    w.Int64(series.counts->created);
    write_key(w, "occurrences_removed");
    w.Int64(series.counts->removed);
    write_key(w, "exceptions_dropped");
    w.Int64(series.counts->exceptions_dropped);
  }
  if (series.upcoming) {
    write_key(w, "next_occurrences");
    w.StartArray();
    for (const UpcomingOccurrence& o : *series.upcoming) {
      w.StartObject();
      write_key(w, "id");
      w.Int64(o.event_id);
      write_member(w, "start_date", o.start_local);
      write_member(w, "utc_start_date", o.start_utc);
      write_member(w, "rest_url", record_rest_url(ctx, kEventKind, o.event_id));
      w.EndObject();
    }
    w.EndArray();
  }
}

}  // namespace

EventRelations keyed_event_relations(EventRelationRows rows) { return keyed_relations(std::move(rows)); }

EventRelations load_event_relations(Db& db, const std::vector<Event>& events, const RelationParts& parts) {
  return keyed_relations(find_event_relations(db, events, parts));
}

EventRelations load_written_event_relations(Db& db, const Event& event, const WrittenLinks& links) {
  return keyed_relations(find_written_event_relations(db, event, links));
}

std::optional<std::pair<Event, EventRelations>> load_event_with_relations(Db& db, long long id,
                                                                          LinkedRowKeeper* kept) {
  EventRelationRows rows =
      find_event_relations(db, std::vector<long long>{id}, RelationParts{.events = true, .kept = kept});
  if (rows.events.empty()) return std::nullopt;
  Event event = std::move(rows.events.front());
  return std::make_pair(std::move(event), keyed_relations(std::move(rows)));
}

EventRelations load_series_relations(Db& db, const std::vector<std::pair<Event, long long>>& series) {
  // The organizers and terms as an occurrence not edited alone carries them: copies of the
  // series' own (its venue is its own, read by the id it holds).
  std::vector<Event> probes;
  for (const auto& [record, plain] : series) {
    probes.push_back(record);
    probes.back().post.id = plain;
  }
  EventRelations rel = keyed_relations(find_event_relations(db, probes));
  for (const auto& [record, plain] : series) {
    if (plain == 0) continue;
    const long long id = record.post.id;
    if (auto it = rel.organizer_ids.find(plain); it != rel.organizer_ids.end())
      rel.organizer_ids[id] = it->second;
    if (auto it = rel.categories.find(plain); it != rel.categories.end()) rel.categories[id] = it->second;
    if (auto it = rel.tags.find(plain); it != rel.tags.end()) rel.tags[id] = it->second;
  }
  return rel;
}

std::optional<std::pair<Event, EventRelations>> load_series_with_relations(
    Db& db, long long id, const std::optional<std::string>& upcoming_after) {
  std::optional<Event> series = find_series_event(db, id);
  if (!series) return std::nullopt;
  EventRelations rel = load_series_relations(db, {{*series, find_plain_occurrence(db, id)}});
  SeriesRecord record;
  if (const auto rule = find_series_rule(db, id)) record.recurrence = rule->recurrence;
  if (upcoming_after) record.upcoming = find_upcoming_occurrences(db, id, *upcoming_after, 10);
  rel.series.emplace(id, std::move(record));
  return std::make_pair(std::move(*series), std::move(rel));
}

bool event_unlocked(const RequestContext& ctx, const PostRow& row) {
  if (row.password.empty()) return true;
  if (ctx.params.given(param::kPassword) && ctx.params.text(param::kPassword) == row.password) return true;
  return ctx.params.text(param::kContext) == "edit" && can_edit_post(ctx.caller, row.author, row.status);
}

void write_event(JsonWriter& w, const RequestContext& ctx, const Event& event, const EventRelations& rel,
                 EventView view, bool single, TermSlots* slots) {
  const bool masked = view == EventView::kMasked && !event.post.password.empty();
  const EventDetails& d = event.details;
  w.StartObject();
  if (masked) {
    PostRow hidden = event.post;
    hidden.content.clear();
    hidden.excerpt.clear();
    hidden.image_id = 0;
    write_post_head(w, ctx, kEventKind, hidden, rel.images);
  } else {
    write_post_head(w, ctx, kEventKind, event.post, rel.images);
  }
  write_flag(w, "all_day", d.all_day, masked);
  write_date_pair(w, "start_date", "start_date_details", d.start_local);
  write_date_pair(w, "end_date", "end_date_details", d.end_local);
  write_date_pair(w, "utc_start_date", "utc_start_date_details", d.start_utc);
  write_date_pair(w, "utc_end_date", "utc_end_date_details", d.end_utc);
  const TimeZone zone = TimeZone::find(d.timezone).value_or(TimeZone::utc());
  const Seconds start = from_utc_date_time(parse_sql_date_time(d.start_utc).value_or(LocalDateTime{}));
  write_member(w, "timezone", zone.name());
  write_member(w, "timezone_abbr", zone.abbreviation(start));
  const CostDetails cost = parse_cost(d.cost);
  write_member(w, "cost", masked ? "" : display_cost(d.cost));
  write_key(w, "cost_details");
  write_cost_details(w, masked ? nullptr : &cost);
  write_member(w, "website",
               masked              ? ""
               : d.website.empty() ? public_url(ctx, kEventKind, event.post.slug)
                                   : d.website);
  write_flag(w, "show_map", d.show_map, masked);
  write_flag(w, "show_map_link", d.show_map_link, masked);
  write_flag(w, "hide_from_listings", d.hide_from_listings, masked);
  write_flag(w, "sticky", d.sticky, masked);
  write_flag(w, "featured", d.featured, masked);
  write_key(w, "categories");
  write_terms(w, ctx, value_or(rel.categories, event.post.id, kNoTerms), masked, slots);
  write_key(w, "tags");
  write_terms(w, ctx, value_or(rel.tags, event.post.id, kNoTerms), masked, slots);
  write_key(w, "venue");
  const auto venue = masked ? rel.venues.end() : rel.venues.find(event.venue_id);
  if (venue != rel.venues.end()) {
    write_venue(w, ctx, venue->second, rel.images, false);
  } else {
    w.StartArray();
    w.EndArray();
  }
  write_key(w, "organizer");
  w.StartArray();
  if (!masked)
    for (long long id : value_or(rel.organizer_ids, event.post.id, kNoIds))
      if (const auto o = rel.organizers.find(id); o != rel.organizers.end())
        write_organizer(w, ctx, o->second, rel.images, false);
  w.EndArray();
  const auto series = rel.series.find(event.post.id);
  write_occurrence_members(w, event.occurrence ? &*event.occurrence : nullptr, series != rel.series.end());
  if (series != rel.series.end()) write_series_members(w, ctx, series->second);
  if (single && !masked) {
    write_key(w, "json_ld");
    write_event_json_ld(w, ctx, event, rel, cost);
  }
  w.EndObject();
}

NamedEventRead find_named_event(RequestContext& ctx) {
  NamedEventRead out;
  std::optional<PostRow> by_slug;
  if (ctx.params.has(param::kId)) {
    const long long id = ctx.params.integer(param::kId);
    const std::unique_ptr<LinkedRowKeeper> kept = fragment_row_keeper(ctx);
    out.loaded = load_event_with_relations(ctx.db, id, kept.get());
    // A series has no event details: asked only when no event has the id.
    if (!out.loaded && find_series_rule(ctx.db, id)) {
      out.series_id = id;
      return out;
    }
  } else {
    // A series only when no event has the slug: the event's post row serves the checks.
    by_slug = find_post_by_slug(ctx.db, PostType::kEvent, ctx.params.text(param::kSlug));
    if (!by_slug)
      if (const auto series_id = find_series_by_slug(ctx.db, ctx.params.text(param::kSlug))) {
        out.series_id = *series_id;
        return out;
      }
  }
  out.row = out.loaded ? out.loaded->first.post : by_slug ? *by_slug : load_target(ctx, kEventKind);
  return out;
}

}  // namespace cal
