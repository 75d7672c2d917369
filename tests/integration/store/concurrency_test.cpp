// Integration tests of concurrent writes (docs/reliability.md): same-title creates get distinct slugs,
// concurrent updates of one event are each atomic (never a mix of two bodies), and term counts
// stay exact under concurrent tagging, including concurrent creation of one new tag by name.
// Threads only collect responses; every assertion runs on the test's own thread.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/events.h"
#include "support/reliability.h"

namespace caltest {
namespace {

using events::admin;
using events::event_body;
using events::quoted;

constexpr const char* kVenues = "/cal/events/v1/venues";
constexpr const char* kOrganizers = "/cal/events/v1/organizers";
constexpr const char* kCategories = "/cal/events/v1/categories";
constexpr const char* kTags = "/cal/events/v1/tags";

long long create_thing(const char* path, const std::string& body) {
  const HttpResponse r = post_json(path, body, {admin()});
  REQUIRE_MESSAGE((r.status == 201 || r.status == 200), describe(r));
  return events::id_of(r.json());
}

std::string ids_of(const rapidjson::Value& record, const char* member) {
  std::string out;
  const rapidjson::Value* list = find(record, {member});
  if (list == nullptr || !list->IsArray()) return "?";
  for (const auto& item : list->GetArray()) {
    const rapidjson::Value* id = find(item, {"id"});
    out += (out.empty() ? "" : ",") + (id && id->IsInt64() ? std::to_string(id->GetInt64()) : "?");
  }
  return out;
}

long long venue_id_of(const rapidjson::Value& record) {
  const rapidjson::Value* id = find(record, {"venue", "id"});
  return id && id->IsInt64() ? id->GetInt64() : 0;
}

// One variant of an event body: every field it sets carries the variant number.
struct Variant {
  std::string title;
  long long venue = 0, organizer = 0, category = 0, tag = 0;
};

std::string variant_body(const Variant& v, int k) {
  const std::string n = std::to_string(k);
  return event_body(
      v.title, "2031-01-" + std::string(k < 9 ? "0" : "") + std::to_string(k + 1) + " 10:00:00",
      "2031-02-" + std::string(k < 9 ? "0" : "") + std::to_string(k + 1) + " 12:00:00",
      "\"description\":" + quoted("description " + n) + ",\"excerpt\":" + quoted("excerpt " + n) +
          ",\"cost\":\"" + n + "\",\"venue\":" + std::to_string(v.venue) + ",\"organizer\":[" +
          std::to_string(v.organizer) + "],\"categories\":[" + std::to_string(v.category) + "],\"tags\":[" +
          std::to_string(v.tag) + "],\"featured\":" + (k % 2 ? "true" : "false"));
}

// "" when `record` holds exactly variant `k` in every field; else what differs.
std::string variant_mismatch(const rapidjson::Value& record, const std::vector<Variant>& variants, int k) {
  const Variant& v = variants[static_cast<size_t>(k)];
  const std::string n = std::to_string(k);
  std::string out;
  auto expect = [&](const char* what, const std::string& got, const std::string& want) {
    if (got != want) out += std::string(what) + "=" + got + " (want " + want + ") ";
  };
  expect("title", string_at(record, {"title"}), v.title);
  expect("description", string_at(record, {"description"}), "description " + n);
  expect("excerpt", string_at(record, {"excerpt"}), "excerpt " + n);
  expect("cost", string_at(record, {"cost"}), n == "0" ? "Free" : n);
  expect("start", string_at(record, {"start_date"}).substr(0, 10),
         "2031-01-" + std::string(k < 9 ? "0" : "") + std::to_string(k + 1));
  expect("venue", std::to_string(venue_id_of(record)), std::to_string(v.venue));
  expect("organizer", ids_of(record, "organizer"), std::to_string(v.organizer));
  expect("categories", ids_of(record, "categories"), std::to_string(v.category));
  expect("tags", ids_of(record, "tags"), std::to_string(v.tag));
  const rapidjson::Value* featured = find(record, {"featured"});
  expect("featured", featured && featured->IsBool() ? (featured->GetBool() ? "true" : "false") : "?",
         k % 2 ? "true" : "false");
  return out;
}

// The variant whose title `record` carries, or -1.
int variant_of(const rapidjson::Value& record, const std::vector<Variant>& variants) {
  const std::string title = string_at(record, {"title"});
  for (size_t i = 0; i < variants.size(); ++i)
    if (variants[i].title == title) return static_cast<int>(i);
  return -1;
}

long long term_count(const char* collection, long long id) {
  const HttpResponse r = get(std::string(collection) + "/" + std::to_string(id));
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  const rapidjson::Document doc = r.json();
  const rapidjson::Value* count = find(doc, {"count"});
  REQUIRE(count != nullptr);
  return count->GetInt64();
}

}  // namespace

TEST_CASE("sixteen concurrent creates with one title get sixteen distinct slugs, no 500") {
  const std::string title = "Same Title " + unique("race");
  std::mutex mutex;
  std::vector<HttpResponse> responses;
  run_parallel(16, [&](int) {
    HttpResponse r =
        post_json(events::kEvents, event_body(title, "2030-05-01 10:00", "2030-05-01 12:00"), {admin()});
    std::lock_guard<std::mutex> lock(mutex);
    responses.push_back(std::move(r));
  });
  std::set<std::string> slugs;
  for (const HttpResponse& r : responses) {
    CHECK_MESSAGE(r.status == 201, describe(r));
    if (r.status == 201) slugs.insert(string_at(r.json(), {"slug"}));
  }
  CHECK(slugs.size() == 16);
  // The same holds for venues and organizers (the same slug code).
  const std::string name = "Same Venue " + unique("race");
  responses.clear();
  run_parallel(16, [&](int i) {
    HttpResponse r = post_json(
        kVenues, "{\"venue\":" + quoted(name) + ",\"city\":\"c" + std::to_string(i) + "\"}", {admin()});
    std::lock_guard<std::mutex> lock(mutex);
    responses.push_back(std::move(r));
  });
  slugs.clear();
  for (const HttpResponse& r : responses) {
    CHECK_MESSAGE(r.status == 201, describe(r));
    if (r.status == 201) slugs.insert(string_at(r.json(), {"slug"}));
  }
  CHECK(slugs.size() == 16);
}

TEST_CASE("concurrent updates of one event never mix two bodies") {
  constexpr int kVariants = 8;
  constexpr int kRounds = 4;
  std::vector<Variant> variants(kVariants);
  const std::string run = unique("mix");
  for (int k = 0; k < kVariants; ++k) {
    Variant& v = variants[static_cast<size_t>(k)];
    v.title = "Mix " + run + " variant " + std::to_string(k);
    v.venue =
        create_thing(kVenues, "{\"venue\":" + quoted("Mix venue " + run + " " + std::to_string(k)) + "}");
    v.organizer = create_thing(kOrganizers,
                               "{\"organizer\":" + quoted("Mix org " + run + " " + std::to_string(k)) + "}");
    v.category =
        create_thing(kCategories, "{\"name\":" + quoted("mixcat " + run + " " + std::to_string(k)) + "}");
    v.tag = create_thing(kTags, "{\"name\":" + quoted("mixtag " + run + " " + std::to_string(k)) + "}");
  }
  const long long id = events::id_of(events::create(variant_body(variants[0], 0)));
  const std::string path = events::path_of(id);
  std::mutex mutex;
  std::vector<std::pair<int, HttpResponse>> responses;
  run_parallel(kVariants, [&](int k) {
    for (int round = 0; round < kRounds; ++round) {
      // Alternate the verbs and routes: PUT by id, POST by id, PATCH by id.
      const char* method = round % 3 == 0 ? "PUT" : round % 3 == 1 ? "POST" : "PATCH";
      HttpResponse r = request(method, path, variant_body(variants[static_cast<size_t>(k)], k),
                               {admin(), "Content-Type: application/json"});
      std::lock_guard<std::mutex> lock(mutex);
      responses.emplace_back(k, std::move(r));
    }
  });
  for (const auto& [k, r] : responses) {
    CAPTURE(k);
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    // Each answer is the record as its own write left it.
    CHECK(variant_mismatch(r.json(), variants, k) == "");
  }
  // The final state is one whole variant.
  const HttpResponse final_state = get(path, {admin()});
  REQUIRE_MESSAGE(final_state.status == 200, describe(final_state));
  const int k = variant_of(final_state.json(), variants);
  REQUIRE(k >= 0);
  CHECK(variant_mismatch(final_state.json(), variants, k) == "");
}

TEST_CASE("term counts stay exact under concurrent tagging and untagging") {
  const std::string run = unique("count");
  const long long tag = create_thing(kTags, "{\"name\":" + quoted("conctag " + run) + "}");
  const long long category = create_thing(kCategories, "{\"name\":" + quoted("conccat " + run) + "}");
  const std::string new_tag_name = "newtag " + run;  // created by the first create that names it
  constexpr int kThreads = 8;
  constexpr int kPerThread = 6;
  std::mutex mutex;
  std::vector<HttpResponse> failures;
  std::vector<long long> created;
  run_parallel(kThreads, [&](int t) {
    for (int i = 0; i < kPerThread; ++i) {
      const std::string title = "Tagged " + run + " " + std::to_string(t) + "-" + std::to_string(i);
      const std::string extra = "\"tags\":[" + std::to_string(tag) + "," + quoted(new_tag_name) +
                                "],\"categories\":[" + std::to_string(category) + "]";
      HttpResponse r = post_json(events::kEvents,
                                 event_body(title, "2030-06-01 10:00", "2030-06-01 12:00", extra), {admin()});
      std::lock_guard<std::mutex> lock(mutex);
      if (r.status == 201)
        created.push_back(events::id_of(r.json()));
      else
        failures.push_back(std::move(r));
    }
  });
  for (const HttpResponse& r : failures) CHECK_MESSAGE(false, describe(r));
  REQUIRE(created.size() == static_cast<size_t>(kThreads * kPerThread));
  CHECK(term_count(kTags, tag) == kThreads * kPerThread);
  CHECK(term_count(kCategories, category) == kThreads * kPerThread);
  // Exactly one tag of the new name exists, on every event.
  const HttpResponse named = get(std::string(kTags) + "?hide_empty=false&search=" + run + "&per_page=50");
  REQUIRE_MESSAGE(named.status == 200, describe(named));
  int with_name = 0;
  long long new_tag = 0;
  const rapidjson::Document named_doc = named.json();
  for (const auto& t : find(named_doc, {"tags"})->GetArray()) {
    if (string_at(t, {"name"}) == new_tag_name) {
      ++with_name;
      new_tag = find(t, {"id"})->GetInt64();
    }
  }
  CHECK(with_name == 1);
  CHECK(term_count(kTags, new_tag) == kThreads * kPerThread);

  // Concurrently: a quarter of the events lose the tag, a quarter get their tags sent again,
  // a quarter go to draft (no longer counted), a quarter are trashed.
  std::vector<HttpResponse> updates;
  const std::string both_tags = "{\"tags\":[" + std::to_string(tag) + "," + std::to_string(new_tag) + "]}";
  run_parallel(kThreads, [&](int t) {
    for (int i = 0; i < kPerThread; ++i) {
      const int n = t * kPerThread + i;
      const std::string path = events::path_of(created[static_cast<size_t>(n)]);
      HttpResponse r;
      switch (n % 4) {
        case 0:
          r = post_json(path, "{\"tags\":[" + std::to_string(new_tag) + "]}", {admin()});
          break;
        case 1:
          r = post_json(path, both_tags, {admin()});
          break;
        case 2:
          r = post_json(path, "{\"status\":\"draft\"}", {admin()});
          break;
        default:
          r = del(path, {admin()});
          break;
      }
      std::lock_guard<std::mutex> lock(mutex);
      updates.push_back(std::move(r));
    }
  });
  for (const HttpResponse& r : updates) CHECK_MESSAGE(r.status == 200, describe(r));
  long long kept_tag = 0, published = 0;
  for (int n = 0; n < kThreads * kPerThread; ++n) {
    if (n % 4 == 1) ++kept_tag;
    if (n % 4 < 2) ++published;
  }
  CHECK(term_count(kTags, tag) == kept_tag);
  CHECK(term_count(kTags, new_tag) == published);
  CHECK(term_count(kCategories, category) == published);
}

TEST_CASE("writes during a schema migration are retried, never a 500") {
  // `calendarctl migrate` takes metadata locks (CREATE TRIGGER, ALTER TABLE ... IF NOT EXISTS)
  // that deadlock with concurrent writes; the service runs such requests again.
  const char* ctl = std::getenv("CAL_TEST_CTL");
  if (ctl == nullptr) return;
  const std::string run = unique("migrate");
  std::atomic<bool> migrating{true};
  std::mutex mutex;
  std::vector<HttpResponse> responses;
  std::thread migrations([&] {
    for (int i = 0; i < 3; ++i) caltest::run(std::string(ctl) + " migrate >/dev/null 2>&1");
    migrating = false;
  });
  run_parallel(4, [&](int t) {
    for (int i = 0; i < 200 && (migrating || i < 10); ++i) {
      HttpResponse r = post_json(
          events::kEvents,
          event_body("Migrating " + run + " " + std::to_string(t) + " " + std::to_string(i),
                     "2030-07-01 10:00", "2030-07-01 12:00",
                     "\"tags\":[" +
                         quoted("migtag " + run + " " + std::to_string(t) + " " + std::to_string(i)) + "]"),
          {admin()});
      std::lock_guard<std::mutex> lock(mutex);
      responses.push_back(std::move(r));
    }
  });
  migrations.join();
  int created = 0;
  for (const HttpResponse& r : responses) {
    if (r.status == 201) {
      ++created;
      continue;
    }
    CHECK(error_mismatch(r, 503, "rest_db_unavailable") == "");
    CHECK(!r.header("retry-after").empty());
  }
  CHECK(created > 0);
}

}  // namespace caltest
