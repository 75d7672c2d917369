// The data version queries (see cal/store/data_version.h).
#include "cal/store/data_version.h"

#include <string>

namespace cal {
namespace {

// More changes than this since the last read: emptying the cache costs less than reading them.
constexpr long long kMaxChanges = 4096;

ChangeKind change_kind(const std::string& name) {
  // A series (migration 15) is read as an event: GET /events/{series id} answers it.
  if (name == "event" || name == "series") return ChangeKind::kEvent;
  if (name == "venue") return ChangeKind::kVenue;
  if (name == "organizer") return ChangeKind::kOrganizer;
  if (name == "attachment") return ChangeKind::kAttachment;
  if (name == "term" || name == "category" || name == "tag") return ChangeKind::kTerm;
  return ChangeKind::kAll;
}

// "(shard = 0 AND version > ?) OR ...": the log's primary key makes it one range per shard.
std::string shards_after() {
  std::string sql;
  for (std::size_t s = 0; s < kVersionShards; ++s) {
    if (s) sql += " OR ";
    sql += "(shard = " + std::to_string(s) + " AND version > ?)";
  }
  return sql;
}

// Reads the counters and, after `since`, the log, into `v`.
void read_changes(Db& db, const std::optional<ShardVersions>& since, DataVersion& v) {
  // One statement, so one read view: every log row up to the counters it returns was committed
  // with them (a counter row stays locked until its writer commits), and none after. Counter
  // rows come with a NULL kind.
  std::string sql = "SELECT shard, version, NULL, 0 FROM data_version";
  std::vector<SqlValue> args;
  if (since) {
    static const std::string after = shards_after();
    sql += " UNION ALL (SELECT shard, version, kind, record_id FROM data_changes WHERE " + after + " LIMIT " +
           std::to_string(kMaxChanges + 1) + ")";
    for (long long s : *since) args.emplace_back(s);
  }
  Rows rows = db.query(sql, args);
  std::vector<DataChange> changes;
  ShardVersions logged{};
  v.version = 0;
  while (rows.next()) {
    const auto shard = static_cast<std::size_t>(rows.integer(0));
    if (shard >= kVersionShards) continue;
    if (rows.is_null(2)) {
      v.shards[shard] = rows.integer(1);
      v.version += v.shards[shard];
    } else {
      changes.push_back(DataChange{change_kind(rows.text(2)), rows.integer(3)});
      ++logged[shard];
    }
  }
  if (!since) return;
  // Complete when every bump since `since` has its row: a shard whose counter went back (a
  // restored database) or moved more than its rows (a pruned log, a bulk load) is not.
  bool complete = static_cast<long long>(changes.size()) <= kMaxChanges;
  for (std::size_t s = 0; s < kVersionShards && complete; ++s)
    complete = v.shards[s] - (*since)[s] == logged[s];
  if (complete) v.changes = std::move(changes);
}

}  // namespace

DataVersion read_data_version(Db& db, const std::optional<DataVersion>& previous,
                              const std::optional<ShardVersions>& since) {
  DataVersion v;
  {
    // The common case, nothing written since: one scan of 16 rows, no log read. The counters only
    // grow, so an unchanged sum means unchanged counters. UNIX_TIMESTAMP() is the database's clock.
    Rows rows = db.query("SELECT CAST(SUM(version) AS SIGNED), UNIX_TIMESTAMP() FROM data_version");
    if (!rows.next()) return v;
    v.version = rows.integer(0);
    v.db_now = rows.integer(1);
  }
  if (previous && since && previous->version == v.version && previous->shards == *since) {
    v.shards = *since;
    v.changes.emplace();
  } else {
    read_changes(db, since, v);
  }
  if (previous && previous->version == v.version && previous->db_now <= v.db_now &&
      v.db_now < previous->next_change) {
    v.next_change = previous->next_change;
    v.due = previous->due;
    return v;
  }
  // From posts_status_date alone (it holds the id): one dive for the next date, and the due ones,
  // stored as `future` until a write changes them. FROM_UNIXTIME reads in the session zone, which
  // Db sets to UTC.
  Rows rows = db.query(
      "SELECT (SELECT UNIX_TIMESTAMP(MIN(date_utc)) FROM posts WHERE status = 'future' AND date_utc > "
      "FROM_UNIXTIME(?)), COUNT(*), CAST(BIT_XOR(id) AS SIGNED) FROM posts WHERE status = 'future' AND "
      "date_utc <= FROM_UNIXTIME(?)",
      {v.db_now, v.db_now});
  if (rows.next()) {
    if (!rows.is_null(0)) v.next_change = rows.integer(0);
    v.due = DueScheduled{rows.integer(1), rows.integer(2)};
  }
  return v;
}

void prune_data_changes(Db& db, const ShardVersions& upto, long long older_than_seconds) {
  // In batches: a month of a busy site's log is millions of rows, and one statement deleting
  // them all would hold its locks for as long. At most 20 batches a call; the next goes on.
  std::string sql = "DELETE FROM data_changes WHERE changed_utc < UTC_TIMESTAMP() - INTERVAL ? SECOND AND (";
  std::vector<SqlValue> args{older_than_seconds};
  for (std::size_t s = 0; s < kVersionShards; ++s) {
    if (s) sql += " OR ";
    sql += "(shard = " + std::to_string(s) + " AND version <= ?)";
    args.emplace_back(upto[s]);
  }
  sql += ") LIMIT 50000";
  for (int batch = 0; batch < 20 && db.execute(sql, args) == 50000; ++batch) {
  }
}

}  // namespace cal
