// The change log reads of GET /changes (see cal/store/change_log.h).
#include "cal/store/change_log.h"

#include "store/sql_where.h"

namespace cal {
namespace {

// "(SELECT ... WHERE shard = 0 AND version > ? ORDER BY version LIMIT ?) UNION ALL ...": the
// log's primary key makes each part one short range.
std::string shard_ranges() {
  std::string sql;
  for (std::size_t s = 0; s < kVersionShards; ++s) {
    sql +=
        " UNION ALL (SELECT shard, version, kind, record_id, UNIX_TIMESTAMP(changed_utc), 0 FROM "
        "data_changes "
        "WHERE shard = " +
        std::to_string(s) + " AND version > ? ORDER BY version LIMIT ?)";
  }
  return sql;
}

ChangeLogSlice read_slice(Db& db, const ShardVersions* since, long long limit) {
  // Counter rows come with a NULL kind and the clock.
  std::string sql = "SELECT shard, version, NULL, 0, 0, UNIX_TIMESTAMP() FROM data_version";
  std::vector<SqlValue> args;
  if (since) {
    static const std::string ranges = shard_ranges();
    sql += ranges;
    for (long long v : *since) {
      args.emplace_back(v);
      args.emplace_back(limit);
    }
  }
  ChangeLogSlice slice;
  Rows rows = db.query(sql, args);
  while (rows.next()) {
    const auto shard = static_cast<std::size_t>(rows.integer(0));
    if (shard >= kVersionShards) continue;
    if (rows.is_null(2)) {
      slice.counters[shard] = rows.integer(1);
      slice.db_now = rows.integer(5);
    } else {
      slice.rows[shard].push_back(
          LoggedChange{rows.integer(1), rows.text(2), rows.integer(3), rows.integer(4)});
    }
  }
  return slice;
}

}  // namespace

ChangeLogSlice read_change_log(Db& db, const ShardVersions& since, long long limit) {
  return read_slice(db, &since, limit);
}

ChangeLogSlice read_change_counters(Db& db) { return read_slice(db, nullptr, 0); }

std::vector<std::pair<std::string, long long>> posts_come_due(Db& db, long long after, long long upto,
                                                              long long limit) {
  std::vector<std::pair<std::string, long long>> out;
  if (upto <= after) return out;
  // posts_status_date makes this one range. FROM_UNIXTIME reads in the session zone, UTC.
  Rows rows = db.query(
      "SELECT type, id FROM posts WHERE status = 'future' AND date_utc > FROM_UNIXTIME(?) AND date_utc <= "
      "FROM_UNIXTIME(?) AND type IN ('event', 'venue', 'organizer', 'series') ORDER BY date_utc, id LIMIT ?",
      {after, upto, limit});
  while (rows.next()) out.emplace_back(rows.text(0), rows.integer(1));
  return out;
}

std::vector<long long> listed_post_ids(Db& db, PostType type, const std::vector<long long>& ids,
                                       const PostVisibility& visibility) {
  std::vector<long long> out;
  if (ids.empty()) return out;
  SqlWhere w;
  w.args.emplace_back(std::string(post_type_name(type)));
  w.add_in("p.id IN ", ids);
  add_visibility(w, "p", visibility, false);
  std::string from = " FROM posts p";
  if (type == PostType::kEvent) {
    from += " JOIN event_details d ON d.event_id = p.id";
    w.add("d.hide_from_listings = 0");
  }
  Rows rows = db.query("SELECT p.id" + from + " WHERE p.type = ?" + w.sql, w.args);
  while (rows.next()) out.push_back(rows.integer(0));
  return out;
}

SeriesAmong find_series_among(Db& db, const std::vector<long long>& ids, const PostVisibility& visibility) {
  SeriesAmong out;
  if (ids.empty()) return out;
  // The visibility condition as a column: every series comes back, listed or not.
  SqlWhere seen;
  add_visibility(seen, "p", visibility, false);
  SqlWhere w;
  w.add_in("p.id IN ", ids);
  std::vector<SqlValue> args = seen.args;
  args.insert(args.end(), w.args.begin(), w.args.end());
  Rows rows =
      db.query("SELECT p.id, s.hide_from_listings = 0" + seen.sql +
                   " FROM posts p JOIN event_series s ON s.series_id = p.id WHERE p.type = 'series'" + w.sql,
               args);
  while (rows.next()) {
    out.series.push_back(rows.integer(0));
    if (rows.integer(1) != 0) out.listed.push_back(rows.integer(0));
  }
  return out;
}

}  // namespace cal
