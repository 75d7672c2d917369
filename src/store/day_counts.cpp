// The day rollups of events written set-wise (see store/day_counts.h).
#include "store/day_counts.h"

#include <tuple>

namespace cal {
namespace {

// Sets @cal_months_set_wise for the guard's life: the day tables' triggers then leave their month
// rows to count_event_days (schema.sql, migration 21). Unset even when a statement fails, or a
// later writer on this connection would leave its months uncounted.
class MonthsSetWise {
 public:
  explicit MonthsSetWise(Db& db) : db_(db) { db_.execute("SET @cal_months_set_wise = 1"); }
  ~MonthsSetWise() {
    try {
      db_.execute("SET @cal_months_set_wise = NULL");
    } catch (const DatabaseUnavailable&) {
      // The connection is gone, and the variable with it.
    }
  }
  MonthsSetWise(const MonthsSetWise&) = delete;
  MonthsSetWise& operator=(const MonthsSetWise&) = delete;

 private:
  Db& db_;
};

}  // namespace

void count_event_days(Db& db, const std::string& from, const std::vector<SqlValue>& args) {
  // Adds COUNT(*) of `from` per status, hidden flag, `unit` and featured flag to `column` rows.
  auto add = [&](const std::string& table, const char* column, const std::string& unit) {
    db.execute("INSERT INTO " + table + " (status, hide_from_listings, " + column +
                   ", featured, shard, events) SELECT d.status, d.hide_from_listings, " + unit +
                   ", d.featured, CONNECTION_ID() % 8, COUNT(*) " + from +
                   " GROUP BY d.status, d.hide_from_listings, " + unit +
                   ", d.featured ON DUPLICATE KEY UPDATE events = events + VALUES(events)",
               args);
  };
  {
    MonthsSetWise months_here(db);
    for (const auto& [days, months, edge] :
         {std::tuple{"event_day_counts", "event_month_counts", "d.start_utc"},
          std::tuple{"event_end_day_counts", "event_end_month_counts", "d.end_utc"}}) {
      const std::string day = std::string("DATE(") + edge + ")";
      add(days, "day", day);
      add(months, "month", day + " - INTERVAL DAYOFMONTH(" + day + ") - 1 DAY");
    }
  }
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
