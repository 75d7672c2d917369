// The event list query (cal/store/events.h find_event_page): an EventFilter as SQL, then the
// count and the page in list order (UTC start, then id).
#include "cal/store/events.h"

#include "store/event_link_list.h"
#include "store/event_rows.h"
#include "store/event_sql.h"
#include "store/event_window_list.h"
#include "cal/store/read_set.h"

#include <cmath>

namespace cal {
namespace {

constexpr double kPi = 3.14159265358979323846;
// Kilometres per degree of latitude, rounded down so the box is never too small.
constexpr double kKmPerDegree = 110.5;

std::string utc_text(Seconds instant) { return format_date_time(to_utc_date_time(instant)); }

void add_bound(SqlWhere& w, const std::optional<Seconds>& bound, std::string_view condition) {
  if (bound) w.add(condition).bind(utc_text(*bound));
}

void add_window(SqlWhere& w, const EventDateWindow& window) {
  add_bound(w, window.start_min, "d.start_utc >= ?");
  add_bound(w, window.start_after, "d.start_utc > ?");
  add_bound(w, window.start_before, "d.start_utc < ?");
  add_bound(w, window.end_max, "d.end_utc <= ?");
  add_bound(w, window.end_after, "d.end_utc > ?");
  add_bound(w, window.end_before, "d.end_utc < ?");
}

constexpr const char* kTextLike =
    "(p.title LIKE ? ESCAPE '!' OR p.content LIKE ? ESCAPE '!' OR p.excerpt LIKE ? ESCAPE '!')";

void bind_text_like(SqlWhere& w, const std::string& word) {
  const std::string pattern = like_contains(word);
  for (int i = 0; i < 3; ++i) w.bind(pattern);
}

// The candidates of a search the index narrows, read first (STRAIGHT_JOIN: MariaDB otherwise
// walks the whole window and probes them): the events the postings of the narrowing word's index
// words name, and every pending event (not indexed yet, or since changed by hand: `pending` = 1,
// its postings may be stale).
void narrow_to_candidates(EventSql& q, const SearchNarrowing& n) {
  std::string candidates = "SELECT sp.event_id, 1 AS pending FROM search_pending sp";
  if (!n.word_ids.empty())
    candidates = "SELECT spo.event_id, 0 AS pending FROM search_postings spo WHERE spo.word_id IN (" +
                 placeholders(n.word_ids.size()) + ") UNION ALL " + candidates;
  q.from =
      " FROM (SELECT c.event_id, MAX(c.pending) AS pending FROM (" + candidates +
      ") c GROUP BY c.event_id) sc STRAIGHT_JOIN posts p ON p.id = sc.event_id"
      " STRAIGHT_JOIN event_details d ON d.event_id = p.id LEFT JOIN event_venues ev ON ev.event_id = p.id";
  q.from_args.assign(n.word_ids.begin(), n.word_ids.end());
}

// The postings of `word` when the planner found that they decide it.
const IndexedWord* indexed_word(const std::vector<IndexedWord>& indexed, const std::string& word) {
  for (const IndexedWord& i : indexed)
    if (i.word == word) return &i;
  return nullptr;
}

void add_search(EventSql& q, const SearchWords& words, const std::optional<SearchNarrowing>& narrowing,
                const std::vector<IndexedWord>& indexed) {
  SqlWhere& w = q.where;
  if (narrowing && narrowing->word_ids.empty() && !narrowing->pending_events) {
    w.add("1 = 0");  // no event holds the word
    return;
  }
  if (narrowing) narrow_to_candidates(q, *narrowing);
  for (std::size_t i = 0; i < words.required.size(); ++i) {
    if (narrowing && narrowing->word == i && narrowing->exact && !narrowing->word_ids.empty()) {
      // The postings decide an indexed event; only pending ones need the LIKE.
      w.add("(sc.pending = 0 OR " + std::string(kTextLike) + ")");
    } else if (const IndexedWord* by_index = indexed_word(indexed, words.required[i]);
               by_index && narrowing) {
      // A key lookup per index word instead of reading the event's texts; the candidates say
      // which events are pending (their postings may be stale).
      w.add("((sc.pending = 0 AND EXISTS (SELECT 1 FROM search_postings sx WHERE sx.word_id IN (" +
            placeholders(by_index->word_ids.size()) + ") AND sx.event_id = p.id)) OR (sc.pending = 1 AND " +
            kTextLike + "))");
      for (long long id : by_index->word_ids) w.bind(id);
      bind_text_like(w, words.required[i]);
      continue;
    } else {
      w.add(kTextLike);
    }
    bind_text_like(w, words.required[i]);
  }
  for (const auto& word : words.excluded) {
    w.add(std::string("NOT ") + kTextLike);
    bind_text_like(w, word);
  }
}

// A bounding box on the venue_details_geo index (latitude always; longitude unless the box
// reaches a pole or the antimeridian), then the exact great-circle distance.
void add_fence(SqlWhere& w, const GeoFence& f) {
  const double dlat = f.radius_km / kKmPerDegree;
  w.add("vd.geo_lat BETWEEN ? AND ?").bind(f.lat - dlat).bind(f.lat + dlat);
  // Longitude degrees shrink with the cosine of the latitude; use the box's widest latitude.
  const double widest = std::fabs(f.lat) + dlat;
  if (widest < 89.0) {
    const double dlng = f.radius_km / (kKmPerDegree * std::cos(widest * kPi / 180.0));
    if (f.lng - dlng >= -180.0 && f.lng + dlng <= 180.0)
      w.add("vd.geo_lng BETWEEN ? AND ?").bind(f.lng - dlng).bind(f.lng + dlng);
  }
  w.add("ST_Distance_Sphere(POINT(vd.geo_lng, vd.geo_lat), POINT(?, ?)) <= ?")
      .bind(f.lng)
      .bind(f.lat)
      .bind(f.radius_km * 1000.0);
}

// The visibility rule of sql_where.h on event_details' copies of the post's status, author and
// date (schema.sql keeps them), so that the window and status indexes of event_details serve it.
void add_event_visibility(SqlWhere& w, const PostVisibility& v) {
  const std::string due = "(d.status = 'future' AND d.publish_utc <= UTC_TIMESTAMP())";
  const std::string published = "(d.status = 'publish' OR " + due + ")";
  if (!v.statuses.empty()) {
    w.add("IF(" + due + ", 'publish', d.status) IN (" + placeholders(v.statuses.size()) + ")");
    for (const std::string& s : v.statuses) w.bind(s);
  } else {
    w.add("d.status <> 'trash'");
  }
  switch (v.scope) {
    case ReadScope::kAll:
      break;
    case ReadScope::kPublished:
      w.add(published);
      break;
    case ReadScope::kPublishedAndOwn:
      w.add("(" + published + " OR d.author = ?)").bind(v.user_id);
      break;
  }
}

// Only the first occurrence of its series (by start, then id) among the events the rest of the
// filter lets through: no earlier one of the same series among them. The rest of the filter is
// the inner query's, as a derived table (its aliases its own), which MariaDB materialises once
// and looks up by key per candidate.
void add_first_per_series(SqlWhere& w, const EventFilter& f) {
  EventFilter rest = f;
  rest.first_per_series = false;
  const EventSql inner = event_sql(rest);
  w.add(
      "NOT EXISTS (SELECT 1 FROM event_occurrences so JOIN (SELECT p.id, d.start_utc" + inner.from +
      inner.joins + " WHERE p.type = 'event'" + inner.where.sql +
      ") x ON x.id = so.event_id WHERE so.series_id = (SELECT oo.series_id FROM event_occurrences oo WHERE "
      "oo.event_id = p.id) AND (x.start_utc < d.start_utc OR (x.start_utc = d.start_utc AND x.id < p.id)))");
  for (const SqlValue& v : inner.args()) w.bind(v);
}

std::string page_sql(const EventSql& q) {
  return "SELECT " + event_columns() + q.from + q.joins + " WHERE p.type = 'event'" + q.where.sql +
         " ORDER BY d.start_utc, p.id LIMIT ? OFFSET ?";
}

}  // namespace

std::vector<SqlValue> EventSql::args() const {
  std::vector<SqlValue> all = from_args;
  all.insert(all.end(), where.args.begin(), where.args.end());
  return all;
}

EventSql event_sql(const EventFilter& f) {
  EventSql q;
  q.from = kEventFrom;
  SqlWhere& w = q.where;
  add_event_visibility(w, f.visibility);
  if (f.matches_nothing) w.add("1 = 0");
  if (!f.include.empty())
    w.add_in("p.id IN ", f.include);
  else
    w.add("d.hide_from_listings = 0");
  add_window(w, f.window);
  add_search(q, f.search, f.search_narrowing, f.search_indexed);
  if (!f.categories.empty())
    w.add_in("EXISTS (SELECT 1 FROM term_relationships tc WHERE tc.event_id = p.id AND tc.term_id IN ",
             f.categories, "))");
  if (!f.tags.empty())
    w.add_in("EXISTS (SELECT 1 FROM term_relationships tt WHERE tt.event_id = p.id AND tt.term_id IN ",
             f.tags, "))");
  if (!f.venues.empty()) w.add_in("ev.venue_id IN ", f.venues);
  if (!f.organizers.empty())
    w.add_in("EXISTS (SELECT 1 FROM event_organizers eo WHERE eo.event_id = p.id AND eo.organizer_id IN ",
             f.organizers, "))");
  add_bound(w, f.modified.after, "p.modified_utc > ?");
  add_bound(w, f.modified.before, "p.modified_utc < ?");
  if (f.featured) w.add("d.featured = ?").bind(*f.featured);
  if (f.parent) w.add("p.parent = ?").bind(*f.parent);
  if (f.with_coordinates || f.fence) q.joins += " JOIN venue_details vd ON vd.venue_id = ev.venue_id";
  if (f.with_coordinates) w.add("vd.geo_lat IS NOT NULL AND vd.geo_lng IS NOT NULL");
  if (f.fence) add_fence(w, *f.fence);
  if (f.first_per_series) add_first_per_series(w, f);
  return q;
}

std::string event_page_sql(const EventFilter& filter) {
  if (window_list_applies(filter)) return window_page_sql(filter);
  if (link_list_applies(filter)) return link_page_sql(filter);
  return page_sql(event_sql(filter));
}

EventListPlan plan_event_list(const EventFilter& filter) {
  if (!filter.include.empty()) return EventListPlan::kIds;
  if (!filter.search.empty() && filter.search_is_expensive && !search_list_bounded(filter))
    return EventListPlan::kTextScan;
  if (window_list_applies(filter)) return EventListPlan::kWindow;
  if (link_list_applies(filter)) return EventListPlan::kLinks;
  return EventListPlan::kFilter;
}

std::optional<EventKeyPage> find_event_key_page(Db& db, const EventFilter& filter, long long limit,
                                                long long offset) {
  const EventListPlan plan = plan_event_list(filter);
  if (plan != EventListPlan::kWindow && plan != EventListPlan::kLinks) return std::nullopt;
  note_list_read(ListFamily::kEvents);
  return plan == EventListPlan::kWindow ? find_window_keys(db, filter, limit, offset)
                                        : find_link_keys(db, filter, limit, offset);
}

bool lists_as(const Event& event, const ListedEventKey& key) {
  return event.post.id == key.id && event.post.status == key.status && event.post.author == key.author &&
         event.details.start_utc == key.start_utc && event.details.end_utc == key.end_utc &&
         event.details.hide_from_listings == key.hidden && event.details.featured == key.featured;
}

EventPage find_event_page(Db& db, const EventFilter& filter, long long limit, long long offset) {
  note_list_read(ListFamily::kEvents);
  if (window_list_applies(filter)) return find_window_page(db, filter, limit, offset);
  if (link_list_applies(filter)) return find_link_page(db, filter, limit, offset);
  const EventSql q = event_sql(filter);
  EventPage page;
  {
    Rows rows =
        db.query("SELECT COUNT(*)" + q.from + q.joins + " WHERE p.type = 'event'" + q.where.sql, q.args());
    page.total = rows.next() ? rows.integer(0) : 0;
  }
  if (page.total <= offset) return page;
  std::vector<SqlValue> args = q.args();
  args.emplace_back(limit);
  args.emplace_back(offset);
  Rows rows = db.query(page_sql(q), args);
  while (rows.next()) page.events.push_back(read_event(rows));
  return page;
}

}  // namespace cal
