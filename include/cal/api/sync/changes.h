// GET /changes (docs/sync.md): the changes of the log after a sync token, merged across the log's
// shards, as one entry per record that changed, with what the caller now sees of it. The handler
// is list_changes (cal/api/pipeline/handlers.h); this is its pure part, the merge.
#pragma once

#include "cal/store/change_log.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

// The kinds of record /changes reports (a bit each).
enum SyncKind : unsigned {
  kSyncEvent = 1u << 0,
  kSyncVenue = 1u << 1,
  kSyncOrganizer = 1u << 2,
  kSyncCategory = 1u << 3,
  kSyncTag = 1u << 4,
  kSyncSeries = 1u << 5,
  kSyncAllKinds = (1u << 6) - 1,
};

// One record to report, at the position of its last change in the page.
struct MergedChange {
  std::string kind;  // as logged: event, venue, organizer, category, tag, series, term (before migration 10)
  long long id = 0;
  long long at = 0;  // when its last change in the page was logged
};

struct MergedPage {
  std::vector<MergedChange> changes;  // distinct (kind, id), in merged order
  ShardVersions next{};               // the position after what was consumed, per shard
  bool more = false;                  // a shard still has changes after `next`
  bool gap = false;                   // the log lacks a change after `since` (pruned, bulk load, reset)
};

// Merges the slice's shards after `since`, reading at most `limit` distinct records of the
// `kinds` (rows of other kinds are passed over). Cross-shard order: by the time each change was
// logged, then by shard; each shard's own rows stay in its (commit) order, and a shard is read
// only as a prefix, so `next` never passes over a change. `slice_limit` is the per-shard limit
// the slice was read with: a shard that returned that many may have more.
MergedPage merge_changes(const ChangeLogSlice& slice, const ShardVersions& since, unsigned kinds,
                         long long limit, long long slice_limit);

// The SyncKind bit of a logged kind (0: not reported, e.g. attachment, all); "term" (rows logged
// before migration 10) counts as both category and tag.
unsigned sync_kind_bits(const std::string& logged_kind);

}  // namespace cal
