// Incremental sync (docs/sync.md): the sync token codec and the merge of the change log's shards
// that GET /changes pages with (cal/api/sync/sync_token.h, cal/api/sync/changes.h).
#include "cal/api/sync/changes.h"
#include "cal/api/sync/sync_token.h"
#include "cal/core/config.h"

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <set>
#include <string>

namespace {

cal::SyncToken token_of(long long base, long long at) {
  cal::SyncToken t;
  for (std::size_t s = 0; s < cal::kVersionShards; ++s) t.shards[s] = base + static_cast<long long>(s);
  t.at = at;
  return t;
}

}  // namespace

TEST_CASE("a sync token reads back as written, and only as written") {
  const cal::SyncToken t = token_of(41, 1'800'000'000);
  const std::string text = cal::encode_sync_token(t);
  CHECK(text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
        std::string::npos);
  const auto back = cal::decode_sync_token(text);
  REQUIRE(back);
  CHECK(back->shards == t.shards);
  CHECK(back->at == t.at);
  // Mangled: each character changed, cut short, extended, foreign characters, empty.
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::string bad = text;
    bad[i] = bad[i] == 'A' ? 'B' : 'A';
    CHECK_MESSAGE(!cal::decode_sync_token(bad), bad);
  }
  CHECK(!cal::decode_sync_token(text.substr(0, text.size() - 1)));
  CHECK(!cal::decode_sync_token(text + "A"));
  CHECK(!cal::decode_sync_token(text + "="));
  CHECK(!cal::decode_sync_token("abc"));
  CHECK(!cal::decode_sync_token(""));
  CHECK(!cal::decode_sync_token("MS4w"));
}

TEST_CASE("a sync token older than the retention has expired") {
  const cal::SyncToken t = token_of(0, 1'000'000);
  CHECK(!cal::sync_token_expired(t, 1'000'000 + 30 * 86400, 30));
  CHECK(cal::sync_token_expired(t, 1'000'000 + 30 * 86400 + 1, 30));
  CHECK(cal::sync_token_expired(t, 1'000'000 + 11, 0.0001));  // 8.64 s
}

namespace {

// A slice of `per_shard` rows after `since` (all zero) per shard: shard s's row i changed
// record s * 1000 + i at time (i * 16 + s) % 7 + i.
cal::ChangeLogSlice slice_with(const std::map<std::size_t, int>& rows_per_shard) {
  cal::ChangeLogSlice slice;
  for (const auto& [s, n] : rows_per_shard) {
    for (int i = 1; i <= n; ++i)
      slice.rows[s].push_back(cal::LoggedChange{i, "event", static_cast<long long>(s) * 1000 + i,
                                                i * 2 + static_cast<long long>(s % 3)});
    slice.counters[s] = n;
  }
  return slice;
}

}  // namespace

TEST_CASE("the merge reads each shard as a prefix in its order, and pages never skip a change") {
  const cal::ChangeLogSlice all = slice_with({{0, 5}, {3, 7}, {9, 2}, {15, 4}});
  const cal::ShardVersions start{};
  std::set<long long> seen;
  cal::ShardVersions at = start;
  for (int pages = 0; pages < 100; ++pages) {
    // The slice a later request would read: the rows after `at`.
    cal::ChangeLogSlice rest;
    rest.counters = all.counters;
    for (std::size_t s = 0; s < cal::kVersionShards; ++s)
      for (const auto& c : all.rows[s])
        if (c.version > at[s]) rest.rows[s].push_back(c);
    const cal::MergedPage page = cal::merge_changes(rest, at, cal::kSyncAllKinds, 3, 100);
    REQUIRE(!page.gap);
    CHECK(page.changes.size() <= 3);
    long long last_at = 0;
    for (const auto& c : page.changes) {
      CHECK(c.at >= last_at);  // by logged time across shards
      last_at = c.at;
      CHECK(seen.insert(c.id).second);
    }
    for (std::size_t s = 0; s < cal::kVersionShards; ++s) {
      CHECK(page.next[s] >= at[s]);
      // Everything of the shard up to `next` was reported, nothing after it.
      for (const auto& c : all.rows[s]) CHECK((c.version <= page.next[s]) == (seen.count(c.id) > 0));
    }
    at = page.next;
    if (!page.more) break;
  }
  CHECK(seen.size() == 18);
  CHECK(at == all.counters);
}

TEST_CASE("the merge stops where a shard's slice ends short of its counter") {
  // Shard 1 returned as many rows as asked (2): more may follow, so nothing later is merged.
  cal::ChangeLogSlice slice = slice_with({{0, 1}, {1, 2}});
  slice.counters[1] = 5;
  slice.rows[0][0].at = 100;  // later than shard 1's rows
  const cal::MergedPage page = cal::merge_changes(slice, cal::ShardVersions{}, cal::kSyncAllKinds, 10, 2);
  CHECK(!page.gap);
  CHECK(page.changes.size() == 2);
  CHECK(page.next[0] == 0);
  CHECK(page.next[1] == 2);
  CHECK(page.more);
}

TEST_CASE("a hole in the log after the token is a gap: pruned, bulk-loaded, reset") {
  const cal::ShardVersions since{};
  SUBCASE("pruned: the first row is not the one after the token") {
    cal::ChangeLogSlice slice = slice_with({{2, 3}});
    slice.rows[2].erase(slice.rows[2].begin());
    CHECK(cal::merge_changes(slice, since, cal::kSyncAllKinds, 10, 100).gap);
  }
  SUBCASE("bulk load: the counter moved past the last row") {
    cal::ChangeLogSlice slice = slice_with({{2, 3}});
    slice.counters[2] = 4;
    CHECK(cal::merge_changes(slice, since, cal::kSyncAllKinds, 10, 100).gap);
  }
  SUBCASE("a hole between rows") {
    cal::ChangeLogSlice slice = slice_with({{2, 3}});
    slice.rows[2][1].version = 7;
    slice.rows[2][2].version = 8;
    slice.counters[2] = 8;
    CHECK(cal::merge_changes(slice, since, cal::kSyncAllKinds, 10, 100).gap);
  }
  SUBCASE("a counter behind the token: another or a restored database") {
    cal::ShardVersions ahead{};
    ahead[4] = 9;
    CHECK(cal::merge_changes(slice_with({}), ahead, cal::kSyncAllKinds, 10, 100).gap);
  }
  SUBCASE("no hole: not a gap") {
    CHECK(!cal::merge_changes(slice_with({{2, 3}}), since, cal::kSyncAllKinds, 10, 100).gap);
  }
}

TEST_CASE("the merge reports a record once, at its last change, and passes over other kinds") {
  cal::ChangeLogSlice slice;
  slice.rows[0] = {{1, "event", 7, 1},      {2, "venue", 8, 2}, {3, "event", 7, 3},
                   {4, "attachment", 9, 4}, {5, "all", 0, 5},   {6, "tag", 10, 6}};
  slice.counters[0] = 6;
  const cal::MergedPage all = cal::merge_changes(slice, cal::ShardVersions{}, cal::kSyncAllKinds, 10, 100);
  REQUIRE(all.changes.size() == 3);
  CHECK(all.changes[0].kind == "venue");
  CHECK(all.changes[1].kind == "event");
  CHECK(all.changes[1].at == 3);
  CHECK(all.changes[2].kind == "tag");
  CHECK(all.next[0] == 6);
  const cal::MergedPage events = cal::merge_changes(slice, cal::ShardVersions{}, cal::kSyncEvent, 10, 100);
  REQUIRE(events.changes.size() == 1);
  CHECK(events.changes[0].id == 7);
  CHECK(events.next[0] == 6);  // the other kinds were passed over, not left behind
  CHECK(!events.more);
  CHECK(cal::sync_kind_bits("term") == (cal::kSyncCategory | cal::kSyncTag));
  // A series (migration 15) is a kind of its own, among all kinds.
  CHECK(cal::sync_kind_bits("series") == cal::kSyncSeries);
  CHECK((cal::kSyncAllKinds & cal::kSyncSeries) != 0);
}

TEST_CASE("[sync] retention_days: 30 by default, fractions allowed, more than 0 and at most 36500") {
  const auto load = [](const char* option) {
    const char* argv[] = {"calendar-fcgi", "--config", "/dev/null", option};
    return cal::load_config(option ? 4 : 3, argv, "", false);
  };
  const cal::ConfigResult plain = load(nullptr);
  REQUIRE(plain.config);
  CHECK(plain.config->sync.retention_days == 30);
  const cal::ConfigResult half = load("--sync.retention_days=0.5");
  REQUIRE(half.config);
  CHECK(half.config->sync.retention_days == 0.5);
  for (const char* bad :
       {"--sync.retention_days=0", "--sync.retention_days=-1", "--sync.retention_days=36501"}) {
    CAPTURE(bad);
    const cal::ConfigResult r = load(bad);
    CHECK(!r.config);
    CHECK(r.exit_code == 2);
  }
}
