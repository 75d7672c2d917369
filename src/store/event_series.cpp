// SQL of recurring series and their occurrences (see cal/store/event_series.h).
#include "cal/store/event_series.h"

#include "store/bulk_load.h"
#include "store/event_rows.h"
#include "store/json_rows.h"
#include "store/occurrence_copies.h"
#include "store/row_batches.h"
#include "cal/core/text/slug.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

namespace cal {
namespace {

constexpr const char* kSeriesDetailColumns =
    "start_local, end_local, start_utc, end_utc, timezone, all_day, cost, website, show_map, show_map_link, "
    "hide_from_listings, sticky, featured";

std::string identity_key(const std::string& local, const std::string& utc) { return local + "|" + utc; }

StoredOccurrence read_occurrence(const Rows& rows) {
  StoredOccurrence o;
  o.event_id = rows.integer(0);
  o.series_id = rows.integer(1);
  o.original_local = rows.text(2);
  o.original_utc = rows.text(3);
  o.is_exception = rows.integer(4) != 0;
  return o;
}

constexpr const char* kOccurrenceColumns =
    "o.event_id, o.series_id, DATE_FORMAT(o.original_local, '%Y-%m-%d %H:%i:%s'), "
    "DATE_FORMAT(o.original_utc, '%Y-%m-%d %H:%i:%s'), o.is_exception";

void delete_posts(Db& db, const std::vector<long long>& ids) {
  in_chunks(ids.size(), [&](std::size_t first, std::size_t n) {
    std::vector<SqlValue> args(ids.begin() + static_cast<long>(first),
                               ids.begin() + static_cast<long>(first + n));
    db.execute("DELETE FROM posts WHERE id IN (" + placeholders(n) + ")", args);
  });
}

// Slugs for the new occurrences: the series' slug and the original date, with -2, -3 ... when
// another post has it already.
std::vector<std::string> occurrence_slugs(Db& db, const std::string& series_slug,
                                          const std::vector<const WantedOccurrence*>& added) {
  const std::string base = series_slug.substr(0, 180);
  std::set<std::string> taken;
  Rows rows = db.query("SELECT slug FROM posts WHERE type = 'event' AND slug LIKE CONCAT(?, '-%')", {base});
  while (rows.next()) taken.insert(rows.text(0));
  std::vector<std::string> out;
  for (const WantedOccurrence* w : added) {
    const std::string wanted = base + "-" + w->original_local.substr(0, 10);
    std::string slug = wanted;
    for (int n = 2; taken.count(slug); ++n) slug = slug_with_suffix(wanted, n);
    taken.insert(slug);
    out.push_back(slug);
  }
  return out;
}

// The series' fields and times onto its occurrences not edited alone, then their links, postings
// and change-log notes (store/occurrence_copies.h); `survivors`: some were there before this write
// (new ones were copied from the series' post already), `first_new_id`: the least id of those
// inserted by this write (0: none). Runs while @cal_bulk_load is set: the details' insert triggers
// are left to the statements here, and the new rows' copy of their post's visibility with them.
void copy_series_to_occurrences(Db& db, long long series_id, bool survivors, long long first_new_id,
                                const std::vector<std::pair<long long, const WantedOccurrence*>>& timed) {
  if (survivors)
    db.execute(
        "UPDATE posts o JOIN event_occurrences eo ON eo.event_id = o.id JOIN posts s ON s.id = eo.series_id "
        "SET o.status = s.status, o.status_before_trash = s.status_before_trash, o.author = s.author, "
        "o.title = s.title, o.content = s.content, o.excerpt = s.excerpt, o.password = s.password, "
        "o.image_id = s.image_id, o.date_local = s.date_local, o.date_utc = s.date_utc, "
        "o.modified_local = s.modified_local, o.modified_utc = s.modified_utc "
        "WHERE eo.series_id = ? AND eo.is_exception = 0",
        {series_id});
  // A new row copies its post's visibility (event_details_visibility_bi); an existing one keeps
  // it, as its post's update trigger has set it already.
  execute_json_rows(
      db,
      "INSERT INTO event_details (event_id, " + std::string(kSeriesDetailColumns) +
          ", status, author, publish_utc) SELECT x.id, x.sl, x.el, x.su, x.eu, d.timezone, d.all_day, "
          "d.cost, d.website, d.show_map, d.show_map_link, d.hide_from_listings, d.sticky, d.featured, "
          "o.status, o.author, o.date_utc FROM JSON_TABLE(?, '$[*]' COLUMNS (id BIGINT UNSIGNED PATH '$[0]', "
          "sid BIGINT UNSIGNED PATH '$[1]', sl DATETIME PATH '$[2]', el DATETIME PATH '$[3]', su DATETIME "
          "PATH '$[4]', eu DATETIME PATH '$[5]')) x JOIN posts o ON o.id = x.id JOIN event_details d ON "
          "d.event_id = x.sid "
          "ON DUPLICATE KEY UPDATE start_local = VALUES(start_local), end_local = VALUES(end_local), "
          "start_utc = VALUES(start_utc), end_utc = VALUES(end_utc), timezone = VALUES(timezone), "
          "all_day = VALUES(all_day), cost = VALUES(cost), website = VALUES(website), "
          "show_map = VALUES(show_map), show_map_link = VALUES(show_map_link), "
          "hide_from_listings = VALUES(hide_from_listings), sticky = VALUES(sticky), featured = "
          "VALUES(featured)",
      timed, [&](JsonRowWriter& json, const std::pair<long long, const WantedOccurrence*>& t) {
        json.Int64(t.first);
        json.Int64(series_id);
        write_text(json, t.second->start_local);
        write_text(json, t.second->end_local);
        write_text(json, t.second->start_utc);
        write_text(json, t.second->end_utc);
      });
  if (first_new_id > 0) count_new_occurrences(db, series_id, first_new_id);
  // Without survivors, only the new occurrences are followers of interest, and they have no links,
  // postings or pending marks yet (their posts were written with the triggers idle).
  const long long from_id = survivors ? 0 : first_new_id;
  const bool fresh = !survivors;
  const std::vector<long long> terms = copy_occurrence_links(db, series_id, from_id, fresh);
  // The search index: the series' postings, or its pending mark when it has none yet.
  copy_occurrence_postings(db, series_id, from_id, fresh);
  Rows pending = db.query("SELECT 1 FROM search_pending WHERE event_id = ?", {series_id});
  if (pending.next()) {
    db.execute(
        "INSERT IGNORE INTO search_pending (event_id) SELECT eo.event_id FROM event_occurrences eo "
        "WHERE eo.series_id = ? AND eo.is_exception = 0 AND eo.event_id >= ?",
        {series_id, from_id});
  } else if (!fresh) {
    db.execute(
        "DELETE pe FROM search_pending pe JOIN event_occurrences eo ON eo.event_id = pe.event_id "
        "WHERE eo.series_id = ? AND eo.is_exception = 0 AND eo.event_id >= ?",
        {series_id, from_id});
  }
  note_occurrence_changes(db, series_id, from_id, terms);
}

// Sets the type of post `id` ('series' to park it, 'event' to unpark it). Slugs are unique per
// type, so the other type may hold its slug already (an event created while it was parked):
// it then takes the next free one (slug-2, slug-3, ...).
void set_post_type(Db& db, long long id, const char* type) {
  try {
    db.execute("UPDATE posts SET type = ? WHERE id = ?", {std::string(type), id});
    return;
  } catch (const DuplicateKey&) {
  }
  Rows row = db.query("SELECT slug FROM posts WHERE id = ?", {id});
  const std::string slug = row.next() ? row.text(0) : std::to_string(id);
  for (int n = 2; n < 1000; ++n) {
    try {
      db.execute("UPDATE posts SET type = ?, slug = ? WHERE id = ?",
                 {std::string(type), slug_with_suffix(slug, n), id});
      return;
    } catch (const DuplicateKey&) {
    }
  }
  throw DuplicateKey{"no free slug for " + slug};
}

// A rule's statement: its columns (read_rule()), then the series' id.
constexpr const char* kSelectRules =
    "SELECT s.recurrence, s.is_infinite, DATE_FORMAT(s.horizon_utc, '%Y-%m-%d %H:%i:%s'), s.series_id FROM "
    "event_series s JOIN posts p ON p.id = s.series_id AND p.type = 'series'";

// A rule from its row of kSelectRules.
SeriesRule read_rule(const Rows& rows) {
  SeriesRule rule;
  const std::string text = rows.text(0);
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    if (end > at) rule.recurrence.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  rule.is_infinite = rows.integer(1) != 0;
  rule.horizon_utc = rows.text(2);
  return rule;
}

// The series record's statement: its post, the fields of event_series, its venue link.
std::string select_series_events() {
  return "SELECT " + event_columns() +
         " FROM posts p JOIN event_series d ON d.series_id = p.id "
         "LEFT JOIN (SELECT series_id, target_id AS venue_id FROM series_links WHERE kind = 'venue') ev "
         "ON ev.series_id = p.id WHERE p.type = 'series'";
}

}  // namespace

std::optional<SeriesRule> find_series_rule(Db& db, long long id, bool for_update) {
  Rows rows = db.query(
      std::string(kSelectRules) + " WHERE s.series_id = ?" + (for_update ? " FOR UPDATE" : ""), {id});
  if (!rows.next()) return std::nullopt;
  return read_rule(rows);
}

std::map<long long, SeriesRule> find_series_rules(Db& db, const std::vector<long long>& ids) {
  std::map<long long, SeriesRule> out;
  if (ids.empty()) return out;
  Rows rows = db.query(std::string(kSelectRules) + " WHERE s.series_id IN (" + placeholders(ids.size()) + ")",
                       std::vector<SqlValue>(ids.begin(), ids.end()));
  while (rows.next()) out.emplace(rows.integer(3), read_rule(rows));
  return out;
}

std::optional<long long> find_series_by_slug(Db& db, std::string_view slug) {
  Rows rows = db.query("SELECT id FROM posts WHERE type = 'series' AND slug = ?", {std::string(slug)});
  if (!rows.next()) return std::nullopt;
  return rows.integer(0);
}

std::vector<long long> find_series_short_of(Db& db, const std::string& utc, int limit) {
  Rows rows = db.query(
      "SELECT series_id FROM event_series WHERE is_infinite = 1 AND horizon_utc < ? ORDER BY series_id LIMIT "
      "?",
      {utc, static_cast<long long>(limit)});
  std::vector<long long> out;
  while (rows.next()) out.push_back(rows.integer(0));
  return out;
}

std::optional<std::string> earliest_infinite_horizon(Db& db) {
  Rows rows = db.query(
      "SELECT DATE_FORMAT(MIN(horizon_utc), '%Y-%m-%d %H:%i:%s') FROM event_series WHERE is_infinite = 1");
  if (!rows.next() || rows.is_null(0)) return std::nullopt;
  return rows.text(0);
}

std::optional<Event> find_series_event(Db& db, long long id) {
  Rows rows = db.query(select_series_events() + " AND p.id = ?", {id});
  if (!rows.next()) return std::nullopt;
  return read_event(rows);
}

std::map<long long, Event> find_series_events(Db& db, const std::vector<long long>& ids) {
  std::map<long long, Event> out;
  if (ids.empty()) return out;
  Rows rows = db.query(select_series_events() + " AND p.id IN (" + placeholders(ids.size()) + ")",
                       std::vector<SqlValue>(ids.begin(), ids.end()));
  while (rows.next()) {
    Event e = read_event(rows);
    const long long id = e.post.id;
    out.emplace(id, std::move(e));
  }
  return out;
}

std::optional<StoredOccurrence> find_occurrence(Db& db, long long event_id) {
  Rows rows =
      db.query(std::string("SELECT ") + kOccurrenceColumns + " FROM event_occurrences o WHERE o.event_id = ?",
               {event_id});
  if (!rows.next()) return std::nullopt;
  return read_occurrence(rows);
}

std::vector<UpcomingOccurrence> find_upcoming_occurrences(Db& db, long long series_id,
                                                          const std::string& now_utc, int limit) {
  Rows rows = db.query(
      "SELECT d.event_id, DATE_FORMAT(d.start_local, '%Y-%m-%d %H:%i:%s'), DATE_FORMAT(d.start_utc, "
      "'%Y-%m-%d %H:%i:%s') "
      "FROM event_occurrences eo JOIN event_details d ON d.event_id = eo.event_id "
      "WHERE eo.series_id = ? AND d.end_utc > ? ORDER BY d.start_utc, d.event_id LIMIT ?",
      {series_id, now_utc, static_cast<long long>(limit)});
  std::vector<UpcomingOccurrence> out;
  while (rows.next()) out.push_back({rows.integer(0), rows.text(1), rows.text(2)});
  return out;
}

long long find_plain_occurrence(Db& db, long long series_id) {
  Rows rows = db.query(
      "SELECT event_id FROM event_occurrences WHERE series_id = ? AND is_exception = 0 LIMIT 1", {series_id});
  return rows.next() ? rows.integer(0) : 0;
}

std::map<long long, SeriesSpan> find_series_spans(Db& db, const std::vector<long long>& ids) {
  std::map<long long, SeriesSpan> out;
  if (ids.empty()) return out;
  // A row a series, then a row an occurrence edited alone (its id in the last column), not one
  // an occurrence: a feed's page may hold dozens of series of thousands of occurrences each. Each
  // by key: the last start from the end of the series' range of (series, start), the plain
  // occurrence (the lowest post id not edited alone) and the exceptions from (series, flag).
  const std::string in = " FROM event_occurrences WHERE series_id IN (" + placeholders(ids.size()) + ")";
  std::vector<SqlValue> args(ids.begin(), ids.end());
  args.insert(args.end(), ids.begin(), ids.end());
  Rows rows = db.query(
      "SELECT s.series_id, DATE_FORMAT(s.last_utc, '%Y-%m-%d %H:%i:%s'), COALESCE((SELECT o.event_id "
      "FROM event_occurrences o WHERE o.series_id = s.series_id AND o.is_exception = 0 ORDER BY o.event_id "
      "LIMIT 1), 0), 0 "
      "FROM (SELECT series_id, MAX(original_utc) AS last_utc" +
          in + " GROUP BY series_id) s UNION ALL SELECT series_id, NULL, 0, event_id" + in +
          " AND is_exception = 1",
      args);
  while (rows.next()) {
    SeriesSpan& span = out[rows.integer(0)];
    if (rows.integer(3) != 0) {
      span.exceptions.push_back(rows.integer(3));
    } else {
      span.last_original_utc = rows.text(1);
      span.plain_occurrence = rows.integer(2);
    }
  }
  return out;
}

std::vector<StoredOccurrence> find_series_occurrences(Db& db, long long series_id) {
  Rows rows =
      db.query(std::string("SELECT ") + kOccurrenceColumns +
                   " FROM event_occurrences o WHERE o.series_id = ? ORDER BY o.original_utc, o.event_id",
               {series_id});
  std::vector<StoredOccurrence> out;
  while (rows.next()) out.push_back(read_occurrence(rows));
  return out;
}

MaterialiseCounts materialise_occurrences(Db& db, long long series_id,
                                          const std::vector<WantedOccurrence>& wanted, bool keep_others) {
  MaterialiseCounts counts;
  std::map<std::string, const WantedOccurrence*> by_identity;
  for (const WantedOccurrence& w : wanted)
    by_identity.emplace(identity_key(w.original_local, w.original_utc), &w);
  std::vector<long long> vanished;
  std::vector<std::pair<long long, const WantedOccurrence*>> timed;  // not edited alone: times from the rule
  for (const StoredOccurrence& o : find_series_occurrences(db, series_id)) {
    const auto it = by_identity.find(identity_key(o.original_local, o.original_utc));
    if (it == by_identity.end()) {
      if (keep_others) continue;
      vanished.push_back(o.event_id);
      if (o.is_exception) ++counts.exceptions_dropped;
      continue;
    }
    if (!o.is_exception && !keep_others) timed.emplace_back(o.event_id, it->second);
    by_identity.erase(it);
  }
  // Deleted with their triggers (the counts out, the change log), before the bulk writes.
  delete_posts(db, vanished);
  counts.removed = static_cast<long long>(vanished.size());
  BulkLoad bulk(db);
  long long first_new_id = 0;

  const bool survivors = !timed.empty();
  std::vector<const WantedOccurrence*> added;
  for (const WantedOccurrence& w : wanted)
    if (by_identity.count(identity_key(w.original_local, w.original_utc))) added.push_back(&w);
  counts.created = static_cast<long long>(added.size());
  if (keep_others && added.empty()) return counts;
  if (!added.empty()) {
    Rows slug_row = db.query("SELECT slug FROM posts WHERE id = ?", {series_id});
    const std::string series_slug = slug_row.next() ? slug_row.text(0) : std::to_string(series_id);
    const std::vector<std::string> slugs = occurrence_slugs(db, series_slug, added);
    // The posts, copied from the series' row with their own slugs.
    execute_json_rows(db, kInsertOccurrencePosts, slugs, [&](JsonRowWriter& json, const std::string& slug) {
      write_text(json, slug);
      json.Int64(series_id);
    });
    std::map<std::string, long long> id_by_slug;
    Rows ids = db.query("SELECT id, slug FROM posts WHERE parent = ? AND type = 'event'", {series_id});
    while (ids.next()) id_by_slug.emplace(ids.text(1), ids.integer(0));
    std::vector<std::pair<long long, const WantedOccurrence*>> fresh;
    for (std::size_t i = 0; i < added.size(); ++i) fresh.emplace_back(id_by_slug.at(slugs[i]), added[i]);
    timed.insert(timed.end(), fresh.begin(), fresh.end());
    // Auto-increment ids: every new one is above every occurrence written before.
    first_new_id = std::min_element(fresh.begin(), fresh.end())->first;
    execute_json_rows(db, kInsertOccurrenceRows, fresh,
                      [&](JsonRowWriter& json, const std::pair<long long, const WantedOccurrence*>& f) {
                        json.Int64(f.first);
                        json.Int64(series_id);
                        write_text(json, f.second->original_local);
                        write_text(json, f.second->original_utc);
                      });
  }
  copy_series_to_occurrences(db, series_id, survivors, first_new_id, timed);
  bulk.end();
  return counts;
}

void park_series(Db& db, long long id, const SeriesRule& rule) {
  std::string lines;
  for (const std::string& line : rule.recurrence) lines += (lines.empty() ? "" : "\n") + line;
  db.execute(
      "INSERT INTO event_series (series_id, " + std::string(kSeriesDetailColumns) +
          ", recurrence, is_infinite, horizon_utc) SELECT event_id, " + kSeriesDetailColumns +
          ", ?, ?, ? FROM event_details WHERE event_id = ? ON DUPLICATE KEY UPDATE "
          "start_local = VALUES(start_local), end_local = VALUES(end_local), start_utc = VALUES(start_utc), "
          "end_utc = VALUES(end_utc), timezone = VALUES(timezone), all_day = VALUES(all_day), "
          "cost = VALUES(cost), website = VALUES(website), show_map = VALUES(show_map), "
          "show_map_link = VALUES(show_map_link), hide_from_listings = VALUES(hide_from_listings), "
          "sticky = VALUES(sticky), featured = VALUES(featured), recurrence = VALUES(recurrence), "
          "is_infinite = VALUES(is_infinite), horizon_utc = VALUES(horizon_utc)",
      {lines, rule.is_infinite, rule.horizon_utc, id});
  db.execute("DELETE FROM series_links WHERE series_id = ?", {id});
  db.execute(
      "INSERT INTO series_links (series_id, kind, target_id, position) "
      "SELECT event_id, 'venue', venue_id, 0 FROM event_venues WHERE event_id = ? "
      "UNION ALL SELECT event_id, 'organizer', organizer_id, position FROM event_organizers WHERE event_id = "
      "? "
      "UNION ALL SELECT event_id, 'term', term_id, 0 FROM term_relationships WHERE event_id = ?",
      {id, id, id});
  db.execute("DELETE FROM event_venues WHERE event_id = ?", {id});
  db.execute("DELETE FROM event_organizers WHERE event_id = ?", {id});
  db.execute("DELETE FROM term_relationships WHERE event_id = ?", {id});
  db.execute("DELETE FROM search_postings WHERE event_id = ?", {id});
  db.execute("DELETE FROM search_pending WHERE event_id = ?", {id});
  db.execute("DELETE FROM event_details WHERE event_id = ?", {id});
  set_post_type(db, id, "series");
}

// The series' venue and organizers are checked by primary key (FORCE INDEX): through
// posts_type_status the server would read every venue (organizer) of the site.
void unpark_series(Db& db, long long id) {
  set_post_type(db, id, "event");
  db.execute("INSERT INTO event_details (event_id, " + std::string(kSeriesDetailColumns) +
                 ") SELECT series_id, " + kSeriesDetailColumns + " FROM event_series WHERE series_id = ?",
             {id});
  db.execute(
      "INSERT INTO event_venues (event_id, venue_id) SELECT l.series_id, l.target_id FROM series_links l "
      "JOIN posts v FORCE INDEX (PRIMARY) ON v.id = l.target_id AND v.type = 'venue' WHERE l.series_id = ? "
      "AND "
      "l.kind = 'venue'",
      {id});
  db.execute(
      "INSERT INTO event_organizers (event_id, organizer_id, position) SELECT l.series_id, l.target_id, "
      "l.position "
      "FROM series_links l JOIN posts o FORCE INDEX (PRIMARY) ON o.id = l.target_id AND o.type = 'organizer' "
      "WHERE l.series_id = ? AND l.kind = 'organizer'",
      {id});
  db.execute(
      "INSERT INTO term_relationships (event_id, term_id) SELECT l.series_id, l.target_id FROM series_links "
      "l "
      "JOIN terms t ON t.id = l.target_id WHERE l.series_id = ? AND l.kind = 'term'",
      {id});
  db.execute("DELETE FROM series_links WHERE series_id = ?", {id});
}

long long forget_series(Db& db, long long id) {
  std::vector<long long> ids;
  for (const StoredOccurrence& o : find_series_occurrences(db, id)) ids.push_back(o.event_id);
  delete_posts(db, ids);
  db.execute("DELETE FROM event_series WHERE series_id = ?", {id});
  db.execute("DELETE FROM series_links WHERE series_id = ?", {id});
  return static_cast<long long>(ids.size());
}

long long copy_series_event(Db& db, long long series_id) {
  std::vector<Event> found = find_events(db, {series_id});
  if (found.empty()) throw std::runtime_error("series " + std::to_string(series_id) + " has no details");
  Event copy = std::move(found.front());
  copy.post.id = 0;
  copy.post.status_before_trash.clear();
  insert_post(db, copy.post);
  save_event_details(db, copy.post.id, copy.details);
  db.execute(
      "INSERT INTO event_venues (event_id, venue_id) SELECT ?, venue_id FROM event_venues WHERE event_id = ?",
      {copy.post.id, series_id});
  db.execute(
      "INSERT INTO event_organizers (event_id, organizer_id, position) SELECT ?, organizer_id, position "
      "FROM event_organizers WHERE event_id = ?",
      {copy.post.id, series_id});
  db.execute(
      "INSERT INTO term_relationships (event_id, term_id) SELECT ?, term_id FROM term_relationships WHERE "
      "event_id = ?",
      {copy.post.id, series_id});
  return copy.post.id;
}

void move_occurrences(Db& db, long long from, long long to, const std::string& from_utc) {
  db.execute("UPDATE event_occurrences SET series_id = ? WHERE series_id = ? AND original_utc >= ?",
             {to, from, from_utc});
  db.execute(
      "UPDATE posts p JOIN event_occurrences eo ON eo.event_id = p.id SET p.parent = ? WHERE eo.series_id = "
      "?",
      {to, to});
}

void mark_exception(Db& db, long long event_id) {
  db.execute("UPDATE event_occurrences SET is_exception = 1 WHERE event_id = ?", {event_id});
}

bool occurrence_starts_at(Db& db, long long series_id, long long event_id, const std::string& start_utc) {
  Rows rows = db.query(
      "SELECT 1 FROM event_occurrences eo JOIN event_details d ON d.event_id = eo.event_id "
      "WHERE eo.series_id = ? AND eo.event_id <> ? AND d.start_utc = ? LIMIT 1",
      {series_id, event_id, start_utc});
  return rows.next();
}

void set_occurrences_status(Db& db, long long series_id, const std::string& status) {
  db.execute(
      "UPDATE posts p JOIN event_occurrences eo ON eo.event_id = p.id "
      "SET p.status_before_trash = IF(? = 'trash', p.status, NULL), p.status = ? "
      "WHERE eo.series_id = ? AND p.status <> ?",
      {status, status, series_id, status});
}

void untrash_occurrences(Db& db, long long series_id) {
  db.execute(
      "UPDATE posts p JOIN event_occurrences eo ON eo.event_id = p.id "
      "SET p.status = COALESCE(p.status_before_trash, 'draft'), p.status_before_trash = NULL "
      "WHERE eo.series_id = ? AND p.status = 'trash'",
      {series_id});
}

void delete_occurrences(Db& db, long long series_id) {
  // The ids first: a delete joined with event_occurrences would cascade into the table it reads.
  std::vector<long long> ids;
  for (const StoredOccurrence& o : find_series_occurrences(db, series_id)) ids.push_back(o.event_id);
  delete_posts(db, ids);
}

}  // namespace cal
