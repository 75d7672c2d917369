// Incremental sync (docs/sync.md), the two properties: (1) callers of every role write at random
// while a mirror per role applies GET /changes, and every mirror equals what the list routes show
// that role, record for record, at random points and at the end; (2) concurrent writers and a
// reader polling in a loop: no change is ever missed.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/client.h"
#include "support/events.h"
#include "support/sync.h"

namespace caltest {
namespace {

using events::days_ahead;
using events::quoted;
using sync::kNs;

struct Role {
  std::string name;
  std::vector<std::string> headers;  // empty: a visitor
};

template <typename T>
const T& pick(std::mt19937& rng, const std::vector<T>& items) {
  return items[std::uniform_int_distribution<std::size_t>(0, items.size() - 1)(rng)];
}

// Up to `n` ids of `pool`, as a JSON array.
std::string some_ids(std::mt19937& rng, const std::vector<long long>& pool, int n) {
  std::string out = "[";
  const int count = pool.empty() ? 0 : std::uniform_int_distribution<int>(0, n)(rng);
  for (int i = 0; i < count; ++i) out += (i ? "," : "") + std::to_string(pick(rng, pool));
  return out + "]";
}

long long id_if(const HttpResponse& r) {
  if (r.status != 200 && r.status != 201) return 0;
  const rapidjson::Document d = r.json();
  const rapidjson::Value* id = find(d, {"id"});
  return id && id->IsInt64() ? id->GetInt64() : 0;
}

void drop(std::vector<long long>& pool, long long id) {
  pool.erase(std::remove(pool.begin(), pool.end(), id), pool.end());
}

}  // namespace

TEST_CASE("sync property: a mirror per role kept by /changes equals what the lists show that role") {
  const std::string word = unique("mir");
  std::mt19937 rng(static_cast<unsigned>(std::random_device{}()));
  const unsigned seed = rng();
  CAPTURE(seed);
  rng.seed(seed);

  std::vector<Role> roles = {{"visitor", {}}};
  for (const char* role : {"subscriber", "contributor", "author", "editor", "administrator"})
    roles.push_back({role, {bearer(create_user(std::string(role).substr(0, 5), role))}});
  std::vector<const Role*> writers;
  for (const Role& r : roles)
    if (r.name != "visitor" && r.name != "subscriber") writers.push_back(&r);
  const Role& admin_role = roles.back();

  std::vector<sync::Mirror> mirrors;
  for (const Role& r : roles) {
    mirrors.push_back(sync::Mirror{r.headers});
    mirrors.back().start();
  }
  const auto check = [&](std::size_t m, const char* when) {
    CAPTURE(when);
    CAPTURE(roles[m].name);
    mirrors[m].sync(std::uniform_int_distribution<long long>(1, 60)(rng));
    const std::string mismatch =
        sync::view_mismatch(mirrors[m].with_word(word), sync::listed(roles[m].headers, word));
    CHECK_MESSAGE(mismatch == "", mismatch);
  };

  std::vector<long long> events, venues, organizers, categories, tags;
  const std::vector<std::string> statuses = {"publish", "publish", "draft", "pending", "private"};
  int serial = 0;
  const auto name = [&](const char* what) {
    return std::string(what) + " " + std::to_string(++serial) + " " + word;
  };
  const int operations = 2000;
  const auto started = std::chrono::steady_clock::now();
  for (int op = 0; op < operations; ++op) {
    const Role& who = *pick(rng, writers);
    const auto& h = who.headers;
    const int kind = std::uniform_int_distribution<int>(0, 99)(rng);
    const std::string e =
        events.empty() ? "" : std::string(kNs) + "/events/" + std::to_string(pick(rng, events));
    if (kind < 14 || events.empty()) {  // create an event
      std::string extra = "\"status\":" + quoted(pick(rng, statuses));
      if (!venues.empty() && rng() % 2) extra += ",\"venue\":" + std::to_string(pick(rng, venues));
      extra += ",\"organizer\":" + some_ids(rng, organizers, 2);
      extra += ",\"categories\":" + some_ids(rng, categories, 2) + ",\"tags\":" + some_ids(rng, tags, 2);
      if (rng() % 10 == 0) extra += ",\"hide_from_listings\":true";
      const int day = std::uniform_int_distribution<int>(1, 60)(rng);
      const long long id = id_if(post_json(
          std::string(kNs) + "/events",
          events::event_body(name("Event"), days_ahead(day, "10:00"), days_ahead(day, "12:00"), extra), h));
      if (id) events.push_back(id);
    } else if (kind < 26) {  // rename
      put_json(e, "{\"title\":" + quoted(name("Renamed")) + "}", h);
    } else if (kind < 40) {  // publish, unpublish, make private, restore from the trash
      put_json(e, "{\"status\":" + quoted(pick(rng, statuses)) + "}", h);
    } else if (kind < 48) {  // re-tag
      put_json(
          e, "{\"categories\":" + some_ids(rng, categories, 3) + ",\"tags\":" + some_ids(rng, tags, 3) + "}",
          h);
    } else if (kind < 54) {  // move venue, change organizers
      put_json(e,
               "{\"venue\":" + (venues.empty() ? std::string("0") : std::to_string(pick(rng, venues))) +
                   ",\"organizer\":" + some_ids(rng, organizers, 2) + "}",
               h);
    } else if (kind < 57) {  // hide from listings, or show again
      put_json(e, std::string("{\"hide_from_listings\":") + (rng() % 2 ? "true" : "false") + "}", h);
    } else if (kind < 63) {  // trash
      del(e, h);
    } else if (kind < 66) {  // delete for good
      const HttpResponse r = del(e + "?force=true", h);
      if (r.status == 200) drop(events, std::stoll(e.substr(e.rfind('/') + 1)));
    } else if (kind < 78) {  // venues and organizers: create, rename, status, trash, delete
      const bool venue = rng() % 2;
      auto& pool = venue ? venues : organizers;
      const std::string base = std::string(kNs) + (venue ? "/venues" : "/organizers");
      const char* field = venue ? "venue" : "organizer";
      const int what = static_cast<int>(rng() % 6);
      if (what < 2 || pool.empty()) {
        const long long id = id_if(post_json(base,
                                             std::string("{\"") + field + "\":" + quoted(name(field)) +
                                                 ",\"status\":" + quoted(pick(rng, statuses)) + "}",
                                             h));
        if (id && std::find(pool.begin(), pool.end(), id) == pool.end()) pool.push_back(id);
      } else {
        const long long id = pick(rng, pool);
        const std::string item = base + "/" + std::to_string(id);
        if (what == 2)
          put_json(item, std::string("{\"") + field + "\":" + quoted(name(field)) + "}", h);
        else if (what == 3)
          put_json(item, "{\"status\":" + quoted(pick(rng, statuses)) + "}", h);
        else if (what == 4)
          del(item, h);
        else if (del(item + "?force=true", h).status == 200)
          drop(pool, id);
      }
    } else if (kind < 88) {  // categories and tags: create, rename, delete
      const bool category = rng() % 2;
      auto& pool = category ? categories : tags;
      const std::string base = std::string(kNs) + (category ? "/categories" : "/tags");
      const int what = static_cast<int>(rng() % 4);
      if (what < 2 || pool.empty()) {
        const long long id = id_if(post_json(base, "{\"name\":" + quoted(name("Term")) + "}", h));
        if (id) pool.push_back(id);
      } else {
        const long long id = pick(rng, pool);
        if (what == 2)
          put_json(base + "/" + std::to_string(id), "{\"name\":" + quoted(name("Term")) + "}", h);
        else if (del(base + "/" + std::to_string(id) + "?force=true", h).status == 200)
          drop(pool, id);
      }
    } else {  // a mirror catches up at a random point, a page size of its own
      mirrors[rng() % mirrors.size()].sync(std::uniform_int_distribution<long long>(1, 40)(rng));
    }
    // About a dozen times in the run, one mirror is compared with the lists (each comparison
    // reads every list as that role: as many requests as a hundred operations).
    if (rng() % 150 == 0) check(rng() % mirrors.size(), "at a random point");
  }
  for (std::size_t m = 0; m < mirrors.size(); ++m) check(m, "at the end");
  // The run did what it says: records of every kind, seen by the admin's mirror.
  const sync::View final_view = mirrors[roles.size() - 1].with_word(word);
  std::map<std::string, int> kinds;
  for (const auto& [key, text] : final_view) ++kinds[key.first];
  CHECK(kinds["event"] > 10);
  CHECK(kinds["venue"] + kinds["organizer"] > 2);
  CHECK(kinds["category"] + kinds["tag"] > 2);
  MESSAGE(
      "sync property: "
      << operations << " operations in "
      << std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started).count()
      << " s; admin mirror " << final_view.size() << " records, " << mirrors.back().polls << " polls");
  (void)admin_role;
}

TEST_CASE("sync ordering: concurrent writers and a reader polling in a loop miss no change") {
  const std::string word = unique("ord");
  const std::string admin = bearer(admin_token());
  sync::Mirror reader{{admin}, "&kinds=event"};
  reader.start();
  constexpr int kWriters = 4;
  constexpr int kWrites = 60;
  std::mutex mutex;
  std::map<long long, std::string> last_title;  // what each event's title is after the writers
  std::atomic<int> failures{0};
  std::atomic<bool> done{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kWriters; ++t) {
    threads.emplace_back([&, t] {
      try {
        std::vector<long long> mine;
        for (int i = 0; i < kWrites; ++i) {
          const std::string title = "W" + std::to_string(t) + " n" + std::to_string(i) + " " + word;
          if (mine.empty() || i % 4 == 0) {
            const HttpResponse r =
                post_json(std::string(kNs) + "/events",
                          events::event_body(title, days_ahead(3, "09:00"), days_ahead(3, "10:00")), {admin});
            const long long id = id_if(r);
            if (!id) {
              ++failures;
              continue;
            }
            mine.push_back(id);
            std::lock_guard<std::mutex> lock(mutex);
            last_title[id] = title;
          } else {
            const long long id = mine[static_cast<std::size_t>(i) % mine.size()];
            if (put_json(std::string(kNs) + "/events/" + std::to_string(id),
                         "{\"title\":" + quoted(title) + "}", {admin})
                    .status != 200) {
              ++failures;
              continue;
            }
            std::lock_guard<std::mutex> lock(mutex);
            last_title[id] = title;
          }
        }
      } catch (...) {
        ++failures;
      }
    });
  }
  // The reader polls while they write, small pages, and notes every title it is given.
  std::map<long long, std::vector<std::string>> seen;
  std::thread poller([&] {
    std::mt19937 rng(7);
    while (!done) reader.sync(std::uniform_int_distribution<long long>(1, 8)(rng));
  });
  for (auto& th : threads) th.join();
  done = true;
  poller.join();
  reader.sync(50);
  CHECK(failures == 0);
  CHECK(reader.polls > 10);
  const std::map<long long, std::string> expected = last_title;
  REQUIRE(expected.size() >= kWriters * kWrites / 4);
  int missed = 0;
  for (const auto& [id, title] : expected) {
    const auto it = reader.names.find({"event", id});
    if (it == reader.names.end() || it->second != title) {
      ++missed;
      MESSAGE("event " << id << ": the reader has " << (it == reader.names.end() ? "nothing" : it->second)
                       << ", the last write was " << title);
    }
  }
  CHECK(missed == 0);
  (void)seen;
}

}  // namespace caltest
