// The day rollups of events written set-wise (see store/day_counts.h).
#include "store/day_counts.h"

#include <utility>

namespace cal {

void count_event_days(Db& db, const std::string& from, const std::vector<SqlValue>& args) {
  for (const auto& [table, edge] :
       {std::pair{"event_day_counts", "d.start_utc"}, std::pair{"event_end_day_counts", "d.end_utc"}})
    db.execute(std::string("INSERT INTO ") + table +
                   " (status, hide_from_listings, day, featured, shard, events) SELECT d.status, "
                   "d.hide_from_listings, DATE(" +
                   edge + "), d.featured, CONNECTION_ID() % 8, COUNT(*) " + from +
                   " GROUP BY d.status, d.hide_from_listings, DATE(" + edge +
                   "), d.featured ON DUPLICATE KEY UPDATE events = events + VALUES(events)",
               args);
  db.execute(
      "INSERT IGNORE INTO event_duration_hours (hours) SELECT DISTINCT FLOOR(TIMESTAMPDIFF(SECOND, "
      "d.start_utc, "
      "d.end_utc) / 3600) " +
          from,
      args);
}

void count_term_days(Db& db, const std::string& from, const std::vector<SqlValue>& args) {
  db.execute(
      "INSERT INTO term_day_counts (term_id, status, hide_from_listings, day, shard, events) SELECT "
      "r.term_id, "
      "r.status, r.hide_from_listings, DATE(r.start_utc), CONNECTION_ID() % 8, COUNT(*) " +
          from +
          " GROUP BY r.term_id, r.status, r.hide_from_listings, DATE(r.start_utc) "
          "ON DUPLICATE KEY UPDATE events = events + VALUES(events)",
      args);
}

}  // namespace cal
