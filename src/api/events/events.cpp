// GET /events (docs/api.md §4, §4.1), and GET and DELETE of one event by id or by slug
// (docs/api.md §2, §3.5, §5), of a recurring series and of one occurrence, and GET
// /events/{id}/occurrences (docs/recurring-events.md). Create and update are in event_writes.cpp.
#include "cal/api/events/event_filter.h"
#include "cal/api/events/event_fragments.h"
#include "cal/api/events/event_record.h"
#include "cal/api/events/event_recurrence.h"
#include "cal/api/events/series_horizon.h"
#include "cal/api/pipeline/bulkhead.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/handlers.h"
#include "cal/api/pipeline/listing.h"
#include "cal/api/posts/post_access.h"
#include "cal/api/posts/post_writes.h"
#include "cal/api/posts/site_time.h"

namespace cal {
namespace {

// 403 event-password-protected: a single read of a protected event without the password.
ApiError event_password_protected(const RequestContext& ctx) {
  return ApiError{403, "event-password-protected", translate(ctx.locale, "The event is password protected.")};
}

// The stored event behind a post row found by load_target.
Event load_event(RequestContext& ctx, const PostRow& row) {
  std::vector<Event> found = find_events(ctx.db, {row.id});
  if (found.empty()) throw std::runtime_error("event " + std::to_string(row.id) + " has no details");
  return std::move(found.front());
}

std::string now_utc_text() { return format_date_time(to_utc_date_time(now_seconds())); }

// The id a request names: its path's, or by slug an event's (an occurrence's slug names the
// occurrence), else a series' (docs/recurring-events.md); 0 when the slug names neither.
long long named_event_id(RequestContext& ctx) {
  if (ctx.params.has(param::kId)) return ctx.params.integer(param::kId);
  const std::string& slug = ctx.params.text(param::kSlug);
  if (const auto post = find_post_by_slug(ctx.db, PostType::kEvent, slug)) return post->id;
  return find_series_by_slug(ctx.db, slug).value_or(0);
}

// GET of series `id`: the series with its rule and next occurrences.
Response get_series(RequestContext& ctx, long long id) {
  auto loaded = load_series_with_relations(ctx.db, id, now_utc_text());
  if (!loaded) throw std::runtime_error("series " + std::to_string(id) + " vanished");
  check_readable(ctx, kEventKind, loaded->first.post);
  if (!event_unlocked(ctx, loaded->first.post)) throw event_password_protected(ctx);
  JsonBuffer buffer;
  JsonWriter w(buffer);
  write_event(w, ctx, loaded->first, loaded->second, EventView::kFull, true);
  return json_response(200, buffer);
}

// DELETE of series `id`: trashed (or deleted) with every occurrence; a trashed series stays
// parked with its rule, so that an untrash brings the occurrences back.
Response delete_series(RequestContext& ctx, long long id, const SeriesRule& rule) {
  Transaction tx(ctx.db);
  lock_post(ctx.db, id);
  unpark_series(ctx.db, id);
  const auto found = find_post(ctx.db, PostType::kEvent, id);
  if (!found) throw std::runtime_error("series " + std::to_string(id) + " vanished");
  const PostRow& row = *found;
  const Event event = load_event(ctx, row);
  EventRelations relations = load_event_relations(ctx.db, {event});
  relations.series.emplace(id, SeriesRecord{rule.recurrence, std::nullopt, std::nullopt});
  const bool force = ctx.params.boolean(param::kForce);
  Response r = delete_post_record(
      ctx, kEventKind, row,
      [&] {
        if (force)
          delete_occurrences(ctx.db, id);
        else
          set_occurrences_status(ctx.db, id, "trash");
      },
      [&](JsonWriter& w, const PostRow& post) {
        Event shown = event;
        shown.post = post;
        write_event(w, ctx, shown, relations, EventView::kFull, false);
      });
  if (!force) park_series(ctx.db, id, rule);
  tx.commit();
  return r;
}

// The rule of the series of `occurrence`, the series locked for this transaction's write.
SeriesRule locked_series_rule(RequestContext& ctx, const StoredOccurrence& occurrence) {
  lock_post(ctx.db, occurrence.series_id);
  std::optional<SeriesRule> rule = find_series_rule(ctx.db, occurrence.series_id);
  if (!rule) throw std::runtime_error("occurrence " + std::to_string(occurrence.event_id) + " has no series");
  return std::move(*rule);
}

// Series `id` unparked: an event again, for the event writes and the materialisation.
Event unparked_series(RequestContext& ctx, long long id) {
  unpark_series(ctx.db, id);
  std::vector<Event> series = find_events(ctx.db, {id});
  if (series.empty()) throw std::runtime_error("series " + std::to_string(id) + " has no details");
  return std::move(series.front());
}

// DELETE of one occurrence: cancelled, an EXDATE added to its series' rule.
Response cancel_occurrence(RequestContext& ctx, const StoredOccurrence& occurrence) {
  const PostRow row = load_target(ctx, kEventKind);
  check_editable(ctx, row);
  Transaction tx(ctx.db);
  const SeriesRule rule = locked_series_rule(ctx, occurrence);
  const Event shown = load_event(ctx, row);
  const EventRelations relations = load_event_relations(ctx.db, {shown});
  JsonBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  write_key(w, "deleted");
  w.Bool(true);
  write_key(w, "previous");
  write_event(w, ctx, shown, relations, EventView::kFull, false);
  w.EndObject();
  const Event series = unparked_series(ctx, occurrence.series_id);
  const SeriesWrite written =
      materialise_series(ctx, series, with_exdate(rule.recurrence, series, occurrence));
  park_series(ctx.db, occurrence.series_id, written.rule);
  tx.commit();
  return json_response(200, buffer);
}

// DELETE of an occurrence with scope=following: the series ends before it (the rule gets an
// UNTIL); from its first occurrence on, that is the whole series.
Response end_series_before(RequestContext& ctx, const StoredOccurrence& occurrence) {
  const PostRow row = load_target(ctx, kEventKind);
  check_editable(ctx, row);
  Transaction tx(ctx.db);
  const SeriesRule rule = locked_series_rule(ctx, occurrence);
  const Event series = unparked_series(ctx, occurrence.series_id);
  const auto lines = lines_ending_before(ctx, series, rule.recurrence, occurrence);
  if (!lines) {
    park_series(ctx.db, occurrence.series_id, rule);
    Response r = delete_series(ctx, occurrence.series_id, rule);
    tx.commit();
    return r;
  }
  const SeriesWrite written = materialise_series(ctx, series, *lines);
  EventRelations relations = load_event_relations(ctx.db, {series});
  relations.series.emplace(occurrence.series_id,
                           SeriesRecord{written.rule.recurrence, written.counts, std::nullopt});
  JsonBuffer buffer;
  JsonWriter w(buffer);
  write_event(w, ctx, series, relations, EventView::kFull, false);
  park_series(ctx.db, occurrence.series_id, written.rule);
  tx.commit();
  return json_response(200, buffer);
}

// The answer of GET /events: the page of `filter` and its total. With rendered records kept, the
// list reads its page as keys and only the rows of the records not kept; should one of those have
// been written in between, the page again as rows.
Response event_list_page(RequestContext& ctx, const EventFilter& filter, const Paging& paging) {
  if (ctx.fragments.cache)
    if (const auto keyed = find_event_key_page(ctx.db, filter, paging.per_page, paging.offset())) {
      check_page_exists(paging, keyed->total, "event", ctx.locale);
      if (const auto records = gather_event_list(ctx, keyed->keys)) {
        const ListEnvelope envelope{"events", ctx.ns_url() + "/events", effective_query(ctx, paging), paging,
                                    keyed->total};
        return list_response(envelope, [&](JsonWriter& w) { write_event_list(w, ctx, *records); });
      }
    }
  const EventPage page = find_event_page(ctx.db, filter, paging.per_page, paging.offset());
  check_page_exists(paging, page.total, "event", ctx.locale);
  const ListEnvelope envelope{"events", ctx.ns_url() + "/events", effective_query(ctx, paging), paging,
                              page.total};
  // The records already rendered for an earlier answer are reused; relations are read for the rest.
  return list_response(envelope, [&](JsonWriter& w) { write_event_list(w, ctx, page.events); });
}

}  // namespace

// One page of events in UTC start order, a constant number of statements whatever per_page is
// (page + count, then the relations of the whole page at once).
Response list_events(RequestContext& ctx) {
  const Paging paging = read_paging(ctx);
  EventFilter filter = build_event_filter(ctx);
  extend_series_horizons(ctx, filter.window);
  std::optional<Transaction> snapshot;
  plan_filter_search(ctx, filter, snapshot);
  PlannedWork work;
  work.event_list = plan_event_list(filter);
  const Admission admission = admit(ctx, work);
  Response response = event_list_page(ctx, filter, paging);
  if (snapshot) snapshot->commit();
  return response;
}

Response get_event(RequestContext& ctx) {
  // A record rendered for an earlier read, kept with the post row the checks read: no statement,
  // unless a term it shows changed since (its row is read again).
  if (ctx.params.has(param::kId))
    if (const auto kept = find_single_event(ctx, ctx.params.integer(param::kId))) {
      const PostRow& row = *static_cast<const PostRow*>(kept->source.get());
      check_readable(ctx, kEventKind, row);
      if (!event_unlocked(ctx, row)) throw event_password_protected(ctx);
      note_fragment_read(*kept);
      JsonBuffer buffer;
      JsonWriter w(buffer);
      write_kept_single_event(w, ctx, *kept);
      return json_response(200, buffer);
    }
  // By id, the event and its relations come first, in one statement, and the checks run on its
  // post row: a read by id costs one statement. Computed for a caller who may then
  // not see it, as rare as a wrong id. By slug, or for no event by that id (the 404), the post
  // row is looked up first.
  NamedEventRead named = find_named_event(ctx);
  if (named.series_id) return get_series(ctx, named.series_id);
  std::optional<std::pair<Event, EventRelations>>& loaded = named.loaded;
  const PostRow& row = named.row;
  check_readable(ctx, kEventKind, row);
  if (!event_unlocked(ctx, row)) throw event_password_protected(ctx);
  if (!loaded) loaded = load_event_with_relations(ctx.db, row.id);
  if (!loaded) throw std::runtime_error("event " + std::to_string(row.id) + " has no details");
  JsonBuffer buffer;
  JsonWriter w(buffer);
  keep_single_event(w, ctx, loaded->first, loaded->second);
  return json_response(200, buffer);
}

Response delete_event(RequestContext& ctx) {
  if (const long long id = named_event_id(ctx)) {
    if (const auto rule = find_series_rule(ctx.db, id)) return delete_series(ctx, id, *rule);
    if (const auto occurrence = find_occurrence(ctx.db, id)) {
      const std::string scope = ctx.params.text(param::kScope);
      if (scope == "following") return end_series_before(ctx, *occurrence);
      if (scope != "all") return cancel_occurrence(ctx, *occurrence);
      const auto series_rule = find_series_rule(ctx.db, occurrence->series_id);
      if (!series_rule) throw std::runtime_error("occurrence " + std::to_string(id) + " has no series");
      return delete_series(ctx, occurrence->series_id, *series_rule);
    }
  }
  const PostRow row = load_target(ctx, kEventKind);
  const Event event = load_event(ctx, row);
  const EventRelations relations = load_event_relations(ctx.db, {event});
  // The record as trashed (or as it was, when deleted for good); links stay with a trashed event
  // so that restoring it brings them back. The deleter has edit rights: nothing is masked.
  return delete_post_record(
      ctx, kEventKind, row, [] {},
      [&](JsonWriter& w, const PostRow& post) {
        Event shown = event;
        shown.post = post;
        write_event(w, ctx, shown, relations, EventView::kFull, false);
      });
}

}  // namespace cal

namespace cal {

// The occurrences of a series (named by its id or one of its occurrences') in the list's order,
// with paging and totals, all of them or those of a date window; a one-off event is its own one
// occurrence.
Response list_occurrences(RequestContext& ctx) {
  const long long id = ctx.params.integer(param::kId);
  long long series_id = 0;
  if (find_series_rule(ctx.db, id))
    series_id = id;
  else if (const auto occurrence = find_occurrence(ctx.db, id))
    series_id = occurrence->series_id;
  EventFilter filter = build_event_filter(ctx);
  // Without dates, every occurrence (the event list's default window would end 24 months ahead).
  if (!ctx.params.given(param::kStartDate)) filter.window.start_min.reset();
  if (!ctx.params.given(param::kEndDate)) filter.window.end_max.reset();
  if (series_id) {
    const auto series = find_series_event(ctx.db, series_id);
    if (!series) throw std::runtime_error("series " + std::to_string(series_id) + " vanished");
    check_readable(ctx, kEventKind, series->post);
    filter.parent = series_id;
  } else {
    check_readable(ctx, kEventKind, load_target(ctx, kEventKind));
    filter.parent.reset();
    filter.include = {id};
  }
  extend_series_horizons(ctx, filter.window);
  std::optional<Transaction> snapshot;
  plan_filter_search(ctx, filter, snapshot);
  const Paging paging = read_paging(ctx);
  const EventPage page = find_event_page(ctx.db, filter, paging.per_page, paging.offset());
  check_page_exists(paging, page.total, "event", ctx.locale);
  const EventRelations relations = load_event_relations(ctx.db, page.events);
  // The id is in the path, not in the query of the paging links.
  QueryPairs query = effective_query(ctx, paging);
  std::erase_if(query, [](const auto& pair) { return pair.first == "id"; });
  const ListEnvelope envelope{"events", ctx.ns_url() + "/events/" + std::to_string(id) + "/occurrences",
                              std::move(query), paging, page.total};
  Response response = list_response(envelope, [&](JsonWriter& w) {
    for (const Event& e : page.events) write_event(w, ctx, e, relations, EventView::kMasked, false);
  });
  if (snapshot) snapshot->commit();
  return response;
}

}  // namespace cal
