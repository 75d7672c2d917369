// GET /changes (docs/sync.md): the records whose visible state
// changed for this caller since a sync token, each with what the caller now sees of it.
#include "cal/api/sync/changes.h"

#include "cal/api/events/event_record.h"
#include "cal/api/linked/linked_records.h"
#include "cal/api/pipeline/bulkhead.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/handlers.h"
#include "cal/api/posts/post_access.h"
#include "cal/api/posts/site_time.h"
#include "cal/api/sync/sync_token.h"
#include "cal/api/terms/term_records.h"
#include "cal/core/dates/clock_use.h"
#include "cal/store/events.h"
#include "cal/store/organizers.h"
#include "cal/store/read_set.h"
#include "cal/store/terms.h"
#include "cal/store/venues.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace cal {
namespace {

// The largest page: its records are read and written in one answer.
constexpr long long kMaxPerPage = 500;
// When nothing changed since a token, the answer gives the same token back for this long (then
// one with the clock moved on, for the retention), so polls get the same body and ETag
// (If-None-Match answers 304). A new token holds the exact clock of its read: rounded down, it
// would report again the scheduled posts that came due in the rounded-off seconds.
constexpr long long kUnchangedTokenKept = 3600;
// Scheduled posts come due a few at a time; of more than this between two polls, the rest go
// unreported (docs/sync.md).
constexpr long long kMaxDue = 5000;

// Unix seconds (the database clock) as an instant.
Seconds instant(long long unix_seconds) { return Seconds{std::chrono::seconds{unix_seconds}}; }

unsigned requested_kinds(const RequestContext& ctx) {
  if (!ctx.params.given(param::kKinds) || ctx.params.texts(param::kKinds).empty()) return kSyncAllKinds;
  unsigned kinds = 0;
  for (const std::string& k : ctx.params.texts(param::kKinds)) kinds |= sync_kind_bits(k);
  return kinds;
}

ApiError token_expired(const RequestContext& ctx) {
  return ApiError{
      410, "rest_sync_token_expired",
      translate(ctx.locale, "The sync token is too old: read everything again and start from a new token.")};
}

// What one entry reports: the kind the client knows it by, and its record when visible.
struct Entry {
  std::string kind;  // event, venue, organizer, category, tag, series
  long long id = 0;
  long long at = 0;
  bool visible = false;
};

// The entries of a page with their visibility for this caller. A term logged before migration
// 10 ("term") is a category or a tag as it is found; gone, its kind is unknown and it is left out.
// A series is an event while it is written (store/event_series.cpp), so the log holds its id as
// an "event" too: an event id that is a series now is reported as the series. A "series" logged
// for an id that is an event now (a series made a one-off event) is the series gone: a delete.
std::vector<Entry> resolve(RequestContext& ctx, const std::vector<MergedChange>& merged, unsigned kinds,
                           std::map<long long, Term>& terms) {
  std::map<std::string, std::vector<long long>> ids;
  for (const MergedChange& c : merged) ids[c.kind == "term" ? "category" : c.kind].push_back(c.id);
  for (const MergedChange& c : merged)
    if (c.kind == "term") ids["tag"].push_back(c.id);
  const PostVisibility visibility = readable_posts(ctx);
  std::set<std::pair<std::string, long long>> visible;
  std::vector<long long> post_ids = ids["event"];
  post_ids.insert(post_ids.end(), ids["series"].begin(), ids["series"].end());
  const SeriesAmong series = find_series_among(ctx.db, post_ids, visibility);
  const std::set<long long> series_now(series.series.begin(), series.series.end());
  for (long long id : series.listed) visible.emplace("series", id);
  for (const auto& [kind, type] : {std::pair<std::string, PostType>{"event", PostType::kEvent},
                                   {"venue", PostType::kVenue},
                                   {"organizer", PostType::kOrganizer}})
    for (long long id : listed_post_ids(ctx.db, type, ids[kind], visibility)) visible.emplace(kind, id);
  for (const auto& [kind, taxonomy] :
       {std::pair<std::string, Taxonomy>{"category", Taxonomy::kCategory}, {"tag", Taxonomy::kTag}}) {
    if (ids[kind].empty()) continue;
    TermQuery q;
    q.taxonomy = taxonomy;
    q.include = ids[kind];
    q.hide_empty = false;
    q.order_by = TermOrder::kId;
    q.limit = static_cast<long long>(ids[kind].size());
    for (Term& t : find_term_page(ctx.db, q).terms) {
      visible.emplace(kind, t.id);
      terms.emplace(t.id, std::move(t));
    }
  }
  std::vector<Entry> out;
  std::set<std::pair<std::string, long long>> seen;
  for (const MergedChange& c : merged) {
    std::string kind = c.kind;
    if (kind == "term") {
      const auto it = terms.find(c.id);
      if (it == terms.end()) continue;
      kind = it->second.taxonomy == Taxonomy::kTag ? "tag" : "category";
      if (!(sync_kind_bits(kind) & kinds)) continue;
    }
    if (kind == "event" && series_now.count(c.id)) {
      kind = "series";
      if (!(sync_kind_bits(kind) & kinds)) continue;
    }
    if (!seen.emplace(kind, c.id).second) continue;
    out.push_back(Entry{kind, c.id, c.at, visible.count({kind, c.id}) > 0});
  }
  return out;
}

// The records of the visible entries, written as the item routes write them for this caller. A
// password-protected event comes masked as the lists show it, unless the caller may edit it
// (docs/sync.md).
class RecordWriter {
 public:
  RecordWriter(RequestContext& ctx, const std::vector<Entry>& entries, std::map<long long, Term> terms)
      : ctx_(ctx), terms_(std::move(terms)) {
    std::vector<long long> event_ids, venue_ids, organizer_ids;
    std::optional<std::string> now;  // for the series' next occurrences, read once
    for (const Entry& e : entries) {
      if (!e.visible) continue;
      if (e.kind == "series") {
        // A few statements per series (its rule, links, next occurrences): pages hold few series.
        if (!now) now = format_date_time(to_utc_date_time(now_seconds()));
        if (auto loaded = load_series_with_relations(ctx.db, e.id, *now))
          series_.emplace(e.id, std::move(*loaded));
      }
      if (e.kind == "event") event_ids.push_back(e.id);
      if (e.kind == "venue") venue_ids.push_back(e.id);
      if (e.kind == "organizer") organizer_ids.push_back(e.id);
    }
    if (!event_ids.empty()) {
      for (Event& e : find_events(ctx.db, event_ids)) events_.emplace(e.post.id, std::move(e));
      std::vector<Event> all;
      for (const auto& [id, e] : events_) all.push_back(e);
      // Up to 500 records: narrow statements (see cal/store/event_relations.h).
      relations_ = load_event_relations(ctx.db, all, RelationParts{.per_part = true});
    }
    if (!venue_ids.empty())
      for (Venue& v : find_venues(ctx.db, venue_ids, &images_)) venues_.emplace(v.post.id, std::move(v));
    if (!organizer_ids.empty())
      for (Organizer& o : find_organizers(ctx.db, organizer_ids, &images_))
        organizers_.emplace(o.post.id, std::move(o));
  }

  // Writes the record of `e`; false when it is gone after all (deleted since the visibility read).
  bool write(JsonWriter& w, const Entry& e) {
    if (e.kind == "series") {
      const auto it = series_.find(e.id);
      if (it == series_.end()) return false;
      const auto& [series, relations] = it->second;
      const bool full =
          series.post.password.empty() || can_edit_post(ctx_.caller, series.post.author, series.post.status);
      write_key(w, "record");
      write_event(w, ctx_, series, relations, full ? EventView::kFull : EventView::kMasked, true);
      return true;
    }
    if (e.kind == "event") {
      const auto it = events_.find(e.id);
      if (it == events_.end()) return false;
      const PostRow& row = it->second.post;
      const bool full = row.password.empty() || can_edit_post(ctx_.caller, row.author, row.status);
      write_key(w, "record");
      write_event(w, ctx_, it->second, relations_, full ? EventView::kFull : EventView::kMasked, true);
      return true;
    }
    if (e.kind == "venue") {
      const auto it = venues_.find(e.id);
      if (it == venues_.end()) return false;
      write_key(w, "record");
      write_venue(w, ctx_, it->second, images_, true);
      return true;
    }
    if (e.kind == "organizer") {
      const auto it = organizers_.find(e.id);
      if (it == organizers_.end()) return false;
      write_key(w, "record");
      write_organizer(w, ctx_, it->second, images_, true);
      return true;
    }
    const auto it = terms_.find(e.id);
    if (it == terms_.end()) return false;
    write_key(w, "record");
    write_term(w, ctx_, it->second);
    return true;
  }

  // Whether write() has the record (it is written only after "action").
  bool has(const Entry& e) const {
    if (e.kind == "event") return events_.count(e.id) > 0;
    if (e.kind == "series") return series_.count(e.id) > 0;
    if (e.kind == "venue") return venues_.count(e.id) > 0;
    if (e.kind == "organizer") return organizers_.count(e.id) > 0;
    return terms_.count(e.id) > 0;
  }

 private:
  RequestContext& ctx_;
  std::map<long long, Term> terms_;
  std::map<long long, Event> events_;
  std::map<long long, std::pair<Event, EventRelations>> series_;  // the series with their own relations
  EventRelations relations_;
  std::map<long long, Venue> venues_;
  std::map<long long, Organizer> organizers_;
  std::vector<Image> images_;
};

Response answer(const std::vector<Entry>& entries, RecordWriter* records, const SyncToken& next, bool more) {
  JsonBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  write_key(w, "changes");
  w.StartArray();
  for (const Entry& e : entries) {
    const bool upsert = e.visible && records && records->has(e);
    w.StartObject();
    write_member(w, "kind", e.kind);
    write_key(w, "id");
    w.Int64(e.id);
    write_member(w, "action", upsert ? "upsert" : "delete");
    write_member(w, "modified_utc", format_date_time(to_utc_date_time(instant(e.at))));
    if (upsert) records->write(w, e);
    w.EndObject();
  }
  w.EndArray();
  write_member(w, "next", encode_sync_token(next));
  write_key(w, "more");
  w.Bool(more);
  w.EndObject();
  return json_response(200, buffer);
}

}  // namespace

Response list_changes(RequestContext& ctx) {
  // Any write may change the answer: it depends on every list family (the response cache drops
  // it on the next write of any kind; a scheduled post coming due is the cache's own check).
  for (ListFamily f : {ListFamily::kEvents, ListFamily::kVenues, ListFamily::kOrganizers, ListFamily::kTerms})
    note_list_read(f);
  const double retention = ctx.config.sync.retention_days;
  if (!ctx.params.given(param::kSince)) {
    const ChangeLogSlice now = read_change_counters(ctx.db);
    const SyncToken token{now.counters, now.db_now};
    note_valid_until(instant(token.at + 1));
    return answer({}, nullptr, token, false);
  }
  const auto since = decode_sync_token(ctx.params.text(param::kSince));
  if (!since)
    throw invalid_param(ctx, "since", translate(ctx.locale, "since is not a sync token this service gave."));
  // An old token reads many log rows and records (the clock is read, not recorded: the answer
  // does not depend on it).
  PlannedWork work;
  work.changes_since_seconds = unmarked_now().time_since_epoch().count() - since->at;
  const Admission admission = admit(ctx, work);
  const unsigned kinds = requested_kinds(ctx);
  const long long limit = std::min(ctx.params.integer(param::kPerPage, 100), kMaxPerPage);
  // Enough rows per shard for `limit` records even when each change wrote several log rows.
  const long long slice_limit = limit * 8 + 16;
  const ChangeLogSlice slice = read_change_log(ctx.db, since->shards, slice_limit);
  if (sync_token_expired(*since, slice.db_now, retention)) throw token_expired(ctx);
  note_valid_until(instant(since->at + static_cast<long long>(retention * 86400.0)));
  MergedPage page = merge_changes(slice, since->shards, kinds, limit, slice_limit);
  if (page.gap) throw token_expired(ctx);

  SyncToken next{page.next, since->at};
  if (!page.more) {
    // Scheduled posts that came due since the token turned visible without a write: they are
    // reported as changed then (a page may exceed per_page by them). The token's clock moves on
    // only once the whole log is read.
    for (const auto& [kind, id] : posts_come_due(ctx.db, since->at, slice.db_now, kMaxDue))
      if (sync_kind_bits(kind) & kinds) page.changes.push_back(MergedChange{kind, id, slice.db_now});
    // Nothing at all since the token: the same token again for an hour, so polls get 304.
    const bool unchanged =
        page.changes.empty() && page.next == since->shards && slice.db_now - since->at < kUnchangedTokenKept;
    next.at = unchanged ? since->at : slice.db_now;
    note_valid_until(instant(unchanged ? since->at + kUnchangedTokenKept : next.at + 1));
  }
  std::map<long long, Term> terms;
  const std::vector<Entry> entries = resolve(ctx, page.changes, kinds, terms);
  RecordWriter records(ctx, entries, std::move(terms));
  return answer(entries, &records, next, page.more);
}

}  // namespace cal
