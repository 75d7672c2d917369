// The fragment cache (cal/cache/fragment_cache.h): which changes drop a fragment, that a fragment
// rendered before a change it shows is never kept, and the byte budget.
#include "cal/cache/fragment_cache.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

namespace {

cal::Fragment fragment(std::string json, std::vector<long long> posts, std::vector<long long> terms = {}) {
  cal::Fragment f;
  f.json = std::move(json);
  f.posts = std::move(posts);
  f.terms = std::move(terms);
  return f;
}

std::vector<cal::DataChange> changes(std::initializer_list<cal::DataChange> list) { return list; }

}  // namespace

TEST_CASE("fragment cache: a change drops exactly the fragments that show the changed record") {
  using K = cal::ChangeKind;
  struct Case {
    const char* what;
    cal::DataChange change;
    bool event_kept;  // event 1: venue 10, organizer 20, image 30, terms 5 and 6
    bool other_kept;  // event 2: venue 11, term 7
  } const cases[] = {
      {"the event itself", {K::kEvent, 1}, false, true},
      {"its venue", {K::kVenue, 10}, false, true},
      {"its organizer", {K::kOrganizer, 20}, false, true},
      {"its image", {K::kAttachment, 30}, false, true},
      {"one of its terms", {K::kTerm, 6}, false, true},
      {"a term id equal to one of its post ids", {K::kTerm, 10}, true, true},
      {"another venue", {K::kVenue, 11}, true, false},
      {"a record neither shows", {K::kEvent, 99}, true, true},
      {"anything (settings, users)", {K::kAll, 0}, false, false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    cal::FragmentCache cache(1 << 20);
    const auto e = cache.epoch();
    cache.store("event:1", e, fragment("{\"id\":1}", {1, 10, 20, 30}, {5, 6}));
    cache.store("event:2", e, fragment("{\"id\":2}", {2, 11}, {7}));
    cache.apply(changes({c.change}));
    CHECK((cache.find("event:1") != nullptr) == c.event_kept);
    CHECK((cache.find("event:2") != nullptr) == c.other_kept);
  }
}

TEST_CASE("fragment cache: unknown changes empty it; no change keeps everything") {
  cal::FragmentCache cache(1 << 20);
  cache.store("a", cache.epoch(), fragment("{}", {1}));
  cache.apply(std::vector<cal::DataChange>{});
  REQUIRE(cache.find("a") != nullptr);
  cache.apply(std::nullopt);
  CHECK(cache.find("a") == nullptr);
  CHECK(cache.stats().entries == 0);
}

TEST_CASE("fragment cache: a version read once a scheduled post came due, or with others due, drops all") {
  cal::FragmentCache cache(1 << 20);
  cal::DataVersion v;
  v.db_now = 1000;
  v.next_change = 1060;  // a scheduled post's date: the terms it carries count it from then on
  v.changes = std::vector<cal::DataChange>{};
  cache.apply(v);
  cache.store("a", cache.epoch(), fragment("{\"a\":1}", {1}, {5}));
  v.db_now = 1059;  // nothing written, the date not reached
  cache.apply(v);
  CHECK(cache.find("a") != nullptr);
  const std::uint64_t before = cache.epoch();
  v.db_now = 1060;  // nothing written, the date reached: no change logs what it moved
  v.next_change = std::numeric_limits<long long>::max();
  cache.apply(v);
  CHECK(cache.find("a") == nullptr);
  cache.store("b", before, fragment("{\"b\":1}", {2}));  // rendered from rows read before
  CHECK(cache.find("b") == nullptr);
  cache.store("c", cache.epoch(), fragment("{\"c\":1}", {3}));
  v.db_now = 999999;  // no post scheduled any more
  cache.apply(v);
  CHECK(cache.find("c") != nullptr);
  v.due = cal::DueScheduled{1, 42};  // a write moved a scheduled post's date into the past
  cache.apply(v);
  CHECK(cache.find("c") == nullptr);
  cache.store("d", cache.epoch(), fragment("{\"d\":1}", {4}));
  cache.apply(v);  // the same ones due
  CHECK(cache.find("d") != nullptr);
}

TEST_CASE("fragment cache: a fragment rendered before a change it shows is not kept") {
  cal::FragmentCache cache(1 << 20);
  const auto before = cache.epoch();
  // Another request's version read applies a change of venue 10 while this one renders.
  cache.apply(changes({{cal::ChangeKind::kVenue, 10}}));
  cache.store("stale", before, fragment("{}", {1, 10}));
  CHECK(cache.find("stale") == nullptr);
  // One that shows no changed record is kept, and one rendered after the change is too.
  cache.store("other", before, fragment("{}", {2, 11}));
  CHECK(cache.find("other") != nullptr);
  cache.store("fresh", cache.epoch(), fragment("{}", {1, 10}));
  CHECK(cache.find("fresh") != nullptr);
  // After everything was dropped, nothing rendered before is kept.
  const auto old = cache.epoch();
  cache.apply(std::nullopt);
  cache.store("after-clear", old, fragment("{}", {3}));
  CHECK(cache.find("after-clear") == nullptr);
}

TEST_CASE("fragment cache: a renderer older than the changes still known stores nothing") {
  cal::FragmentCache cache(1 << 20);
  const auto ancient = cache.epoch();
  for (int i = 0; i < 100; ++i) cache.apply(changes({{cal::ChangeKind::kEvent, 1000 + i}}));
  cache.store("x", ancient, fragment("{}", {1}));
  CHECK(cache.find("x") == nullptr);
  cache.store("x", cache.epoch() - 3, fragment("{}", {1}));
  CHECK(cache.find("x") != nullptr);
}

TEST_CASE("fragment cache: the budget evicts the least recently used, and counts") {
  const std::string body(1000, 'x');
  cal::FragmentCache cache(16 * 1024);
  for (int i = 0; i < 40; ++i) {
    cache.store("k" + std::to_string(i), cache.epoch(), fragment(body, {i}));
    if (i >= 1) CHECK(cache.find("k0") != nullptr);  // used: stays
  }
  const auto s = cache.stats();
  CHECK(s.bytes <= 16 * 1024);
  CHECK(s.evictions > 0);
  CHECK(s.entries < 40);
  CHECK(cache.find("k0") != nullptr);
  CHECK(cache.find("k1") == nullptr);  // the least recently used went first
  CHECK(cache.find("k39") != nullptr);
  const auto after = cache.stats();
  CHECK(after.hits >= 2);
  CHECK(after.misses >= 1);
  // A fragment larger than an eighth of the budget is not kept; off keeps nothing.
  cache.store("big", cache.epoch(), fragment(std::string(4096, 'y'), {7}));
  CHECK(cache.find("big") == nullptr);
  cal::FragmentCache off;
  off.store("a", off.epoch(), fragment("{}", {1}));
  CHECK(off.find("a") == nullptr);
  CHECK_FALSE(off.enabled());
}

TEST_CASE("fragment cache: find_all answers each key in order, counted like find") {
  cal::FragmentCache cache(1 << 20);
  cache.store("a", cache.epoch(), fragment("{\"id\":1}", {1}));
  cache.store("c", cache.epoch(), fragment("{\"id\":3}", {3}));
  const auto found = cache.find_all({"a", "b", "c"});
  REQUIRE(found.size() == 3);
  REQUIRE(found[0] != nullptr);
  CHECK(found[0]->json == "{\"id\":1}");
  CHECK(found[1] == nullptr);
  REQUIRE(found[2] != nullptr);
  CHECK(found[2]->json == "{\"id\":3}");
  CHECK(cache.stats().hits == 2);
  CHECK(cache.stats().misses == 1);
}

TEST_CASE("fragment cache: rows records are rendered from are counted apart from the records") {
  cal::FragmentCache cache(1 << 20);
  cal::Fragment row = fragment("", {10, 30});
  row.source = std::make_shared<const int>(7);
  cache.store("row|v|10", cache.epoch(), row);
  const auto found = cache.find_row("row|v|10");
  REQUIRE(found != nullptr);
  CHECK(*std::static_pointer_cast<const int>(found->source) == 7);
  CHECK(cache.find_row("row|v|11") == nullptr);
  CHECK(cache.find("event|1") == nullptr);
  const cal::FragmentCache::Stats s = cache.stats();
  CHECK(s.row_hits == 1);
  CHECK(s.row_misses == 1);
  CHECK(s.hits == 0);
  CHECK(s.misses == 1);
  cache.apply(changes({{cal::ChangeKind::kAttachment, 30}}));  // its venue's image
  CHECK(cache.find_row("row|v|10") == nullptr);
}

TEST_CASE("fragment cache: invalidation counts, and a restore replaces the old entry") {
  cal::FragmentCache cache(1 << 20);
  cache.store("a", cache.epoch(), fragment("{\"v\":1}", {1}));
  cache.store("a", cache.epoch(), fragment("{\"v\":2}", {1}));
  REQUIRE(cache.find("a") != nullptr);
  CHECK(cache.find("a")->json == "{\"v\":2}");
  CHECK(cache.stats().entries == 1);
  cache.apply(changes({{cal::ChangeKind::kEvent, 1}}));
  CHECK(cache.stats().invalidations == 1);
  CHECK(cache.stats().bytes == 0);
}

TEST_CASE("fragment cache: the indexes are rebuilt only to shed fragments gone, and still drop exactly") {
  // Fragments that show many records (an event with dozens of terms): storing one must not pass
  // over every fragment held.
  cal::FragmentCache cache(1 << 30);
  const auto terms = [](int i) {
    std::vector<long long> ids;
    for (int t = 0; t < 60; ++t) ids.push_back(1 + (i * 13 + t) % 3000);
    return ids;
  };
  for (int i = 0; i < 600; ++i)
    cache.store("event:" + std::to_string(i), cache.epoch(), fragment("{}", {i + 100000}, terms(i)));
  CHECK(cache.stats().entries == 600);
  CHECK(cache.stats().index_rebuilds == 0);
  for (int round = 0; round < 3; ++round)
    for (int i = 0; i < 600; ++i)
      cache.store("event:" + std::to_string(i), cache.epoch(), fragment("{}", {i + 100000}, terms(i)));
  CHECK(cache.stats().index_rebuilds >= 1);
  CHECK(cache.stats().index_rebuilds <= 3);
  cache.apply(changes({{cal::ChangeKind::kTerm, 61}}));
  int kept = 0;
  for (int i = 0; i < 600; ++i) {
    const auto ids = terms(i);
    const bool shows = std::find(ids.begin(), ids.end(), 61) != ids.end();
    CHECK((cache.find("event:" + std::to_string(i)) != nullptr) == !shows);
    kept += shows ? 0 : 1;
  }
  CHECK(kept > 0);
  CHECK(kept < 600);
}

TEST_CASE("fragment cache: records are kept compressed once trained, and come back byte for byte") {
  const auto record = [](int i) {
    return "{\"id\":" + std::to_string(i) + ",\"title\":\"Event " + std::to_string(i * 7919 % 1000) +
           "\",\"url\":\"https://example.org/event/event-" + std::to_string(i) +
           "/\",\"start_date\":\"2025-05-0" + std::to_string(1 + i % 9) +
           " 10:00:00\",\"venue\":{\"venue\":\"Harbor Stage\",\"city\":\"Porto\"},\"description\":\"" +
           std::string(1500 + i % 50, static_cast<char>('a' + i % 26)) + "\"}";
  };
  const std::size_t budget = 64 * 1024;
  cal::FragmentCache cache(budget);
  // The first 64 records of 512 bytes or more train the dictionary and are kept as they are.
  for (int i = 0; i < 64; ++i) cache.store("s" + std::to_string(i), cache.epoch(), fragment(record(i), {i}));
  CHECK(cache.stats().compressed == 0);
  auto source = std::make_shared<std::string>("the post row");
  for (int i = 100; i < 200; ++i) {
    cal::Fragment f = fragment(record(i), {i, 7}, {5});
    f.splices = {{.at = 8, .ids = {3, 4}}};
    f.source = source;
    f.source_bytes = 12;
    cache.store("k" + std::to_string(i), cache.epoch(), std::move(f));
  }
  const auto s = cache.stats();
  CHECK(s.compressed == 100);
  CHECK(s.bytes <= budget);
  // Uncompressed, the budget held about 40 of these records.
  CHECK(s.entries * record(0).size() > 2 * budget);
  for (int i = 100; i < 200; ++i) {
    CAPTURE(i);
    const auto found = cache.find("k" + std::to_string(i));
    REQUIRE(found != nullptr);
    CHECK(found->json == record(i));
    CHECK(found->posts == std::vector<long long>{i, 7});
    CHECK(found->terms == std::vector<long long>{5});
    REQUIRE(found->splices.size() == 1);
    CHECK(found->splices[0].at == 8);
    CHECK(found->splices[0].ids == std::vector<long long>{3, 4});
    CHECK(found->source == source);
    CHECK(found->source_bytes == 12);
  }
  const auto listed = cache.find_all({"k150", "nothing", "k151"});
  REQUIRE(listed[0] != nullptr);
  CHECK(listed[0]->json == record(150));
  CHECK(listed[1] == nullptr);
  REQUIRE(listed[2] != nullptr);
  CHECK(listed[2]->json == record(151));
  // A change still drops a compressed record; one of a term it splices does not.
  cache.apply(changes({{cal::ChangeKind::kEvent, 150}, {cal::ChangeKind::kTerm, 3}}));
  CHECK(cache.find("k150") == nullptr);
  CHECK(cache.find("k151") != nullptr);
  CHECK(cache.stats().compressed == 99);
}
