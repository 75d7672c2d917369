// POST /events (create) and POST/PUT/PATCH /events/{id} and /events/by-slug/{slug} (update),
// docs/api.md §5: each write is one transaction; the response is the record as stored. The writes
// without their response are shared with the iCalendar import (cal/api/events/event_writes.h).
// With `recurrence` the record is a series and the write materialises its occurrences; an update
// of an occurrence edits it alone (docs/recurring-events.md).
#include "cal/api/events/event_writes.h"
#include "cal/api/events/event_fields.h"
#include "cal/api/events/event_record.h"
#include "cal/api/events/event_recurrence.h"
#include "cal/api/events/search_indexer.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/handlers.h"
#include "cal/api/posts/post_access.h"
#include "cal/api/posts/post_record.h"
#include "cal/api/posts/post_writes.h"
#include "cal/api/posts/site_time.h"
#include "cal/store/search_index.h"

namespace cal {
namespace {

// Written inline, the event's words go into the search index in its own transaction; a few events
// written by hand (the mysql client, calendarctl) are indexed along with it.
constexpr long long kPendingIndexedPerWrite = 16;

// The search index's upkeep of event `id`, just written (docs/search.md, "Keeping it current").
void keep_index(RequestContext& ctx, long long id, WrittenEvent how, IndexUpkeep upkeep) {
  if (!ctx.config.search.index) return;
  if (upkeep == IndexUpkeep::kDeferrable)
    if (SearchIndexer* indexer = search_indexer()) {
      ctx.db.after_commit([indexer] { indexer->wake(); });
      return;
    }
  index_pending_events(ctx.db, kPendingIndexedPerWrite, id, how);
}

// A one-off event as its write stored it, and the links the write set: what its answer is made of.
struct EventWrite {
  Event event;
  WrittenLinks links;
};

EventWrite write_event_create(RequestContext& ctx, IndexUpkeep upkeep) {
  Transaction tx(ctx.db);
  EventWrite written;
  Event& event = written.event;
  event.details.timezone = site_zone(ctx).name();
  apply_post_fields(ctx, kEventKind, event.post, true);
  apply_event_fields(ctx, event, true);
  insert_post(ctx.db, event.post);
  save_event_details(ctx.db, event.post.id, event.details);
  AppliedLinks applied = apply_event_links(ctx, event.post.id, true);
  event.venue_id = applied.venue_id.value_or(0);
  written.links = std::move(applied.links);
  keep_index(ctx, event.post.id, WrittenEvent::kCreated, upkeep);
  tx.commit();  // only counts down: the outermost transaction commits
  return written;
}

EventWrite write_event_changes(RequestContext& ctx, long long target_id, IndexUpkeep upkeep) {
  const std::optional<PostRow> named =
      target_id ? find_post(ctx.db, PostType::kEvent, target_id) : std::nullopt;
  if (target_id && !named) throw std::runtime_error("event " + std::to_string(target_id) + " vanished");
  const PostRow target = named ? *named : load_target(ctx, kEventKind);
  check_editable(ctx, target);
  Transaction tx(ctx.db);
  // Concurrent updates of one event apply one after the other, each to the latest version.
  lock_post(ctx.db, target.id);
  std::vector<Event> found = find_events(ctx.db, {target.id});
  if (found.empty()) throw std::runtime_error("event " + std::to_string(target.id) + " has no details");
  EventWrite written{std::move(found.front()), {}};
  Event& event = written.event;
  const std::string old_slug = event.post.slug;
  apply_post_fields(ctx, kEventKind, event.post, false);
  apply_event_fields(ctx, event, false);
  update_post(ctx.db, event.post, event.post.slug != old_slug);
  save_event_details(ctx.db, event.post.id, event.details);
  AppliedLinks applied = apply_event_links(ctx, event.post.id);
  if (applied.venue_id) event.venue_id = *applied.venue_id;
  written.links = std::move(applied.links);
  keep_index(ctx, event.post.id, WrittenEvent::kChanged, upkeep);
  tx.commit();
  return written;
}

// The answer of a write of a one-off event, built from what the write stored (its values were
// validated and normalised before they were written: the id, the slug made unique, the dates and
// the status are the stored ones) instead of reading the event back. The records it links are
// read by id, with the terms' counts its links just changed (cal/store/event_relations.h). Written
// in full, without json_ld, as any write's answer: the writer has edit rights, so a password hides
// nothing from them.
Response written_answer(RequestContext& ctx, EventWrite written, int status) {
  Event& event = written.event;
  // What the read of a post computes (kPostColumns): a scheduled post whose date has passed reads
  // `publish` (an update that moved a `future` event's date into the past and left its status).
  if (event.post.status == "future" &&
      event.post.date_utc <= format_date_time(to_utc_date_time(now_seconds())))
    event.post.status = "publish";
  const EventRelations relations = load_written_event_relations(ctx.db, event, written.links);
  JsonBuffer buffer;
  JsonWriter w(buffer);
  write_event(w, ctx, event, relations, EventView::kFull, false);
  Response r = json_response(status, buffer);
  if (status == 201) r.set_header("Location", record_rest_url(ctx, kEventKind, event.post.id));
  return r;
}

// The event as stored now (inside the write's transaction), written in full: the writer has
// edit rights, so a password hides nothing from them. One statement reads the event and its
// relations together: for the writes of series and occurrences, which change more than their
// values (a one-off event's write answers with written_answer()).
Response written_event(RequestContext& ctx, long long id, int status) {
  const auto loaded = load_event_with_relations(ctx.db, id);
  if (!loaded) throw std::runtime_error("event " + std::to_string(id) + " vanished during its write");
  JsonBuffer buffer;
  JsonWriter w(buffer);
  write_event(w, ctx, loaded->first, loaded->second, EventView::kFull, false);
  Response r = json_response(status, buffer);
  if (status == 201) r.set_header("Location", record_rest_url(ctx, kEventKind, id));
  return r;
}

// Makes unparked event `id` the series of `lines`, answers with the series as stored and what the
// write did, then parks it (cal/store/event_series.h).
Response written_series(RequestContext& ctx, long long id, const std::vector<std::string>& lines,
                        int status) {
  auto loaded = load_event_with_relations(ctx.db, id);
  if (!loaded) throw std::runtime_error("event " + std::to_string(id) + " vanished during its write");
  auto& [event, relations] = *loaded;
  const SeriesWrite series = materialise_series(ctx, event, lines);
  // Occurrences trashed with the series come back with it (those not edited alone follow it anyway).
  if (event.post.status != "trash") untrash_occurrences(ctx.db, id);
  relations.series.emplace(id, SeriesRecord{series.rule.recurrence, series.counts, std::nullopt});
  JsonBuffer buffer;
  JsonWriter w(buffer);
  write_event(w, ctx, event, relations, EventView::kFull, false);
  park_series(ctx.db, id, series.rule);
  Response r = json_response(status, buffer);
  if (status == 201) r.set_header("Location", record_rest_url(ctx, kEventKind, id));
  return r;
}

std::string scope_input(const RequestContext& ctx) {
  return ctx.params.given(param::kScope) ? ctx.params.text(param::kScope) : std::string();
}

// The fields of a scope=all write applied to series `id`, unparked; returns the lines its occurrences
// are made from (`recurrence` when sent, else its rule; none: it becomes a one-off event).
std::vector<std::string> write_series_fields(RequestContext& ctx, long long id, const SeriesRule& rule) {
  lock_post(ctx.db, id);
  unpark_series(ctx.db, id);
  write_event_update(ctx, id);
  return recurrence_input(ctx).value_or(rule.recurrence);
}

// PATCH of series `id` (scope all): the event write applies to it unparked, then its occurrences
// are made again from it; no lines (`recurrence` null or []) make it a one-off event.
Response update_series(RequestContext& ctx, long long id, const SeriesRule& rule) {
  const std::vector<std::string> lines = write_series_fields(ctx, id, rule);
  if (!lines.empty()) return written_series(ctx, id, lines, 200);
  forget_series(ctx.db, id);
  return written_event(ctx, id, 200);
}

// PATCH of occurrence `occurrence` (scope this): it becomes an exception, edited alone, keeping
// its id; it may not start when another occurrence of its series does.
Response update_occurrence(RequestContext& ctx, const StoredOccurrence& occurrence) {
  return written_event(ctx, write_occurrence_update(ctx, occurrence), 200);
}

// PATCH of occurrence `occurrence` with scope=following: the series ends before it, and a new
// series (a copy of the old one with the request's changes) starts there, taking the later
// occurrences along (their ids kept where its rule still produces them). From the first
// occurrence on, that is the whole series.
Response split_series(RequestContext& ctx, const StoredOccurrence& occurrence) {
  const long long old_id = occurrence.series_id;
  const auto rule = find_series_rule(ctx.db, old_id);
  const auto parked = find_series_event(ctx.db, old_id);
  if (!rule || !parked) throw std::runtime_error("occurrence of a vanished series " + std::to_string(old_id));
  const auto ended = lines_ending_before(ctx, *parked, rule->recurrence, occurrence);
  if (!ended) return update_series(ctx, old_id, *rule);
  lock_post(ctx.db, old_id);
  check_editable(ctx, parked->post);
  unpark_series(ctx.db, old_id);
  // The new series: the old one's fields, starting at this occurrence's original start.
  const long long new_id = copy_series_event(ctx.db, old_id);
  std::vector<Event> found = find_events(ctx.db, {new_id});
  if (found.empty())
    throw std::runtime_error("event " + std::to_string(new_id) + " vanished during its write");
  Event first = std::move(found.front());
  const TimeZone zone = TimeZone::find(first.details.timezone).value_or(TimeZone::utc());
  const auto sql_seconds = [](const std::string& text) {
    return from_utc_date_time(parse_sql_date_time(text).value_or(LocalDateTime{}));
  };
  const Seconds start = sql_seconds(occurrence.original_utc);
  const Seconds end = start + (sql_seconds(parked->details.end_utc) - sql_seconds(parked->details.start_utc));
  first.details.start_utc = format_date_time(to_utc_date_time(start));
  first.details.end_utc = format_date_time(to_utc_date_time(end));
  first.details.start_local = format_date_time(zone.to_local(start));
  first.details.end_local = format_date_time(zone.to_local(end));
  save_event_details(ctx.db, new_id, first.details);
  const std::vector<std::string> later =
      recurrence_input(ctx).value_or(lines_from(ctx, *parked, rule->recurrence, occurrence, first));
  move_occurrences(ctx.db, old_id, new_id, occurrence.original_utc);
  // The old series, ended before the split.
  std::vector<Event> old_series = find_events(ctx.db, {old_id});
  if (old_series.empty()) throw std::runtime_error("series " + std::to_string(old_id) + " has no details");
  park_series(ctx.db, old_id, materialise_series(ctx, old_series.front(), *ended).rule);
  write_event_update(ctx, new_id);
  if (!later.empty()) return written_series(ctx, new_id, later, 200);
  forget_series(ctx.db, new_id);
  return written_event(ctx, new_id, 200);
}

}  // namespace

long long write_occurrence_update(RequestContext& ctx, const StoredOccurrence& occurrence) {
  if (ctx.params.given(param::kRecurrence))
    throw invalid_param(ctx, "recurrence",
                        translate(ctx.locale, "recurrence is set on a series, not on one occurrence."));
  const long long id = write_event_update(ctx);
  mark_exception(ctx.db, id);
  const std::vector<Event> found = find_events(ctx.db, {id});
  if (!found.empty() &&
      occurrence_starts_at(ctx.db, occurrence.series_id, id, found.front().details.start_utc))
    throw invalid_param(ctx, "start_date",
                        translate(ctx.locale, "Another occurrence of the series starts at that time."));
  return id;
}

long long write_series_update(RequestContext& ctx, long long id, const SeriesRule& rule) {
  const std::vector<std::string> lines = write_series_fields(ctx, id, rule);
  if (lines.empty())
    forget_series(ctx.db, id);
  else
    save_series(ctx, id, lines);
  return id;
}

void save_series(RequestContext& ctx, long long id, const std::vector<std::string>& lines) {
  const std::vector<Event> found = find_events(ctx.db, {id});
  if (found.empty()) throw std::runtime_error("event " + std::to_string(id) + " vanished during its write");
  const SeriesWrite series = materialise_series(ctx, found.front(), lines);
  // As written_series: occurrences trashed with the series come back with it.
  if (found.front().post.status != "trash") untrash_occurrences(ctx.db, id);
  park_series(ctx.db, id, series.rule);
}

long long write_new_event(RequestContext& ctx, IndexUpkeep upkeep) {
  return write_event_create(ctx, upkeep).event.post.id;
}

long long write_event_update(RequestContext& ctx, long long target_id, IndexUpkeep upkeep) {
  return write_event_changes(ctx, target_id, upkeep).event.post.id;
}

Response create_event(RequestContext& ctx) {
  Transaction tx(ctx.db);
  const auto lines = recurrence_input(ctx);
  const bool series = lines && !lines->empty();
  EventWrite written = write_event_create(ctx, series ? IndexUpkeep::kInline : IndexUpkeep::kDeferrable);
  Response r = series ? written_series(ctx, written.event.post.id, *lines, 201)
                      : written_answer(ctx, std::move(written), 201);
  tx.commit();
  return r;
}

Response update_event(RequestContext& ctx) {
  Transaction tx(ctx.db);
  long long named = ctx.params.has(param::kId) ? ctx.params.integer(param::kId) : 0;
  // By slug, an event's (an occurrence's slug names the occurrence), else a series'.
  if (!named && ctx.params.has(param::kSlug)) {
    if (const auto post = find_post_by_slug(ctx.db, PostType::kEvent, ctx.params.text(param::kSlug)))
      named = post->id;
    else
      named = find_series_by_slug(ctx.db, ctx.params.text(param::kSlug)).value_or(0);
  }
  const std::string scope = scope_input(ctx);
  std::optional<Response> r;
  if (const auto rule = named ? find_series_rule(ctx.db, named) : std::nullopt) {
    if (scope == "this" || scope == "following")
      throw invalid_param(ctx, "scope", translate(ctx.locale, "A series is edited with scope=all."));
    r = update_series(ctx, named, *rule);
  } else if (const auto occurrence = named ? find_occurrence(ctx.db, named) : std::nullopt) {
    if (scope == "all") {
      // The fields apply to the series itself, as if sent to its id.
      const auto series_rule = find_series_rule(ctx.db, occurrence->series_id);
      if (!series_rule) throw std::runtime_error("occurrence " + std::to_string(named) + " has no series");
      r = update_series(ctx, occurrence->series_id, *series_rule);
    } else if (scope == "following") {
      r = split_series(ctx, *occurrence);
    } else {
      r = update_occurrence(ctx, *occurrence);
    }
  } else {
    const auto lines = recurrence_input(ctx);
    const bool series = lines && !lines->empty();
    EventWrite written =
        write_event_changes(ctx, 0, series ? IndexUpkeep::kInline : IndexUpkeep::kDeferrable);
    r = series ? written_series(ctx, written.event.post.id, *lines, 200)
               : written_answer(ctx, std::move(written), 200);
  }
  tx.commit();
  return std::move(*r);
}

}  // namespace cal
