// Many series' horizons extended together (see cal/store/series_extension.h). Each statement
// names the triggers of schema.sql whose work it does; the rows are written under
// @cal_bulk_load, as store/occurrence_copies.h writes a single series' occurrences.
#include "cal/store/series_extension.h"

#include "store/bulk_load.h"
#include "store/day_counts.h"
#include "store/event_rows.h"
#include "store/json_rows.h"
#include "store/occurrence_copies.h"
#include "store/row_batches.h"
#include "cal/core/text/slug.h"

#include <algorithm>
#include <map>
#include <set>

namespace cal {
namespace {

std::vector<SqlValue> id_values(const std::vector<long long>& ids) { return {ids.begin(), ids.end()}; }

// The slugs among `wanted` that event posts have, a statement per 4,096: the slugs as a JSON array
// joined with posts_type_slug, compared in the column's collation. Half the time of an IN list
// of a thousand placeholders, whose values the server sorts into ranges first.
std::set<std::string> taken_slugs(Db& db, const std::vector<std::string>& wanted) {
  constexpr std::size_t kSlugsPerStatement = 4096;
  std::set<std::string> taken;
  for (std::size_t at = 0; at < wanted.size(); at += kSlugsPerStatement) {
    rapidjson::StringBuffer out;
    JsonRowWriter json(out);
    json.StartArray();
    for (std::size_t i = at; i < wanted.size() && i - at < kSlugsPerStatement; ++i)
      write_text(json, wanted[i]);
    json.EndArray();
    Rows rows = db.query(
        "SELECT x.slug FROM JSON_TABLE(?, '$[*]' COLUMNS (slug VARCHAR(200) CHARACTER SET utf8mb4 COLLATE "
        "utf8mb4_unicode_ci PATH '$')) x JOIN posts p ON p.type = 'event' AND p.slug = x.slug",
        {std::string(out.GetString(), out.GetSize())});
    while (rows.next()) taken.insert(rows.text(0));
  }
  return taken;
}

// A new occurrence of the chunk.
struct NewOccurrence {
  const SeriesExtension* series;
  const WantedOccurrence* wanted;
  std::string slug;
  long long id = 0;  // its post's, once written
};

// Slugs as a series write names its occurrences: the series' slug and the original date, with
// -2, -3 ... when another post has it already (looked up by prefix only then).
void name_occurrences(Db& db, const std::map<long long, std::string>& series_slugs,
                      std::vector<NewOccurrence>& added) {
  std::vector<std::string> wanted;
  for (NewOccurrence& o : added) {
    const auto it = series_slugs.find(o.series->series_id);
    const std::string base =
        (it == series_slugs.end() ? std::to_string(o.series->series_id) : it->second).substr(0, 180);
    o.slug = base + "-" + o.wanted->original_local.substr(0, 10);
    wanted.push_back(o.slug);
  }
  std::set<std::string> taken = taken_slugs(db, wanted);
  std::set<std::string> prefixes_read;
  for (NewOccurrence& o : added) {
    if (taken.count(o.slug)) {
      const std::string base = o.slug.substr(0, o.slug.size() - 11);
      if (prefixes_read.insert(base).second) {
        Rows rows =
            db.query("SELECT slug FROM posts WHERE type = 'event' AND slug LIKE CONCAT(?, '-%')", {base});
        while (rows.next()) taken.insert(rows.text(0));
      }
      const std::string first = o.slug;
      for (int n = 2; taken.count(o.slug); ++n) o.slug = slug_with_suffix(first, n);
    }
    taken.insert(o.slug);
  }
}

// Up to 1,000 series' extensions: `series` their ids, ascending.
void extend_chunk(Db& db, const std::vector<const SeriesExtension*>& chunk) {
  std::vector<long long> series;
  std::vector<NewOccurrence> added;
  for (const SeriesExtension* e : chunk) {
    series.push_back(e->series_id);
    for (const WantedOccurrence& w : e->added) added.push_back({e, &w, {}, 0});
  }
  const std::string in = "(" + placeholders(series.size()) + ")";
  std::map<long long, std::string> series_slugs;
  {
    Rows rows = db.query("SELECT id, slug FROM posts WHERE id IN " + in, id_values(series));
    while (rows.next()) series_slugs.emplace(rows.integer(0), rows.text(1));
  }
  // The series and its model occurrence of each extension, as a derived table `m` (sid, mid): the
  // statements below read the new occurrences by primary key first (STRAIGHT_JOIN) and look their
  // series up in it by the key the server gives a materialised derived table. DISTINCT makes the
  // server materialise it: a JSON_TABLE joined directly has no key, and a UNION of a SELECT per
  // series is estimated at two rows, so the server read it first and compared every new
  // occurrence with every (series, word) pair in a join buffer (EXPLAIN: BNL join).
  const std::string models =
      "(SELECT DISTINCT j.sid, j.mid FROM JSON_TABLE(?, '$[*]' COLUMNS (sid BIGINT UNSIGNED PATH '$[0]', "
      "mid BIGINT UNSIGNED PATH '$[1]')) j) m";
  const std::vector<SqlValue> model_args{json_rows(chunk, [](JsonRowWriter& json, const SeriesExtension* e) {
    json.Int64(e->series_id);
    json.Int64(e->model);
  })};

  BulkLoad bulk(db);
  if (!added.empty()) {
    name_occurrences(db, series_slugs, added);
    // The posts, copied from their series' rows with their own slugs.
    long long first_id = 0;
    execute_json_rows(
        db, kInsertOccurrencePosts, added,
        [](JsonRowWriter& json, const NewOccurrence& o) {
          write_text(json, o.slug);
          json.Int64(o.series->series_id);
        },
        [&] {
          const long long id = db.last_insert_id();
          if (first_id == 0 || id < first_id) first_id = id;
        });
    // Auto-increment ids: every new post is at or above the first statement's first id, every
    // occurrence written before below it, and the series are locked.
    std::map<std::string, long long> id_by_slug;
    std::vector<SqlValue> args = id_values(series);
    args.emplace_back(first_id);
    Rows ids = db.query(
        "SELECT id, slug FROM posts WHERE parent IN " + in + " AND type = 'event' AND id >= ?", args);
    while (ids.next()) id_by_slug.emplace(ids.text(1), ids.integer(0));
    for (NewOccurrence& o : added) o.id = id_by_slug.at(o.slug);
    execute_json_rows(db, kInsertOccurrenceRows, added, [](JsonRowWriter& json, const NewOccurrence& o) {
      json.Int64(o.id);
      json.Int64(o.series->series_id);
      write_text(json, o.wanted->original_local);
      write_text(json, o.wanted->original_utc);
    });
    // The details from the parked series' fields, with their post's visibility
    // (event_details_visibility_bi).
    execute_json_rows(
        db,
        "INSERT INTO event_details (event_id, start_local, end_local, start_utc, end_utc, timezone, all_day, "
        "cost, website, show_map, show_map_link, hide_from_listings, sticky, featured, status, author, "
        "publish_utc) SELECT x.id, x.sl, x.el, x.su, x.eu, d.timezone, d.all_day, d.cost, d.website, "
        "d.show_map, d.show_map_link, d.hide_from_listings, d.sticky, d.featured, o.status, o.author, "
        "o.date_utc FROM JSON_TABLE(?, '$[*]' COLUMNS (id BIGINT UNSIGNED PATH '$[0]', sl DATETIME PATH "
        "'$[1]', el DATETIME PATH '$[2]', su DATETIME PATH '$[3]', eu DATETIME PATH '$[4]')) x "
        "JOIN posts o ON o.id = x.id JOIN event_series d ON d.series_id = o.parent",
        added, [](JsonRowWriter& json, const NewOccurrence& o) {
          json.Int64(o.id);
          write_text(json, o.wanted->start_local);
          write_text(json, o.wanted->end_local);
          write_text(json, o.wanted->start_utc);
          write_text(json, o.wanted->end_utc);
        });
    // The new occurrences of the chunk: `eo` of `fresh_from` where `fresh`. By primary key: with
    // many series the optimizer would rather read every occurrence of each by series.
    const std::string fresh_from = "event_occurrences eo FORCE INDEX (PRIMARY)";
    const std::string fresh = "eo.event_id >= ? AND eo.series_id IN " + in;
    std::vector<SqlValue> fresh_args{first_id};
    fresh_args.insert(fresh_args.end(), series.begin(), series.end());
    count_occurrences(db, fresh_from, fresh, fresh_args);

    // The series' links, each with its copies of the occurrence's list columns (*_copy_bi), as
    // unparking the series would have restored them: the new occurrences first (STRAIGHT_JOIN),
    // then each one's details, links and linked post by key. The venue or organizer is checked by
    // primary key (FORCE INDEX): left to itself the server read it through posts_type_status, every
    // post of that type for each new occurrence (2,000 venues, 5,000 occurrences: 10 million index
    // entries and about 15 s for one statement).
    const std::string link_from = " FROM " + fresh_from +
                                  " JOIN event_details d ON d.event_id = eo.event_id JOIN series_links l "
                                  "ON l.series_id = eo.series_id ";
    db.execute(
        "INSERT INTO event_venues (event_id, venue_id, status, hide_from_listings, start_utc, end_utc) "
        "SELECT STRAIGHT_JOIN eo.event_id, l.target_id, d.status, d.hide_from_listings, d.start_utc, "
        "d.end_utc" +
            link_from +
            "AND l.kind = 'venue' JOIN posts v FORCE INDEX (PRIMARY) ON v.id = l.target_id AND v.type = "
            "'venue' WHERE " +
            fresh,
        fresh_args);
    db.execute(
        "INSERT INTO event_organizers (event_id, organizer_id, position, status, hide_from_listings, "
        "start_utc, end_utc) SELECT STRAIGHT_JOIN eo.event_id, l.target_id, l.position, d.status, "
        "d.hide_from_listings, "
        "d.start_utc, d.end_utc" +
            link_from +
            "AND l.kind = 'organizer' JOIN posts o FORCE INDEX (PRIMARY) ON o.id = l.target_id AND o.type = "
            "'organizer' WHERE " +
            fresh,
        fresh_args);
    db.execute(
        "INSERT INTO term_relationships (event_id, term_id, status, hide_from_listings, start_utc, end_utc) "
        "SELECT STRAIGHT_JOIN eo.event_id, l.target_id, d.status, d.hide_from_listings, d.start_utc, "
        "d.end_utc" +
            link_from + "AND l.kind = 'term' JOIN terms t ON t.id = l.target_id WHERE " + fresh,
        fresh_args);
    // term_relationships_ai's count: published events per term, in this connection's shard.
    db.execute(
        "INSERT INTO term_counts (term_id, shard, published) SELECT r.term_id, CONNECTION_ID() % 8, "
        "COUNT(*) FROM " +
            fresh_from +
            " JOIN posts p ON p.id = eo.event_id JOIN term_relationships r ON r.event_id = eo.event_id "
            "WHERE " +
            fresh +
            " AND p.status = 'publish' GROUP BY r.term_id "
            "ON DUPLICATE KEY UPDATE published = published + VALUES(published)",
        fresh_args);
    count_term_days(
        db, "FROM " + fresh_from + " JOIN term_relationships r ON r.event_id = eo.event_id WHERE " + fresh,
        fresh_args);

    // The model occurrence's search postings, then search_postings_days_ai grouped; or its pending
    // mark when it has none yet.
    std::vector<SqlValue> model_fresh = model_args;
    model_fresh.emplace_back(first_id);
    db.execute(
        "INSERT INTO search_postings (word_id, event_id, status, hide_from_listings, start_utc, end_utc) "
        "SELECT STRAIGHT_JOIN sp.word_id, d.event_id, d.status, d.hide_from_listings, d.start_utc, d.end_utc "
        "FROM " +
            fresh_from + " JOIN " + models +
            " ON m.sid = eo.series_id JOIN search_postings sp ON sp.event_id = m.mid JOIN event_details d ON "
            "d.event_id = eo.event_id WHERE eo.event_id >= ?",
        model_fresh);
    // Each new occurrence holds its model's words: per word, status, hidden flag and day, the new
    // details of the series counted so, without reading the postings just written back.
    std::vector<SqlValue> fresh_models = fresh_args;
    fresh_models.insert(fresh_models.end(), model_args.begin(), model_args.end());
    db.execute(
        "INSERT INTO search_word_days (word_id, status, hide_from_listings, day, shard, events) "
        "SELECT STRAIGHT_JOIN sp.word_id, g.status, g.hide_from_listings, g.day, CONNECTION_ID() % 8, "
        "SUM(g.events) FROM "
        "(SELECT eo.series_id, d.status, d.hide_from_listings, DATE(d.start_utc) AS day, COUNT(*) AS events "
        "FROM " +
            fresh_from + " JOIN event_details d ON d.event_id = eo.event_id WHERE " + fresh +
            " GROUP BY eo.series_id, d.status, d.hide_from_listings, DATE(d.start_utc)) g JOIN " + models +
            " ON m.sid = g.series_id JOIN search_postings sp ON sp.event_id = m.mid "
            "GROUP BY sp.word_id, g.status, g.hide_from_listings, g.day "
            "ON DUPLICATE KEY UPDATE events = search_word_days.events + VALUES(events)",
        fresh_models);
    db.execute("INSERT IGNORE INTO search_pending (event_id) SELECT eo.event_id FROM " + models +
                   " JOIN search_pending pm ON pm.event_id = m.mid JOIN " + fresh_from +
                   " ON eo.series_id = m.sid WHERE eo.event_id >= ?",
               model_fresh);

    note_records(db, "SELECT 'event' AS kind, eo.event_id AS id FROM " + fresh_from + " WHERE " + fresh,
                 fresh_args);
    // The terms, whose counts may have changed: the series' own.
    note_records(
        db,
        "SELECT DISTINCT IF(t.taxonomy = 'post_tag', 'tag', 'category') AS kind, t.id AS id FROM "
        "series_links l JOIN terms t ON t.id = l.target_id WHERE l.kind = 'term' AND l.series_id IN " +
            in,
        id_values(series));
  }
  // The horizons, and the series' records (their next occurrences may have changed).
  db.execute(
      "UPDATE event_series s JOIN JSON_TABLE(?, '$[*]' COLUMNS (sid BIGINT UNSIGNED PATH '$[0]', h DATETIME "
      "PATH '$[1]')) x ON x.sid = s.series_id SET s.horizon_utc = x.h",
      {json_rows(chunk, [](JsonRowWriter& json, const SeriesExtension* e) {
        json.Int64(e->series_id);
        write_text(json, e->horizon_utc);
      })});
  note_records(db, "SELECT 'series' AS kind, p.id AS id FROM posts p WHERE p.id IN " + in, id_values(series));
  bulk.end();
}

}  // namespace

std::vector<ExtendableSeries> lock_infinite_series(Db& db, std::vector<long long> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<ExtendableSeries> out;
  in_chunks(ids.size(), [&](std::size_t first, std::size_t n) {
    const std::vector<SqlValue> args(ids.begin() + static_cast<long>(first),
                                     ids.begin() + static_cast<long>(first + n));
    const std::string in = "(" + placeholders(n) + ")";
    // As lock_post() and find_series_rule(for_update) lock one series.
    {
      Rows locked = db.query("SELECT id FROM posts WHERE id IN " + in + " ORDER BY id FOR UPDATE", args);
      while (locked.next()) {
      }
    }
    std::map<long long, ExtendableSeries> found;
    {
      Rows rows = db.query(
          "SELECT s.series_id, s.recurrence, DATE_FORMAT(s.horizon_utc, '%Y-%m-%d %H:%i:%s') FROM "
          "event_series s "
          "JOIN posts p ON p.id = s.series_id AND p.type = 'series' WHERE s.series_id IN " +
              in + " AND s.is_infinite = 1 ORDER BY s.series_id FOR UPDATE",
          args);
      while (rows.next()) {
        ExtendableSeries& s = found[rows.integer(0)];
        s.id = rows.integer(0);
        s.rule.is_infinite = true;
        const std::string text = rows.text(1);
        for (std::size_t at = 0; at < text.size();) {
          const std::size_t end = std::min(text.find('\n', at), text.size());
          if (end > at) s.rule.recurrence.push_back(text.substr(at, end - at));
          at = end + 1;
        }
        s.rule.horizon_utc = rows.text(2);
      }
    }
    {
      Rows rows = db.query(
          "SELECT " + event_columns() +
              " FROM posts p JOIN event_series d ON d.series_id = p.id "
              "LEFT JOIN (SELECT series_id, target_id AS venue_id FROM series_links WHERE kind = 'venue') ev "
              "ON ev.series_id = p.id WHERE p.id IN " +
              in + " AND p.type = 'series'",
          args);
      while (rows.next()) {
        Event e = read_event(rows);
        const auto it = found.find(e.post.id);
        if (it != found.end()) it->second.event = std::move(e);
      }
    }
    {
      // One occurrence of each series not edited alone: the first the series' index gives.
      Rows rows = db.query(
          "SELECT s.series_id, (SELECT eo.event_id FROM event_occurrences eo WHERE eo.series_id = "
          "s.series_id "
          "AND eo.is_exception = 0 LIMIT 1) FROM event_series s WHERE s.series_id IN " +
              in,
          args);
      while (rows.next()) {
        const auto it = found.find(rows.integer(0));
        if (it != found.end() && !rows.is_null(1)) it->second.model = rows.integer(1);
      }
    }
    for (auto& [id, s] : found) out.push_back(std::move(s));
  });
  return out;
}

void extend_occurrences(Db& db, const std::vector<SeriesExtension>& extensions) {
  std::vector<const SeriesExtension*> sorted;
  for (const SeriesExtension& e : extensions) sorted.push_back(&e);
  std::sort(sorted.begin(), sorted.end(),
            [](const SeriesExtension* a, const SeriesExtension* b) { return a->series_id < b->series_id; });
  in_chunks(sorted.size(), [&](std::size_t first, std::size_t n) {
    extend_chunk(db,
                 {sorted.begin() + static_cast<long>(first), sorted.begin() + static_cast<long>(first + n)});
  });
}

}  // namespace cal
