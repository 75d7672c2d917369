// The response cache (cal/cache/response_cache.h): which requests it keys, when a stored answer may be served
// again, eviction; and which SQL counts as reading the clock.
#include "cal/cache/response_cache.h"
#include "cal/store/db.h"
#include "cal/store/read_set.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

namespace {

cal::Request get(std::string path, std::string query = "") {
  cal::Request r;
  r.method = "GET";
  r.script_name = "/api";
  r.path = std::move(path);
  r.query_string = std::move(query);
  r.host = "example.org";
  r.headers["host"] = "example.org";
  return r;
}

cal::CachedResponse answer(std::string body) {
  return cal::CachedResponse{
      {{"Content-Type", "application/json"}, {"ETag", "\"tag\""}}, std::move(body), "\"tag\""};
}

cal::Seconds at(long long unix_seconds) { return cal::Seconds{std::chrono::seconds(unix_seconds)}; }

cal::DataVersion version(long long v, long long db_now,
                         long long next_change = cal::DataVersion{}.next_change, cal::DueScheduled due = {}) {
  cal::DataVersion d;
  d.version = v;
  d.db_now = db_now;
  d.next_change = next_change;
  d.due = due;
  return d;
}

bool found(cal::ResponseCache& cache, const std::string& key, const cal::DataVersion& v,
           long long local_now) {
  cal::CachedResponse out;
  cal::ResponseCache::Claim claim;
  return cache.find(key, v, at(local_now), out, claim);
}

}  // namespace

TEST_CASE("the cache key covers what a visitor's GET depends on, and only visitors' GET/HEAD") {
  const std::string base = cal::ResponseCache::key_of(get("/cal/events/v1/events", "page=2"));
  REQUIRE(!base.empty());
  struct Case {
    const char* what;
    void (*change)(cal::Request&);
    bool cacheable;
    bool same_key;
  };
  const Case cases[] = {
      {"HEAD shares GET's entry", [](cal::Request& r) { r.method = "HEAD"; }, true, true},
      {"lower-case method", [](cal::Request& r) { r.method = "get"; }, true, true},
      {"a header nothing reads", [](cal::Request& r) { r.headers["user-agent"] = "x"; }, true, true},
      {"an Accept that asks for JSON", [](cal::Request& r) { r.headers["accept"] = "application/json"; },
       true, true},
      {"a browser's Accept", [](cal::Request& r) { r.headers["accept"] = "text/html,*/*;q=0.8"; }, true,
       true},
      {"an Accept that asks for the iCalendar feed",
       [](cal::Request& r) { r.headers["accept"] = "text/calendar"; }, true, false},
      {"If-None-Match is answered per request", [](cal::Request& r) { r.headers["if-none-match"] = "\"t\""; },
       true, true},
      {"POST", [](cal::Request& r) { r.method = "POST"; }, false, false},
      {"DELETE", [](cal::Request& r) { r.method = "DELETE"; }, false, false},
      {"credentials", [](cal::Request& r) { r.headers["authorization"] = "Bearer x"; }, false, false},
      {"query", [](cal::Request& r) { r.query_string = "page=3"; }, true, false},
      {"path", [](cal::Request& r) { r.path = "/cal/events/v1/venues"; }, true, false},
      {"host", [](cal::Request& r) { r.host = "other.org"; }, true, false},
      {"scheme", [](cal::Request& r) { r.scheme = "https"; }, true, false},
      {"mount point", [](cal::Request& r) { r.script_name = "/rest"; }, true, false},
      {"site language", [](cal::Request& r) { r.site_locale = "de_DE"; }, true, false},
      {"Accept-Language", [](cal::Request& r) { r.headers["accept-language"] = "fr"; }, true, false},
      {"X-Forwarded-Host", [](cal::Request& r) { r.headers["x-forwarded-host"] = "proxy.org"; }, true, false},
      {"X-Forwarded-Proto", [](cal::Request& r) { r.headers["x-forwarded-proto"] = "https"; }, true, false},
      {"query and path do not run together",
       [](cal::Request& r) {
         r.path += "page=2";
         r.query_string.clear();
       },
       true, false},
  };
  for (const Case& c : cases) {
    const std::string captured = c.what;
    CAPTURE(captured);
    cal::Request r = get("/cal/events/v1/events", "page=2");
    c.change(r);
    const std::string key = cal::ResponseCache::key_of(r);
    CHECK(!key.empty() == c.cacheable);
    if (c.cacheable) CHECK((key == base) == c.same_key);
  }
}

TEST_CASE("an authenticated caller's key: the request without its credentials, and the caller") {
  cal::Request r = get("/cal/events/v1/events", "page=2");
  const std::string visitor = cal::ResponseCache::key_of(r);
  r.headers["authorization"] = "Bearer one";
  CHECK(cal::ResponseCache::key_of(r).empty());
  const std::string admin = cal::ResponseCache::key_of(r, "1:administrator");
  REQUIRE(!admin.empty());
  CHECK(admin != visitor);
  CHECK(admin.compare(0, visitor.size(), visitor) == 0);
  // Another credential of the same caller shares the entry; another caller, or a new role, not.
  r.headers["authorization"] = "Basic b25lOnR3bw==";
  CHECK(cal::ResponseCache::key_of(r, "1:administrator") == admin);
  CHECK(cal::ResponseCache::key_of(r, "2:administrator") != admin);
  CHECK(cal::ResponseCache::key_of(r, "1:editor") != admin);
  CHECK(cal::ResponseCache::key_of(r, "1:administrator") !=
        cal::ResponseCache::key_of(r, "11:administrator"));
  r.path = "/cal/events/v1/events/5";
  CHECK(cal::ResponseCache::key_of(r, "1:administrator") != admin);
  r.method = "PATCH";
  CHECK(cal::ResponseCache::key_of(r, "1:administrator").empty());
}

TEST_CASE("a stored answer is served only while data, schedule and clock allow") {
  const cal::ClockUse none;
  const cal::ClockUse this_second{at(101)};
  const cal::ClockUse until_midnight{at(86400)};
  struct Case {
    const char* what;
    cal::CacheValidity stored;
    cal::DataVersion now;
    long long local_now;
    bool hit;
  };
  const Case cases[] = {
      {"same version, no clock", {version(5, 100), none}, version(5, 999), 999, true},
      {"before the next scheduled post", {version(5, 100, 200), none}, version(5, 199), 199, true},
      {"the next scheduled post is due", {version(5, 100, 200), none}, version(5, 200), 200, false},
      {"the same scheduled posts due",
       {version(5, 100, 200, {2, 9}), none},
       version(6, 150, 200, {2, 9}),
       150,
       true},
      {"a write moved a scheduled post into the past",
       {version(5, 100, 200, {2, 9}), none},
       version(6, 150, 200, {3, 13}),
       150,
       false},
      {"read the clock, same second", {version(5, 100), this_second}, version(5, 100), 100, true},
      {"read the clock, next second", {version(5, 100), this_second}, version(5, 101), 101, false},
      {"default window, same day", {version(5, 100), until_midnight}, version(5, 86399), 86399, true},
      {"default window, next day", {version(5, 100), until_midnight}, version(5, 86400), 86400, false},
  };
  for (const Case& c : cases) {
    const std::string captured = c.what;
    CAPTURE(captured);
    cal::ResponseCache cache(1 << 20);
    const std::string key = cal::ResponseCache::key_of(get("/cal/events/v1/events"));
    CHECK(!found(cache, key, c.stored.version, c.stored.version.db_now));  // sets the version
    cache.store(key, c.stored, {}, answer("{\"events\":[]}"));
    cal::CachedResponse out;
    cal::ResponseCache::Claim claim;
    CHECK(cache.find(key, c.now, at(c.local_now), out, claim) == c.hit);
    if (c.hit) CHECK(out.body == "{\"events\":[]}");
  }
}

// A version read that brings `changes` (nullopt: not known) after the cache's current counters.
cal::DataVersion changed(std::optional<std::vector<cal::DataChange>> changes) {
  cal::DataVersion d = version(1, 10);
  d.changes = std::move(changes);
  return d;
}

cal::ReadSet reads(std::vector<long long> posts, std::vector<long long> terms, unsigned lists = 0) {
  return cal::ReadSet{std::move(posts), std::move(terms), lists};
}

constexpr unsigned kEventLists = static_cast<unsigned>(cal::ListFamily::kEvents);
constexpr unsigned kTermLists = static_cast<unsigned>(cal::ListFamily::kTerms);
constexpr unsigned kVenueLists = static_cast<unsigned>(cal::ListFamily::kVenues);

TEST_CASE("a change drops the answers that read its record and the lists it may reshape, no others") {
  using K = cal::ChangeKind;
  // Event 5 at venue 50 with category 7; event 6 with tag 8; image 70 on event 6.
  struct Stored {
    const char* key;
    cal::ReadSet read;
  };
  const Stored answers[] = {
      {"event 5", reads({5, 50}, {7})},
      {"event 6", reads({6, 70}, {8})},
      {"events list", reads({5, 50, 6, 70}, {7, 8}, kEventLists)},
      {"tags list", reads({}, {8}, kTermLists)},
      {"venue 50", reads({50}, {})},
      {"venues list", reads({50}, {}, kVenueLists)},
      {"root index (no record read)", reads({}, {})},
  };
  struct Case {
    const char* what;
    std::optional<std::vector<cal::DataChange>> changes;
    std::vector<const char*> kept;
  };
  const Case cases[] = {
      {"nothing changed",
       std::vector<cal::DataChange>{},
       {"event 5", "event 6", "events list", "tags list", "venue 50", "venues list",
        "root index (no record read)"}},
      {"a new tag",
       std::vector<cal::DataChange>{{K::kTerm, 9}},
       {"event 5", "event 6", "venue 50", "venues list"}},
      {"a new event",
       std::vector<cal::DataChange>{{K::kEvent, 11}},
       {"event 5", "event 6", "tags list", "venue 50", "venues list"}},
      {"event 5 edited",
       std::vector<cal::DataChange>{{K::kEvent, 5}},
       {"event 6", "tags list", "venue 50", "venues list"}},
      {"category 7 renamed",
       std::vector<cal::DataChange>{{K::kTerm, 7}},
       {"event 6", "venue 50", "venues list"}},
      {"venue 50 edited", std::vector<cal::DataChange>{{K::kVenue, 50}}, {"event 6", "tags list"}},
      {"image 70 replaced",
       std::vector<cal::DataChange>{{K::kAttachment, 70}},
       {"event 5", "tags list", "venue 50", "venues list"}},
      {"a setting", std::vector<cal::DataChange>{{K::kAll, 0}}, {}},
      {"changes not known", std::nullopt, {}},
  };
  for (const Case& c : cases) {
    const std::string captured = c.what;
    CAPTURE(captured);
    cal::ResponseCache cache(1 << 20);
    cache.apply(changed(std::nullopt));  // the first read: nothing to compare with
    const cal::CacheValidity v{version(1, 10), {}, cache.epoch()};
    for (const Stored& a : answers) {
      CHECK(!found(cache, a.key, v.version, 10));
      cache.store(a.key, v, a.read, answer(a.key));
    }
    cache.apply(changed(c.changes));
    for (const Stored& a : answers) {
      const std::string key = a.key;
      CAPTURE(key);
      const bool kept =
          std::find_if(c.kept.begin(), c.kept.end(), [&](const char* k) { return key == k; }) != c.kept.end();
      CHECK(found(cache, a.key, v.version, 10) == kept);
    }
  }
}

TEST_CASE("an answer computed before a change is stored only when the change did not touch it") {
  using K = cal::ChangeKind;
  struct Case {
    const char* what;
    std::vector<std::optional<std::vector<cal::DataChange>>> applied;  // while it was computed
    bool stored;
  };
  const Case cases[] = {
      {"no change", {}, true},
      {"another event edited", {std::vector<cal::DataChange>{{K::kEvent, 6}}}, true},
      {"its event edited", {std::vector<cal::DataChange>{{K::kEvent, 5}}}, false},
      {"its event edited, then another",
       {std::vector<cal::DataChange>{{K::kEvent, 5}}, std::vector<cal::DataChange>{{K::kEvent, 6}}},
       false},
      {"changes not known", {std::nullopt}, false},
  };
  for (const Case& c : cases) {
    const std::string captured = c.what;
    CAPTURE(captured);
    cal::ResponseCache cache(1 << 20);
    cache.apply(changed(std::nullopt));
    const cal::CacheValidity v{version(1, 10), {}, cache.epoch()};
    CHECK(!found(cache, "event 5", v.version, 10));
    for (const auto& changes : c.applied) cache.apply(changed(changes));
    cache.store("event 5", v, reads({5}, {}), answer("event 5"));
    CHECK(found(cache, "event 5", v.version, 10) == c.stored);
  }
}

TEST_CASE("the change log is pruned once a minute, up to counters applied long enough ago") {
  using std::chrono::minutes;
  cal::ResponseCache cache(1 << 20);
  cal::DataVersion first = changed(std::nullopt);
  first.shards[3] = 40;
  cache.apply(first);  // noted at the steady clock's now, which the test cannot set
  CHECK(!cache.prunable(std::chrono::steady_clock::now(), std::chrono::seconds(300)));
  const auto later = std::chrono::steady_clock::now() + minutes(6);
  const auto upto = cache.prunable(later, std::chrono::seconds(300));
  REQUIRE(upto);
  CHECK((*upto)[3] == 40);
  CHECK(!cache.prunable(later + std::chrono::seconds(30), std::chrono::seconds(300)));  // once a minute
}

TEST_CASE("identical misses at one version are computed once; the others wait for that answer") {
  const std::string key = cal::ResponseCache::key_of(get("/cal/events/v1/events"));
  struct Case {
    const char* what;
    bool store;          // the first request's answer is kept
    bool write_between;  // a change was applied before the second request looked
    bool waits;          // the second request waits for the first
    bool hit;            // and then finds its answer
  };
  const Case cases[] = {
      {"the answer is stored: the waiter gets it", true, false, true, true},
      {"nothing stored (an error): the waiter computes", false, false, true, false},
      {"a change applied since: no waiting", true, true, false, false},
  };
  for (const Case& c : cases) {
    const std::string captured = c.what;
    CAPTURE(captured);
    cal::ResponseCache cache(1 << 20);
    cache.apply(changed(std::nullopt));
    const cal::CacheValidity v{version(3, 10), {}, cache.epoch()};
    std::atomic<bool> waiter_done{false};
    std::atomic<bool> hit{false};
    auto first = std::make_unique<cal::ResponseCache::Claim>();
    cal::CachedResponse out;
    REQUIRE_FALSE(cache.find(key, v.version, at(10), out, *first));
    if (c.write_between) cache.apply(changed(std::vector<cal::DataChange>{{cal::ChangeKind::kEvent, 1}}));
    std::thread waiter([&] {
      cal::CachedResponse got;
      cal::ResponseCache::Claim claim;
      hit = cache.find(key, v.version, at(10), got, claim);
      waiter_done = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(waiter_done.load() == !c.waits);
    if (c.store) cache.store(key, v, cal::ReadSet{{}, {}, kEventLists}, answer("{\"events\":[]}"));
    first.reset();  // the first request's claim is released
    waiter.join();
    CHECK(hit.load() == c.hit);
  }
}

TEST_CASE("a request looking again with the claim it holds never waits for itself") {
  const std::string key = cal::ResponseCache::key_of(get("/cal/events/v1/events"));
  const std::string other = cal::ResponseCache::key_of(get("/cal/events/v1/venues"));
  // Heap-allocated and left alive if the look blocks: a stuck thread must not outlive its cache.
  auto* cache = new cal::ResponseCache(1 << 20);
  cache->apply(changed(std::nullopt));
  const cal::CacheValidity v{version(3, 10), {}, cache->epoch()};
  auto claim = std::make_shared<cal::ResponseCache::Claim>();
  cal::CachedResponse out;
  REQUIRE_FALSE(cache->find(key, v.version, at(10), out, *claim));
  // As a retry after a lost connection looks: the same key, the same claim.
  auto looked = std::make_shared<std::atomic<bool>>(false);
  std::thread again([cache, claim, key, v, looked] {
    cal::CachedResponse got;
    CHECK_FALSE(cache->find(key, v.version, at(10), got, *claim));
    *looked = true;
  });
  for (int i = 0; i < 200 && !*looked; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (!*looked) {
    again.detach();  // stuck for good: the cache it waits on is never freed
    FAIL("find() waited for the claim its own caller holds");
  }
  again.join();
  // The claim moved to another key: a request waiting for the first key is let go (and computes).
  std::atomic<bool> waiter_done{false};
  std::thread waiter([&] {
    cal::CachedResponse got;
    cal::ResponseCache::Claim mine;
    CHECK_FALSE(cache->find(key, v.version, at(10), got, mine));
    waiter_done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK_FALSE(waiter_done.load());
  CHECK_FALSE(cache->find(other, v.version, at(10), out, *claim));
  waiter.join();
  CHECK(waiter_done.load());
  claim.reset();
  delete cache;
}

TEST_CASE("the byte budget evicts the least recently used answers") {
  cal::ResponseCache cache(8000);  // room for four of these answers (about 1,800 bytes each)
  const auto key = [](int i) { return cal::ResponseCache::key_of(get("/e/" + std::to_string(i))); };
  const cal::CacheValidity v{version(1, 10), {}};
  CHECK(!found(cache, key(0), v.version, 10));
  for (int i = 0; i < 3; ++i) cache.store(key(i), v, {}, answer(std::string(1400, 'x')));
  CHECK(found(cache, key(0), v.version, 10));  // 0 is now the most recently used
  for (int i = 3; i < 6; ++i) cache.store(key(i), v, {}, answer(std::string(1400, 'x')));
  CHECK(cache.stats().entries == 4);
  CHECK(cache.stats().bytes <= 8000);
  CHECK(found(cache, key(0), v.version, 10));
  CHECK(!found(cache, key(1), v.version, 10));
  CHECK(!found(cache, key(2), v.version, 10));
  CHECK(found(cache, key(5), v.version, 10));
  cache.store(key(9), v, {}, answer(std::string(2500, 'x')));  // over a quarter of the budget
  CHECK(!found(cache, key(9), v.version, 10));
}

TEST_CASE("answers that read many records are indexed once, and rebuilt only for entries gone") {
  // 400 answers of 150 records each (as many as a page of 50 events shows with their venues and
  // organizers): a store costs its own records, not a pass over every answer held.
  cal::ResponseCache cache(1 << 30);
  cache.apply(changed(std::nullopt));
  const cal::CacheValidity v{version(1, 10), {}, cache.epoch()};
  const auto key = [](int i) {
    return cal::ResponseCache::key_of(get("/events", "page=" + std::to_string(i)));
  };
  const auto records = [](int i) {
    std::vector<long long> ids;
    for (int r = 0; r < 150; ++r) ids.push_back(1 + (i * 37 + r) % 5000);
    return ids;
  };
  for (int i = 0; i < 400; ++i) cache.store(key(i), v, reads(records(i), {1, 2}), answer("[]"));
  CHECK(cache.stats().entries == 400);
  CHECK(cache.stats().index_rebuilds == 0);
  // Stored again three times over: each replaced answer leaves its serials behind, shed by a
  // few rebuilds, not one a store.
  for (int round = 0; round < 3; ++round)
    for (int i = 0; i < 400; ++i) cache.store(key(i), v, reads(records(i), {1, 2}), answer("[]"));
  CHECK(cache.stats().index_rebuilds >= 1);
  CHECK(cache.stats().index_rebuilds <= 3);
  // The rebuilt indexes still drop exactly the answers that read a changed record.
  cache.apply(changed(std::vector<cal::DataChange>{{cal::ChangeKind::kEvent, 38}}));
  int kept = 0;
  for (int i = 0; i < 400; ++i) {
    const auto ids = records(i);
    const bool read_it = std::find(ids.begin(), ids.end(), 38) != ids.end();
    CHECK(found(cache, key(i), v.version, 10) == !read_it);
    kept += read_it ? 0 : 1;
  }
  CHECK(kept > 0);
  CHECK(kept < 400);
}

TEST_CASE("bodies are kept compressed once a dictionary is trained, and come back byte for byte") {
  cal::ResponseCache cache(8 << 20);
  const cal::CacheValidity v{version(1, 10), {}};
  CHECK(!found(cache, "k", v.version, 10));
  const auto record = [](int i) {
    return "{\"id\":" + std::to_string(i) + ",\"title\":\"Event " + std::to_string(i * 7919 % 1000) +
           "\",\"url\":\"https://example.org/event/event-" + std::to_string(i) +
           "/\",\"start_date\":\"2025-05-0" + std::to_string(1 + i % 9) + " 10:00:00\",\"description\":\"" +
           std::string(400 + i % 50, static_cast<char>('a' + i % 26)) + "\"}";
  };
  // The first 64 bodies of 512 bytes or more are the training samples, kept as they are.
  for (int i = 0; i < 64; ++i) cache.store("s" + std::to_string(i), v, {}, answer(record(i)));
  CHECK(cache.stats().compressed == 0);
  struct Case {
    const char* what;
    std::string body;
    bool compressed;
  };
  const Case cases[] = {
      {"a record", record(1000), true},
      {"another record", record(1001), true},
      {"tiny", "{}", false},
      {"large", std::string(20000, 'z'), false},
  };
  std::size_t compressed = 0;
  for (int i = 0; i < 4; ++i) {
    const Case& c = cases[i];
    const std::string captured = c.what;
    CAPTURE(captured);
    const std::string key = "k" + std::to_string(i);
    cache.store(key, v, {}, answer(c.body));
    compressed += c.compressed ? 1 : 0;
    CHECK(cache.stats().compressed == compressed);
    cal::CachedResponse out;
    cal::ResponseCache::Claim claim;
    REQUIRE(cache.find(key, v.version, at(10), out, claim));
    CHECK(out.body == c.body);
    CHECK(out.etag == "\"tag\"");
    REQUIRE(out.headers.size() == 2);
    CHECK(out.headers[1] == std::pair<std::string, std::string>("ETag", "\"tag\""));
  }
  // Samples stay readable too.
  cal::CachedResponse out;
  cal::ResponseCache::Claim claim;
  REQUIRE(cache.find("s3", v.version, at(10), out, claim));
  CHECK(out.body == record(3));
}
