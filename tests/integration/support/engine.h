// Test support for the list engine (docs/architecture.md, the list plans): the stack's database
// through the mariadb client, and the check that the engine's derived data (event_details'
// visibility copies, the link rows' copies of them, the event_day_counts rollup and its sums by
// month in event_month_counts, the postings' and the term links' day rollups, event_duration_hours)
// is exactly what the base tables say.
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <tuple>

#include "support/commands.h"

namespace caltest::engine {

// The output of `mariadb -N -B -e statement` on the stack's database, trailing newlines cut.
// Anything but a SELECT is a write by hand: the cache lease is waited out after it, so that the
// service's next answer includes it.
inline std::string sql(const std::string& statement) {
  const char* dir = std::getenv("CAL_TEST_DIR");
  REQUIRE(dir != nullptr);
  const std::string command = "mariadb --no-defaults --socket='" + std::string(dir) +
                              "/mysqld.sock' --user=root -N -B calendar -e \"" + statement + "\"";
  const Run r = run(command);
  REQUIRE_MESSAGE(r.exit_code == 0, statement);
  if (statement.rfind("SELECT ", 0) != 0) wait_out_lease();
  std::string out = r.out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// "" when the derived data agrees with posts and event_details, else what differs.
inline std::string derived_data_mismatch() {
  const std::string copies =
      sql("SELECT COUNT(*) FROM event_details d JOIN posts p ON p.id = d.event_id "
          "WHERE d.status <> p.status OR d.author <> p.author OR d.publish_utc <> p.date_utc");
  if (copies != "0") return copies + " event_details rows disagree with their posts";
  for (const char* table : {"term_relationships", "event_organizers", "event_venues", "search_postings"}) {
    const std::string links =
        sql(std::string("SELECT COUNT(*) FROM ") + table +
            " l JOIN event_details d ON d.event_id = l.event_id WHERE l.status <> d.status OR "
            "l.hide_from_listings <> d.hide_from_listings OR l.start_utc <> d.start_utc OR "
            "l.end_utc <> d.end_utc");
    if (links != "0") return links + " " + table + " rows disagree with their event_details";
  }
  // The day and month rollups by start and by end (event_end_day_counts), each month row its day
  // rows' sum shard by shard (the triggers on the day tables).
  for (const auto& [days, months, edge] :
       {std::tuple{"event_day_counts", "event_month_counts", "start_utc"},
        std::tuple{"event_end_day_counts", "event_end_month_counts", "end_utc"}}) {
    const std::string rollup =
        sql(std::string("SELECT status, hide_from_listings, day, featured, SUM(events) AS n FROM ") + days +
            " GROUP BY status, hide_from_listings, day, featured HAVING n <> 0 "
            "ORDER BY status, hide_from_listings, day, featured");
    const std::string truth =
        sql(std::string("SELECT p.status, d.hide_from_listings, DATE(d.") + edge +
            ") AS day, d.featured, COUNT(*) FROM event_details d "
            "JOIN posts p ON p.id = d.event_id GROUP BY p.status, d.hide_from_listings, day, d.featured "
            "ORDER BY p.status, d.hide_from_listings, day, d.featured");
    if (rollup != truth)
      return std::string(days) + " differs from event_details:\n" + rollup + "\n---\n" + truth;
    const std::string month_rows = sql(
        std::string("SELECT status, hide_from_listings, month, featured, SUM(events) AS n FROM ") + months +
        " GROUP BY status, hide_from_listings, month, featured HAVING n <> 0 "
        "ORDER BY status, hide_from_listings, month, featured");
    const std::string month_truth =
        sql(std::string("SELECT p.status, d.hide_from_listings, DATE(d.") + edge +
            ") - INTERVAL DAYOFMONTH(d." + edge +
            ") - 1 DAY AS month, d.featured, COUNT(*) FROM event_details d "
            "JOIN posts p ON p.id = d.event_id GROUP BY p.status, d.hide_from_listings, month, d.featured "
            "ORDER BY p.status, d.hide_from_listings, month, d.featured");
    if (month_rows != month_truth)
      return std::string(months) + " differs from event_details:\n" + month_rows + "\n---\n" + month_truth;
    const std::string shards = sql(
        std::string("SELECT COUNT(*) FROM (SELECT x.status FROM (SELECT status, hide_from_listings, month, "
                    "featured, shard, events AS n FROM ") +
        months +
        " UNION ALL SELECT status, hide_from_listings, day - INTERVAL DAYOFMONTH(day) - 1 DAY, featured, "
        "shard, -events FROM " +
        days +
        ") x GROUP BY x.status, x.hide_from_listings, x.month, x.featured, x.shard HAVING SUM(x.n) <> 0) "
        "bad");
    if (shards != "0") return shards + " " + months + " rows differ from the sum of their day rows";
  }
  // The day rollups of the postings and the term links, by key, status, hidden flag and start day.
  for (const auto& [days, rows, key] : {std::tuple{"search_word_days", "search_postings", "word_id"},
                                        std::tuple{"term_day_counts", "term_relationships", "term_id"}}) {
    const std::string k = key;
    const std::string bad =
        sql("SELECT COUNT(*) FROM (SELECT x." + k + " FROM (SELECT " + k +
            ", status, hide_from_listings, day, events AS n FROM " + days + " UNION ALL SELECT " + k +
            ", status, hide_from_listings, DATE(start_utc), -1 FROM " + rows + ") x GROUP BY x." + k +
            ", x.status, x.hide_from_listings, x.day HAVING SUM(x.n) <> 0) bad");
    if (bad != "0") return bad + " " + days + " counts differ from " + rows;
  }
  // The vocabulary's trigrams: the keys of each word's three-character runs, no more, no fewer.
  const std::string trigrams =
      sql("SELECT COUNT(*) FROM (SELECT x.trigram FROM (SELECT trigram, word_id, 1 AS n FROM "
          "search_word_trigrams "
          "UNION ALL SELECT DISTINCT cal_trigram(w.word, s.seq), w.id, -1 FROM search_words w "
          "JOIN seq_1_to_188 s ON s.seq <= CHAR_LENGTH(w.word) - 2) x GROUP BY x.trigram, x.word_id "
          "HAVING SUM(x.n) <> 0) bad");
  if (trigrams != "0") return trigrams + " search_word_trigrams rows differ from the words' runs";
  const std::string hours =
      sql("SELECT COUNT(*) FROM event_details WHERE FLOOR(TIMESTAMPDIFF(SECOND, start_utc, end_utc) / 3600) "
          "NOT IN (SELECT hours FROM event_duration_hours)");
  if (hours != "0") return hours + " events have a duration event_duration_hours does not bound";
  return "";
}

}  // namespace caltest::engine
