// The merge of the change log's shards (see cal/api/sync/changes.h).
#include "cal/api/sync/changes.h"

#include <map>
#include <utility>

namespace cal {

unsigned sync_kind_bits(const std::string& k) {
  if (k == "event") return kSyncEvent;
  if (k == "venue") return kSyncVenue;
  if (k == "organizer") return kSyncOrganizer;
  if (k == "category") return kSyncCategory;
  if (k == "tag") return kSyncTag;
  if (k == "series") return kSyncSeries;
  if (k == "term") return kSyncCategory | kSyncTag;
  return 0;
}

MergedPage merge_changes(const ChangeLogSlice& slice, const ShardVersions& since, unsigned kinds,
                         long long limit, long long slice_limit) {
  MergedPage page;
  page.next = since;
  std::array<std::size_t, kVersionShards> head{};
  // Every shard's rows must run on from `since` without a hole, and a shard read to its end must
  // end at its counter: anything else means changes the log no longer has (or never had).
  for (std::size_t s = 0; s < kVersionShards; ++s) {
    const auto& rows = slice.rows[s];
    if (slice.counters[s] < since[s]) page.gap = true;  // a counter went back: another database
    long long expect = since[s] + 1;
    for (const LoggedChange& c : rows) {
      if (c.version != expect) page.gap = true;
      expect = c.version + 1;
    }
    const bool to_the_end = static_cast<long long>(rows.size()) < slice_limit;
    if (to_the_end && expect - 1 != slice.counters[s] && slice.counters[s] > since[s]) page.gap = true;
  }
  if (page.gap) return page;

  std::map<std::pair<std::string, long long>, std::size_t> index;  // (kind, id) → entry
  for (;;) {
    // The next change: the earliest logged among the shards' heads (ties: the lower shard).
    std::size_t best = kVersionShards;
    bool blocked = false;
    for (std::size_t s = 0; s < kVersionShards; ++s) {
      if (head[s] == slice.rows[s].size()) {
        // Read to its end, but the shard may hold more than the slice: nothing after its last
        // row can be merged before it is read.
        if (static_cast<long long>(slice.rows[s].size()) >= slice_limit) blocked = true;
        continue;
      }
      if (best == kVersionShards || slice.rows[s][head[s]].at < slice.rows[best][head[best]].at) best = s;
    }
    if (best == kVersionShards || blocked) break;
    const LoggedChange& c = slice.rows[best][head[best]];
    const bool wanted = (sync_kind_bits(c.kind) & kinds) != 0;
    const auto key = std::make_pair(c.kind, c.id);
    const auto known = index.find(key);
    if (wanted && known == index.end() && static_cast<long long>(page.changes.size()) >= limit) break;
    ++head[best];
    page.next[best] = c.version;
    if (!wanted) continue;
    if (known != index.end()) {
      // Reported once, at its last change: earlier entries keep their places.
      MergedChange moved = page.changes[known->second];
      moved.at = c.at;
      page.changes.erase(page.changes.begin() + static_cast<std::ptrdiff_t>(known->second));
      for (auto& [k, i] : index)
        if (i > known->second) --i;
      index.erase(known);
      index.emplace(key, page.changes.size());
      page.changes.push_back(std::move(moved));
    } else {
      index.emplace(key, page.changes.size());
      page.changes.push_back(MergedChange{c.kind, c.id, c.at});
    }
  }
  for (std::size_t s = 0; s < kVersionShards; ++s) {
    const bool to_the_end = static_cast<long long>(slice.rows[s].size()) < slice_limit;
    if (head[s] == slice.rows[s].size() && to_the_end)
      page.next[s] = std::max(page.next[s], slice.counters[s]);
    if (page.next[s] < slice.counters[s]) page.more = true;
  }
  return page;
}

}  // namespace cal
