// Recurring series through GET /changes (docs/sync.md, docs/recurring-events.md): a mirror kept
// by replaying /changes holds exactly the occurrences GET /events lists and each series as
// GET /events/{series id} answers it, after every kind of series write: a new series, an
// occurrence edited alone, one cancelled, a split, a series trashed, made a one-off event, deleted
// for good. A mirror of kinds=series alone holds the same series.
#include <doctest/doctest.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/client.h"
#include "support/events.h"
#include "support/sync.h"

namespace caltest {
namespace {

using events::admin;
using events::create;
using events::days_ahead;
using events::event_body;
using events::id_of;
using events::path_of;

// A weekly series of `count` occurrences at 19:00 in Berlin from ten days ahead (inside the
// lists' default window), titled `title`.
long long weekly(const std::string& title, int count) {
  return id_of(create(event_body(title, days_ahead(10, "19:00:00"), days_ahead(10, "20:30:00"),
                                 "\"timezone\":\"Europe/Berlin\",\"recurrence\":[\"RRULE:FREQ=WEEKLY;COUNT=" +
                                     std::to_string(count) + "\"]")));
}

// The series of `ids` the administrator reads now (trashed ones answer 403), as the mirror keeps them.
sync::View series_read(const std::set<long long>& ids) {
  sync::View out;
  for (long long id : ids) {
    const HttpResponse r = get(path_of(id), {admin()});
    if (r.status != 200) continue;
    const rapidjson::Document d = r.json();
    const rapidjson::Value* lines = find(d, {"recurrence"});
    if (!lines || !lines->IsArray() || lines->Empty()) continue;  // a one-off event now
    out.emplace(sync::Key{"series", id}, sync::normalize("series", d));
  }
  return out;
}

sync::View series_of(const sync::Mirror& m) {
  sync::View out;
  for (const auto& [key, text] : m.records)
    if (key.first == "series") out.emplace(key, text);
  return out;
}

// The occurrences of series `id` in the lists, by start.
std::vector<long long> occurrences_of(long long id) {
  const HttpResponse r = get(path_of(id) + "/occurrences?per_page=50", {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  return events::ids_in(r.json());
}

TEST_CASE("recurrence: a mirror kept by /changes follows series, exceptions, cancellations, splits") {
  const std::string word = unique("serm");
  sync::Mirror mirror{{admin()}};
  mirror.start();
  sync::Mirror series_only{{admin()}, "&kinds=series"};
  series_only.start();
  std::set<long long> series;
  const auto check = [&](const char* when) {
    CAPTURE(when);
    mirror.sync(7);
    series_only.sync(3);
    const std::string events = sync::view_mismatch(mirror.with_word(word), sync::listed({admin()}, word));
    CHECK_MESSAGE(events.empty(), events);
    const sync::View read = series_read(series);
    const std::string kept = sync::view_mismatch(series_of(mirror), read);
    CHECK_MESSAGE(kept.empty(), kept);
    const std::string alone = sync::view_mismatch(series_only.records, read);
    CHECK_MESSAGE(alone.empty(), alone);
  };

  const long long first = weekly(word + " Yoga", 6);
  series.insert(first);
  check("a new series");
  const std::vector<long long> ids = occurrences_of(first);
  REQUIRE(ids.size() == 6);
  CHECK(mirror.records.count({"series", first}) == 1);
  CHECK(mirror.records.count({"event", first}) == 0);
  CHECK(mirror.records.count({"event", ids[0]}) == 1);
  CHECK(mirror.records.at({"event", ids[0]}).find("\"series_id\":" + std::to_string(first)) !=
        std::string::npos);

  REQUIRE(patch_json(path_of(ids[1]), "{\"title\":\"" + word + " Yoga outdoors\"}", {admin()}).status == 200);
  check("an occurrence edited alone");
  CHECK(mirror.records.at({"event", ids[1]}).find("\"is_exception\":true") != std::string::npos);

  REQUIRE(del(path_of(ids[2]), {admin()}).status == 200);
  check("an occurrence cancelled");
  CHECK(mirror.records.count({"event", ids[2]}) == 0);
  CHECK(mirror.records.at({"series", first}).find("EXDATE") != std::string::npos);

  const HttpResponse split =
      patch_json(path_of(ids[3]) + "?scope=following", "{\"title\":\"" + word + " Yoga later\"}", {admin()});
  REQUIRE_MESSAGE(split.status == 200, describe(split));
  const long long second = id_of(split.json());
  series.insert(second);
  check("a series split");
  CHECK(mirror.records.count({"series", second}) == 1);
  CHECK(mirror.records.count({"event", second}) == 0);

  REQUIRE(del(path_of(first), {admin()}).status == 200);
  check("a series trashed");
  CHECK(mirror.records.count({"series", first}) == 0);
  CHECK(mirror.records.count({"event", ids[0]}) == 0);

  REQUIRE(patch_json(path_of(second), R"({"recurrence":null})", {admin()}).status == 200);
  check("a series made a one-off event");
  CHECK(mirror.records.count({"series", second}) == 0);
  CHECK(mirror.records.count({"event", second}) == 1);

  const long long gone = weekly(word + " Pilates", 2);
  series.insert(gone);
  check("another series");
  REQUIRE(mirror.records.count({"series", gone}) == 1);
  REQUIRE(del(path_of(gone) + "?force=true", {admin()}).status == 200);
  check("a series deleted for good");
  CHECK(mirror.records.count({"series", gone}) == 0);
  CHECK(series_only.records.empty());
}

TEST_CASE("recurrence: a visitor's /changes has a draft series as a delete, published or due as an upsert") {
  const std::string word = unique("serv");
  sync::Mirror visitor{{}};
  visitor.start();
  const long long id =
      id_of(create(event_body(word + " Choir", days_ahead(12, "18:00:00"), days_ahead(12, "19:00:00"),
                              R"("status":"draft","recurrence":["RRULE:FREQ=DAILY;COUNT=3"])")));
  visitor.sync(50);
  CHECK(visitor.records.count({"series", id}) == 0);
  CHECK(visitor.with_word(word).empty());
  REQUIRE(patch_json(path_of(id), R"({"status":"publish"})", {admin()}).status == 200);
  visitor.sync(50);
  REQUIRE(visitor.records.count({"series", id}) == 1);
  CHECK(visitor.records.at({"series", id}) == sync::normalize("series", get(path_of(id)).json()));
  CHECK(visitor.with_word(word).size() == 3);

  // Scheduled a moment ahead: the series and its occurrences come due without a write.
  const long long due =
      id_of(create(event_body(word + " Dawn", days_ahead(14, "06:00:00"), days_ahead(14, "07:00:00"),
                              R"("date_utc":"+2 seconds","recurrence":["RRULE:FREQ=DAILY;COUNT=2"])")));
  REQUIRE(string_at(get(path_of(due), {admin()}).json(), {"status"}) == "future");
  visitor.sync(50);
  CHECK(visitor.records.count({"series", due}) == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(3200));
  visitor.sync(50);
  CHECK(visitor.records.count({"series", due}) == 1);
  CHECK(visitor.with_word(word).size() == 5);
}

}  // namespace
}  // namespace caltest
