// The derived data of a series' occurrences, set-wise (see store/occurrence_copies.h). Each
// statement names the triggers of schema.sql whose work it does.
#include "store/occurrence_copies.h"

#include "store/day_counts.h"

namespace cal {
namespace {

// The occurrences of series ? whose fields follow the series, from id ? on.
constexpr const char* kFollowers = "eo.series_id = ? AND eo.is_exception = 0 AND eo.event_id >= ?";

// Replaces the links in `table` (`columns` after event_id, read from the series' rows as `r`) of
// the followers (`fresh`: without links yet) with the series' own, copying the occurrence's list columns as
// the table's BEFORE INSERT trigger (*_copy_bi) would.
void copy_link_table(Db& db, long long series_id, long long from_id, bool fresh, const std::string& table,
                     const std::string& columns, const std::string& values) {
  if (!fresh)
    db.execute("DELETE r FROM " + table + " r JOIN event_occurrences eo ON eo.event_id = r.event_id WHERE " +
                   kFollowers,
               {series_id, from_id});
  db.execute("INSERT INTO " + table + " (event_id, " + columns +
                 ", status, hide_from_listings, start_utc, end_utc) SELECT eo.event_id, " + values +
                 ", d.status, d.hide_from_listings, d.start_utc, d.end_utc FROM event_occurrences eo "
                 "JOIN " +
                 table +
                 " r ON r.event_id = eo.series_id JOIN event_details d ON d.event_id = eo.event_id WHERE " +
                 kFollowers,
             {series_id, from_id});
}

}  // namespace

// One version a record, as cal_note_change() would have taken them one by one; the shard's row
// stays locked until commit, as cal_note_change() keeps it.
void note_records(Db& db, const std::string& records, const std::vector<SqlValue>& args) {
  Rows count = db.query("SELECT COUNT(*) FROM (" + records + ") r", args);
  const long long n = count.next() ? count.integer(0) : 0;
  if (n == 0) return;
  db.execute("UPDATE data_version SET version = version + ? WHERE shard = CONNECTION_ID() % 16", {n});
  std::vector<SqlValue> all{n};
  all.insert(all.end(), args.begin(), args.end());
  db.execute(
      "INSERT INTO data_changes (shard, version, kind, record_id) "
      "SELECT v.shard, v.version - ? + ROW_NUMBER() OVER (ORDER BY r.kind, r.id), r.kind, r.id FROM (" +
          records + ") r JOIN data_version v ON v.shard = CONNECTION_ID() % 16",
      all);
}

void count_occurrences(Db& db, const std::string& occurrences, const std::string& where,
                       const std::vector<SqlValue>& args) {
  // event_details' insert triggers: the day rollups and the duration bound.
  count_event_days(
      db, "FROM " + occurrences + " JOIN event_details d ON d.event_id = eo.event_id WHERE " + where, args);
}

void count_new_occurrences(Db& db, long long series_id, long long first_new_id) {
  count_occurrences(db, "event_occurrences eo", "eo.series_id = ? AND eo.event_id >= ?",
                    {series_id, first_new_id});
}

std::vector<long long> copy_occurrence_links(Db& db, long long series_id, long long from_id, bool fresh) {
  // Terms losing or gaining published occurrences: those the followers had and the series has.
  std::vector<long long> terms;
  Rows rows =
      fresh ? db.query("SELECT term_id FROM term_relationships WHERE event_id = ? ORDER BY 1", {series_id})
            : db.query(
                  std::string("SELECT DISTINCT r.term_id FROM event_occurrences eo JOIN term_relationships "
                              "r ON r.event_id = eo.event_id WHERE ") +
                      kFollowers +
                      " UNION SELECT term_id FROM term_relationships WHERE event_id = ? ORDER BY 1",
                  {series_id, from_id, series_id});
  while (rows.next()) terms.push_back(rows.integer(0));
  copy_link_table(db, series_id, from_id, fresh, "term_relationships", "term_id", "r.term_id");
  copy_link_table(db, series_id, from_id, fresh, "event_organizers", "organizer_id, position",
                  "r.organizer_id, r.position");
  copy_link_table(db, series_id, from_id, fresh, "event_venues", "venue_id", "r.venue_id");
  // term_relationships_ai's count: published events per term, in this connection's shard.
  db.execute(std::string("INSERT INTO term_counts (term_id, shard, published) "
                         "SELECT r.term_id, CONNECTION_ID() % 8, COUNT(*) FROM event_occurrences eo "
                         "JOIN posts p ON p.id = eo.event_id JOIN term_relationships r ON r.event_id = "
                         "eo.event_id WHERE ") +
                 kFollowers +
                 " AND p.type = 'event' AND p.status = 'publish' GROUP BY r.term_id "
                 "ON DUPLICATE KEY UPDATE published = published + VALUES(published)",
             {series_id, from_id});
  count_term_days(
      db,
      std::string("FROM event_occurrences eo JOIN term_relationships r ON r.event_id = eo.event_id WHERE ") +
          kFollowers,
      {series_id, from_id});
  return terms;
}

void copy_occurrence_postings(Db& db, long long series_id, long long from_id, bool fresh) {
  const std::vector<SqlValue> followers{series_id, from_id};
  if (!fresh) {
    // search_postings_days_ad, then the delete.
    db.execute(
        "INSERT INTO search_word_days (word_id, status, hide_from_listings, day, shard, events) "
        "SELECT sp.word_id, sp.status, sp.hide_from_listings, DATE(sp.start_utc), CONNECTION_ID() % 8, "
        "-COUNT(*) FROM search_postings sp JOIN event_occurrences eo ON eo.event_id = sp.event_id WHERE " +
            std::string(kFollowers) +
            " GROUP BY sp.word_id, sp.status, sp.hide_from_listings, DATE(sp.start_utc) "
            "ON DUPLICATE KEY UPDATE events = events + VALUES(events)",
        followers);
    db.execute(
        "DELETE sp FROM search_postings sp JOIN event_occurrences eo ON eo.event_id = sp.event_id WHERE " +
            std::string(kFollowers),
        followers);
  }
  db.execute(
      "INSERT INTO search_postings (word_id, event_id, status, hide_from_listings, start_utc, end_utc) "
      "SELECT sp.word_id, d.event_id, d.status, d.hide_from_listings, d.start_utc, d.end_utc "
      "FROM search_postings sp JOIN event_occurrences eo ON eo.series_id = sp.event_id "
      "JOIN event_details d ON d.event_id = eo.event_id WHERE sp.event_id = ? AND eo.is_exception = 0 "
      "AND eo.event_id >= ?",
      followers);
  // search_postings_days_ai: each follower holds each of the series' words, so a word's postings
  // per status, hidden flag and day are the followers' details counted so, without reading the
  // postings just written back.
  db.execute(
      "INSERT INTO search_word_days (word_id, status, hide_from_listings, day, shard, events) "
      "SELECT sp.word_id, g.status, g.hide_from_listings, g.day, CONNECTION_ID() % 8, g.events FROM "
      "(SELECT d.status, d.hide_from_listings, DATE(d.start_utc) AS day, COUNT(*) AS events "
      "FROM event_occurrences eo JOIN event_details d ON d.event_id = eo.event_id WHERE " +
          std::string(kFollowers) +
          " GROUP BY d.status, d.hide_from_listings, DATE(d.start_utc)) g "
          "JOIN search_postings sp ON sp.event_id = ? "
          "ON DUPLICATE KEY UPDATE events = search_word_days.events + VALUES(events)",
      {series_id, from_id, series_id});
}

void note_occurrence_changes(Db& db, long long series_id, long long from_id,
                             const std::vector<long long>& terms) {
  note_records(
      db,
      std::string("SELECT 'event' AS kind, eo.event_id AS id FROM event_occurrences eo WHERE ") + kFollowers,
      {series_id, from_id});
  if (terms.empty()) return;
  note_records(db,
               "SELECT IF(t.taxonomy = 'post_tag', 'tag', 'category') AS kind, t.id AS id FROM terms t "
               "WHERE t.id IN (" +
                   placeholders(terms.size()) + ")",
               std::vector<SqlValue>(terms.begin(), terms.end()));
}

}  // namespace cal
