// The change log as GET /changes reads it (docs/sync.md; schema.sql `data_version`, `data_changes`):
// each shard's rows after a position, with the counters of the same read view, and the lookups
// that decide what a caller sees of the records that changed.
#pragma once

#include "cal/store/data_version.h"
#include "cal/store/db.h"
#include "cal/store/post_visibility.h"
#include "cal/store/posts.h"

#include <array>
#include <string>
#include <vector>

namespace cal {

// One logged change.
struct LoggedChange {
  long long version = 0;  // the shard's counter after it
  std::string kind;       // data_changes.kind: event, venue, organizer, category, tag, ...
  long long id = 0;       // posts.id or terms.id
  long long at = 0;       // changed_utc, Unix seconds
};

struct ChangeLogSlice {
  ShardVersions counters{};  // committed counters in the read view of `rows`
  long long db_now = 0;      // the database's clock, Unix seconds
  // Per shard, its rows after the `since` position in version order, at most `limit` of them.
  std::array<std::vector<LoggedChange>, kVersionShards> rows;
};

// Reads the counters and, per shard, up to `limit` rows after `since`, in one statement: one read
// view, so every row up to a counter it returns is there (a counter row stays locked until its
// writer commits) and no row committed later can get a number at or below it.
ChangeLogSlice read_change_log(Db& db, const ShardVersions& since, long long limit);

// The counters and the clock only (a token for "now").
ChangeLogSlice read_change_counters(Db& db);

// Posts (events, venues, organizers, series) scheduled for a date in (after, upto]: they turn
// visible at that date without a write, so without a log row. Each with its posts.type ("event",
// "venue", "organizer", "series"); at most `limit`, by date.
std::vector<std::pair<std::string, long long>> posts_come_due(Db& db, long long after, long long upto,
                                                              long long limit);

// Which of `ids` (of one post type) the list routes show to a caller who sees `visibility`
// (its statuses ignored: every status but trash): events also not hidden from listings.
std::vector<long long> listed_post_ids(Db& db, PostType type, const std::vector<long long>& ids,
                                       const PostVisibility& visibility);

// Which of `ids` are recurring series now (posts of type 'series'), and of those, which a caller
// who sees `visibility` may list: its statuses (every status but trash), not hidden from listings.
// One statement.
struct SeriesAmong {
  std::vector<long long> series;
  std::vector<long long> listed;
};
SeriesAmong find_series_among(Db& db, const std::vector<long long>& ids, const PostVisibility& visibility);

}  // namespace cal
