// `calendarctl demo` (docs/calendarctl.md) against the test stack's database, checked through the API. Other
// tests share the database, so every assertion is about the records of one run: their ids follow
// from the summary line (venues, organizers, images, then events, from the base id in the slug
// prefix "d<seed>-<base>").
#include "support/demo.h"
#include "support/client.h"
#include "support/commands.h"
#include "support/engine.h"

#include <doctest/doctest.h>

#include <array>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <sys/wait.h>
#include <vector>

using caltest::ctl;
using caltest::run;
using caltest::Run;

namespace {

using caltest::get;

const std::string kApi = "/cal/events/v1";

std::string admin() { return caltest::bearer(caltest::admin_token()); }

using caltest::DemoRun;

// A run of the one-off events alone: their ids follow one another (series: demo_series_test.cpp).
DemoRun demo(long long events, long long seed) { return caltest::run_demo(events, seed, "--series-share 0"); }

std::string id_list(long long first, long long count) {
  std::string out;
  for (long long id = first; id < first + count; ++id) out += (out.empty() ? "" : ",") + std::to_string(id);
  return out;
}

const char* const kAllStatuses = "publish,future,draft,pending,private,trash";

// Every event of the run as the admin lists it (include: no date window, hidden ones too).
std::vector<rapidjson::Document> events_of(const DemoRun& d) {
  std::vector<rapidjson::Document> out;
  for (long long first = d.first_event(); first < d.first_event() + d.events; first += 50) {
    const long long count = std::min<long long>(50, d.first_event() + d.events - first);
    const auto r = get(
        kApi + "/events?per_page=50&status=" + kAllStatuses + "&include=" + id_list(first, count), {admin()});
    REQUIRE_MESSAGE(r.status == 200, r.body);
    rapidjson::Document page = r.json();
    REQUIRE(page["events"].Size() == count);
    for (auto& e : page["events"].GetArray()) {
      rapidjson::Document one;
      one.CopyFrom(e, one.GetAllocator());
      out.push_back(std::move(one));
    }
  }
  return out;
}

std::string text(const rapidjson::Value& v, const char* key) {
  return v.HasMember(key) && v[key].IsString() ? v[key].GetString() : "";
}

// What must be equal between two runs with the same N and seed: every generated field, with the
// run's own ids and slug prefix taken out.
std::vector<std::string> fingerprint(const DemoRun& d, const std::vector<rapidjson::Document>& events) {
  std::vector<std::string> out;
  for (const auto& e : events) {
    std::string slug = text(e, "slug");
    const auto at = slug.find(d.prefix);
    if (at != std::string::npos) slug.replace(at, d.prefix.size(), "P");
    const long long venue = e["venue"].IsObject() ? e["venue"]["id"].GetInt64() - d.base : -1;
    std::string organizers;
    for (const auto& o : e["organizer"].GetArray())
      organizers += std::to_string(o["id"].GetInt64() - d.base) + " ";
    out.push_back(std::to_string(e["id"].GetInt64() - d.first_event()) + "|" + text(e, "title") + "|" + slug +
                  "|" + text(e, "status") + "|" + text(e, "start_date") + "|" + text(e, "end_date") + "|" +
                  text(e, "utc_start_date") + "|" + text(e, "timezone") + "|" + text(e, "date") + "|" +
                  std::to_string(venue) + "|" + organizers + "|" + std::to_string(e["categories"].Size()) +
                  "|" + std::to_string(e["tags"].Size()));
  }
  return out;
}

long long list_total(const std::string& query) {
  const auto r = get(kApi + query, {admin()});
  REQUIRE_MESSAGE(r.status == 200, std::string(query + " -> " + r.body));
  return r.json()["total"].GetInt64();
}

}  // namespace

TEST_CASE("calendarctl demo adds a realistic, deterministic dataset the API shows consistently") {
  const DemoRun first = demo(2000, 7);
  CHECK(first.venues >= 31);
  CHECK(first.prefix.rfind("d7-", 0) == 0);
  const auto events = events_of(first);
  REQUIRE(events.size() == 2000);

  std::map<std::string, long long> statuses;
  long long all_day = 0, multi_day = 0, protected_events = 0, featured = 0, hidden = 0, images = 0,
            with_venue = 0;
  std::set<std::string> zones, countries;
  std::map<long long, long long> category_uses;
  for (const auto& e : events) {
    ++statuses[text(e, "status")];
    if (e["all_day"].IsBool() && e["all_day"].GetBool()) ++all_day;
    if (text(e, "start_date").substr(0, 10) != text(e, "end_date").substr(0, 10)) ++multi_day;
    if (e["show_map"].IsNull()) ++protected_events;  // docs/api.md §3.5: booleans null in lists
    if (e["featured"].IsBool() && e["featured"].GetBool()) ++featured;
    if (e["hide_from_listings"].IsBool() && e["hide_from_listings"].GetBool()) ++hidden;
    if (e["image"].IsObject()) ++images;
    zones.insert(text(e, "timezone"));
    if (e["venue"].IsObject()) {
      ++with_venue;
      const auto& v = e["venue"];
      countries.insert(text(v, "country"));
      CHECK(v["geo_lat"].IsNumber());
      CHECK(v["geo_lng"].IsNumber());
      CHECK(text(e, "timezone") != "");
    }
    for (const auto& c : e["categories"].GetArray()) ++category_uses[c["id"].GetInt64()];
  }
  // Shares from the generator's shape (demo_data.cpp), with room for chance.
  CHECK(statuses["publish"] > 1600);
  CHECK(statuses["publish"] < 1900);
  for (const char* s : {"future", "draft", "pending", "private", "trash"}) CHECK_MESSAGE(statuses[s] > 5, s);
  CHECK(all_day > 60);
  CHECK(multi_day > 60);
  CHECK(protected_events > 10);
  CHECK(featured > 60);
  CHECK(hidden > 3);
  CHECK(images > 200);
  CHECK(with_venue > 1700);
  CHECK(countries.size() >= 5);
  CHECK(zones.size() >= 8);

  // Venues in the API: countries with their zones' cities, coordinates, state or province.
  const auto venue = get(kApi + "/venues/" + std::to_string(first.base), {admin()});
  REQUIRE(venue.status == 200);
  CHECK(text(venue.json(), "stateprovince") != "");
  CHECK(text(venue.json(), "zip") != "");
  CHECK(text(venue.json(), "phone") != "");

  // The category tree has children; every category's count is what the list filtered by it shows.
  REQUIRE(category_uses.size() > 5);
  bool child_seen = false;
  for (const auto& [id, uses] : category_uses) {
    const auto r = get(kApi + "/categories/" + std::to_string(id), {admin()});
    REQUIRE(r.status == 200);
    const auto term = r.json();
    if (term["parent"].GetInt64() != 0) child_seen = true;
    CHECK_MESSAGE(
        term["count"].GetInt64() ==
            list_total("/events?status=publish&starts_after=1970-01-01&categories=" + std::to_string(id)),
        "category ", id);
  }
  CHECK(child_seen);

  // A second run with the same seed adds as many again, with the same fields.
  const DemoRun second = demo(2000, 7);
  CHECK(second.base > first.base);
  CHECK(second.prefix != first.prefix);
  const auto again = events_of(second);
  CHECK(fingerprint(first, events) == fingerprint(second, again));
  // The bulk load kept the list engine's derived data exact (its per-row triggers skipped).
  CHECK(caltest::engine::derived_data_mismatch() == "");
  // And the lists that count from it agree with a brute-force count of the demo's stretch.
  const long long visible = std::stoll(caltest::engine::sql(
      "SELECT COUNT(*) FROM posts p JOIN event_details d ON d.event_id = p.id WHERE p.type = 'event' AND "
      "d.hide_from_listings = 0 AND p.status <> 'trash' AND d.start_utc > UTC_DATE() - INTERVAL 400 DAY + "
      "INTERVAL 86399 SECOND"));
  CHECK(list_total("/events?starts_after=-400%20days") == visible);
  // Lists by a category, tag, venue and organizer (driven by the link rows' copies) as visitors and
  // the administrator see them: totals and a page equal a brute-force query.
  long long tag = 0, organizer = 0;
  for (const auto& e : events) {
    if (tag == 0 && e["tags"].Size() > 0) tag = e["tags"][0]["id"].GetInt64();
    if (organizer == 0 && e["organizer"].Size() > 0) organizer = e["organizer"][0]["id"].GetInt64();
  }
  REQUIRE(tag != 0);
  REQUIRE(organizer != 0);
  const std::string effective =
      "IF(p.status = 'future' AND p.date_utc <= UTC_TIMESTAMP(), 'publish', p.status)";
  const std::string window = "d.start_utc > UTC_DATE() - INTERVAL 400 DAY + INTERVAL 86399 SECOND";
  const std::string common = std::to_string(category_uses.begin()->first);
  struct Link {
    std::string query, sql;
  };
  for (const Link& l : std::vector<Link>{
           {"categories=" + common,
            "EXISTS (SELECT 1 FROM term_relationships x WHERE x.event_id = p.id AND "
            "x.term_id = " +
                common + ")"},
           {"tags=" + std::to_string(tag),
            "EXISTS (SELECT 1 FROM term_relationships x WHERE x.event_id = p.id "
            "AND x.term_id = " +
                std::to_string(tag) + ")"},
           {"venue=" + std::to_string(first.base),
            "EXISTS (SELECT 1 FROM event_venues x WHERE x.event_id = p.id "
            "AND x.venue_id = " +
                std::to_string(first.base) + ")"},
           {"organizer=" + std::to_string(organizer),
            "EXISTS (SELECT 1 FROM event_organizers x WHERE x.event_id = p.id AND x.organizer_id = " +
                std::to_string(organizer) + ")"},
       })
    for (const bool as_admin : {false, true}) {
      const std::string where =
          " FROM posts p JOIN event_details d ON d.event_id = p.id WHERE p.type = 'event' "
          "AND d.hide_from_listings = 0 AND " +
          window + " AND " + l.sql + " AND " +
          (as_admin ? "p.status <> 'trash'" : effective + " = 'publish'");
      const std::string query = "/events?starts_after=-400%20days&per_page=10&page=1&" + l.query;
      const auto r =
          get(kApi + query, as_admin ? std::vector<std::string>{admin()} : std::vector<std::string>{});
      REQUIRE_MESSAGE(r.status == 200, query);
      const auto body = r.json();
      CHECK_MESSAGE(
          std::to_string(body["total"].GetInt64()) == caltest::engine::sql("SELECT COUNT(*)" + where), query);
      std::string ids;
      for (const auto& e : body["events"].GetArray())
        ids += (ids.empty() ? "" : "\n") + std::to_string(e["id"].GetInt64());
      CHECK_MESSAGE(
          ids == caltest::engine::sql("SELECT p.id" + where + " ORDER BY d.start_utc, p.id LIMIT 10"), query);
      CHECK_MESSAGE(!ids.empty(), query);
    }
  // Another seed gives other data.
  const DemoRun other = demo(2000, 8);
  CHECK(fingerprint(first, events) != fingerprint(other, events_of(other)));
}

TEST_CASE("calendarctl demo refuses bad arguments with a usage error") {
  CHECK(run(ctl() + " demo 2>/dev/null").exit_code == 2);
  CHECK(run(ctl() + " demo --events 0 2>/dev/null").exit_code == 2);
  CHECK(run(ctl() + " demo --events 10000001 2>/dev/null").exit_code == 2);
  CHECK(run(ctl() + " demo --events 12x 2>/dev/null").exit_code == 2);
  CHECK(run(ctl() + " demo --events 10 --seed -1 2>/dev/null").exit_code == 2);
  CHECK(run(ctl() + " demo --events 2>/dev/null").exit_code == 2);
  CHECK(run(ctl() + " demo --events 10 --series-share 51 2>/dev/null").exit_code == 2);
  CHECK(run(ctl() + " demo --events 10 --series-share 5x 2>/dev/null").exit_code == 2);
  CHECK(run(ctl() + " demo --events 10 --series-share 2>/dev/null").exit_code == 2);
  CHECK(run(ctl() + " user list --series-share 5 2>/dev/null").exit_code == 2);
  CHECK(run(ctl() + " user list --events 5 2>/dev/null").exit_code == 2);
  const Run help = run(ctl() + " --help");
  CHECK(help.out.find("demo --events N") != std::string::npos);
  CHECK(help.out.find("--series-share P") != std::string::npos);
}

namespace {

// The stack's database through the mariadb client (the output of -N -B, trailing newline cut).
std::string sql(const std::string& statement) {
  const char* dir = std::getenv("CAL_TEST_DIR");
  REQUIRE(dir != nullptr);
  const Run r = run("mariadb --no-defaults --socket='" + std::string(dir) +
                    "/mysqld.sock' --user=root -N -B calendar -e \"" + statement + "\"");
  REQUIRE_MESSAGE(r.exit_code == 0, statement);
  std::string out = r.out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace

TEST_CASE("calendarctl migrate brings an older trigger body up to date and leaves current ones alone") {
  // The version of event_venues_version_ai before the bulk-load switch and the change log (as
  // databases migrated earlier have it).
  sql("DROP TRIGGER event_venues_version_ai; CREATE TRIGGER event_venues_version_ai AFTER INSERT ON "
      "event_venues "
      "FOR EACH ROW UPDATE data_version SET version = version + 1 WHERE shard = CONNECTION_ID() % 16");
  const std::string query =
      "SELECT ACTION_STATEMENT, CREATED FROM information_schema.TRIGGERS WHERE "
      "TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME = ";
  const std::string current_before = sql(query + "'posts_ai'");
  CHECK(sql(query + "'event_venues_version_ai'").find("cal_note_change") == std::string::npos);
  REQUIRE(run(ctl() + " migrate 2>/dev/null").exit_code == 0);
  CHECK(sql(query + "'event_venues_version_ai'").find("CALL cal_note_change('event', NEW.event_id)") !=
        std::string::npos);
  CHECK(sql(query + "'posts_ai'") == current_before);  // not re-created: same CREATED
}
