// The data version the response cache validates against (docs/performance.md; schema.sql
// `data_version` and `data_changes`): the write counters that triggers bump inside every writing
// transaction, the records changed since an earlier read, the database clock, the next
// instant at which a scheduled (`future`) post comes due, and which ones are due already.
#pragma once

#include "cal/store/db.h"

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace cal {

// The counters, one per writer shard (CONNECTION_ID() % 16 of the writer).
constexpr std::size_t kVersionShards = 16;
using ShardVersions = std::array<long long, kVersionShards>;

// What a logged change touched (schema.sql data_changes.kind).
enum class ChangeKind : std::uint8_t { kEvent, kVenue, kOrganizer, kAttachment, kTerm, kAll };

struct DataChange {
  ChangeKind kind = ChangeKind::kAll;
  long long id = 0;  // posts.id or terms.id; 0 for kAll
};

// The scheduled posts whose date has passed (stored `future`, read as published), as their number
// and the XOR of their ids. A term's count counts such events, so a write that moves a scheduled
// event's date to the past, or a due one's back to the future, changes counts with no term logged:
// an answer or record read with another set is stale.
struct DueScheduled {
  long long count = 0;
  long long ids = 0;
  bool operator==(const DueScheduled&) const = default;
};

struct DataVersion {
  long long version = 0;  // the sum of the counters: changes with every committed write
  ShardVersions shards{};
  long long db_now = 0;  // the database's clock, Unix seconds
  // The first future post's date_utc after db_now (Unix seconds), when `future` rows start to
  // read as `publish`; max() when none is scheduled.
  long long next_change = std::numeric_limits<long long>::max();
  DueScheduled due;
  // The changes committed after the `since` counters given to read_data_version(), up to
  // `shards`, in commit order per shard; nullopt when they are not all known (no `since`, a log
  // pruned past it, a bulk load that bumps without logging, or too many to read at once).
  std::optional<std::vector<DataChange>> changes;
};

// Reads the version: one statement (the counters' sum and the clock) when nothing was written
// since `previous` (whose counters must be `since`), a second for the counters and the changes
// after `since` otherwise, and one more for next_change and `due` unless `previous` (an earlier read, on any
// connection) has the same version and its next_change is still ahead, in which case it still holds. Throws
// DatabaseUnavailable on connection loss and std::exception when the schema lacks the tables (an
// unmigrated database).
DataVersion read_data_version(Db& db, const std::optional<DataVersion>& previous = std::nullopt,
                              const std::optional<ShardVersions>& since = std::nullopt);

// Deletes the log up to `upto` (counters read a while ago: a reader further behind than that
// empties its cache instead) that is also older than `older_than_seconds` (the sync retention:
// GET /changes answers 410 past it). Batches of 50,000 rows, at most 20.
void prune_data_changes(Db& db, const ShardVersions& upto, long long older_than_seconds);

}  // namespace cal
