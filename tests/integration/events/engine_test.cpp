// Integration tests of the list engine (docs/architecture.md, the list plans): GET /events filtered
// only by visibility, the date window and `featured` is paged from the visibility indexes and
// counted from the event_day_counts rollup. Every total and page is compared with a brute-force
// query of the whole database (posts joined to event_details, the effective status computed from
// posts), for windows strict and not, bounds cutting through multi-day and long events, hidden and
// featured events, every status per role, a scheduled event turning due, and after writes, trash
// and deletes; the same for lists by category, tag, venue and organizer (driven by the link rows'
// copies, a category or tag alone counted from term_day_counts unless it has few), with search on top,
// for authors too, after links move; and the derived data is checked against the base tables after
// each step.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "support/client.h"
#include "support/engine.h"
#include "support/events.h"
#include "support/general_log.h"

namespace caltest {
namespace {

using namespace events;
using engine::sql;

// The id of a record the administrator creates in `collection` from `json`.
std::string made(const char* collection, const std::string& json) {
  const HttpResponse r = post_json(collection, json, {admin()});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  return std::to_string(id_of(r.json()));
}

// A stretch of days far from every other test's events (they stay near today).
constexpr const char* kBase = "2033-03-";

std::string day(int d, const char* time) {
  char text[40];
  std::snprintf(text, sizeof text, "%s%02d %s", kBase, 10 + d, time);
  return text;
}

// A window: its query parameters and the same bounds as SQL on d.start_utc / d.end_utc.
struct Window {
  std::string query;
  std::string sql;
};

std::vector<Window> windows() {
  const auto z = [](int d, const char* time) { return day(d, time); };
  const auto iso = [](int d, const char* time) {
    std::string t = day(d, time);
    t[10] = 'T';
    return t + "Z";
  };
  return {
      {"strict_dates=true&start_date=" + iso(0, "00:00:00") + "&end_date=" + iso(5, "23:59:59"),
       "d.start_utc >= '" + z(0, "00:00:00") + "' AND d.end_utc <= '" + z(5, "23:59:59") + "'"},
      {"strict_dates=true&start_date=" + iso(0, "10:30:00") + "&end_date=" + iso(3, "12:00:00"),
       "d.start_utc >= '" + z(0, "10:30:00") + "' AND d.end_utc <= '" + z(3, "12:00:00") + "'"},
      {"strict_dates=true&starts_after=" + iso(0, "09:00:00") + "&ends_before=" + iso(3, "20:00:00"),
       "d.start_utc > '" + z(0, "09:00:00") + "' AND d.end_utc < '" + z(3, "20:00:00") + "'"},
      {"strict_dates=true&ends_after=" + iso(1, "00:30:00"), "d.end_utc > '" + z(1, "00:30:00") + "'"},
      {"strict_dates=true&starts_before=" + iso(2, "00:00:00") + "&ends_after=" + iso(0, "12:00:00"),
       "d.start_utc < '" + z(2, "00:00:00") + "' AND d.end_utc > '" + z(0, "12:00:00") + "'"},
      {"strict_dates=true&ends_before=" + iso(4, "00:00:00") + "&starts_after=" + iso(-9, "00:00:00"),
       "d.end_utc < '" + z(4, "00:00:00") + "' AND d.start_utc > '" + z(-9, "00:00:00") + "'"},
      // Not strict: whole days of the site's zone (UTC in the test stack).
      {"start_date=" + enc(day(1, "15:00")) + "&end_date=" + enc(day(4, "08:00")),
       "d.start_utc >= '" + z(1, "00:00:00") + "' AND d.end_utc <= '" + z(4, "23:59:59") + "'"},
      {"starts_after=" + enc(day(0, "12:00")) + "&ends_before=" + day(6, "").substr(0, 10),
       "d.start_utc > '" + z(0, "23:59:59") + "' AND d.end_utc < '" + z(6, "00:00:00") + "'"},
  };
}

// A caller and what it sees, as a condition on the effective status of posts p.
struct Role {
  std::string name;
  std::vector<std::string> headers;
  std::string param;  // "&status=..." or ""
  std::string visible;
};

const std::string kEffective =
    "IF(p.status = 'future' AND p.date_utc <= UTC_TIMESTAMP(), 'publish', p.status)";

std::vector<Role> roles(const std::string& editor, const std::string& author, const std::string& author_id) {
  return {
      {"author",
       {author},
       "",
       "p.status <> 'trash' AND (" + kEffective + " = 'publish' OR p.author = " + author_id + ")"},
      {"author draft,future",
       {author},
       "&status=draft,future",
       kEffective + " IN ('draft', 'future') AND p.author = " + author_id},
      {"author publish,draft",
       {author},
       "&status=publish,draft",
       kEffective + " IN ('publish', 'draft') AND (" + kEffective +
           " = 'publish' OR p.author = " + author_id + ")"},
      {"visitor", {}, "", kEffective + " = 'publish'"},
      {"visitor featured", {}, "&featured=true", kEffective + " = 'publish' AND d.featured = 1"},
      {"editor", {editor}, "", "p.status <> 'trash'"},
      {"editor not featured", {editor}, "&featured=false", "p.status <> 'trash' AND d.featured = 0"},
      {"admin publish", {admin()}, "&status=publish", kEffective + " = 'publish'"},
      {"admin future", {admin()}, "&status=future", kEffective + " = 'future'"},
      {"admin draft,pending", {admin()}, "&status=draft,pending", kEffective + " IN ('draft', 'pending')"},
      {"admin future,trash", {admin()}, "&status=future,trash", kEffective + " IN ('future', 'trash')"},
      {"admin all", {admin()}, "&status=publish,future,draft,pending,private,trash", "1 = 1"},
  };
}

// A filter beyond visibility and the window: its query parameters and the same as SQL on p / d.
struct Filter {
  std::string query;
  std::string sql;
};

std::string brute_where(const Window& w, const Role& r, const Filter& f) {
  return " FROM posts p JOIN event_details d ON d.event_id = p.id WHERE p.type = 'event' AND "
         "d.hide_from_listings = 0 AND " +
         r.visible + " AND " + w.sql + " AND " + f.sql;
}

std::vector<long long> split_ids(const std::string& text) {
  std::vector<long long> out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t nl = text.find('\n', at);
    out.push_back(std::stoll(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at)));
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return out;
}

// The callers of check_all().
struct Callers {
  std::string editor, author, author_id;
};

// Every window for every role and filter (the others than the first with the first three windows
// only): total (body and X-WP-Total) and two pages as the brute force says.
void check_all(const Callers& c, const std::vector<Filter>& filters, const std::string& when) {
  const std::vector<Window> all = windows();
  for (const Filter& f : filters) {
    // Each filter matches some events in the first window (else its checks could not fail).
    CHECK_MESSAGE(
        sql("SELECT COUNT(*)" + brute_where(all[0], roles(c.editor, c.author, c.author_id)[5], f)) != "0",
        f.query);
    for (size_t i = 0; i < (&f == &filters.front() ? all.size() : 3); ++i)
      for (const Role& r : roles(c.editor, c.author, c.author_id)) {
        const Window& w = all[i];
        const std::string where = brute_where(w, r, f);
        const long long expected = std::stoll(sql("SELECT COUNT(*)" + where));
        const std::string context = when + ": " + r.name + " ?" + w.query + f.query;
        for (const auto& [per_page, page] : {std::pair{50, 1}, std::pair{3, 2}}) {
          const HttpResponse resp =
              get(std::string(kEvents) + "?" + w.query + f.query + r.param +
                      "&per_page=" + std::to_string(per_page) + "&page=" + std::to_string(page),
                  r.headers);
          if (resp.status == 404 && page > 1) {  // a page past the end
            CHECK_MESSAGE(expected <= (page - 1) * per_page, context);
            continue;
          }
          REQUIRE_MESSAGE(resp.status == 200, context, " ", describe(resp));
          const auto body = resp.json();
          CHECK_MESSAGE(int_at(body, {"total"}) == expected, context);
          CHECK_MESSAGE(resp.header("x-wp-total") == std::to_string(expected), context);
          const std::vector<long long> ids =
              split_ids(sql("SELECT p.id" + where + " ORDER BY d.start_utc, p.id LIMIT " +
                            std::to_string(per_page) + " OFFSET " + std::to_string((page - 1) * per_page)));
          CHECK_MESSAGE(ids_in(body) == ids, context, " page ", page);
        }
      }
  }
}

TEST_CASE("the list engine's totals and pages equal a brute-force count, before and after writes") {
  const std::string w = unique("eng");
  const std::string editor = bearer(create_user("enged", "editor"));
  std::string author_login;
  const std::string author = bearer(create_user("engau", "author", &author_login));
  const Callers callers{editor, author, sql("SELECT id FROM users WHERE login = '" + author_login + "'")};
  const std::string utc = "\"timezone\":\"UTC\"";
  // The link filters: two categories, a tag, two venues, an organizer, and a search word.
  const std::string cat_a = made("/cal/events/v1/categories", "{\"name\":\"" + w + " a\"}");
  const std::string cat_b = made("/cal/events/v1/categories", "{\"name\":\"" + w + " b\"}");
  const std::string tag = made("/cal/events/v1/tags", "{\"name\":\"" + w + " t\"}");
  const std::string venue = made("/cal/events/v1/venues", "{\"venue\":\"" + w + " v\"}");
  const std::string venue2 = made("/cal/events/v1/venues", "{\"venue\":\"" + w + " v2\"}");
  const std::string organizer = made("/cal/events/v1/organizers", "{\"organizer\":\"" + w + " o\"}");
  const std::string word = w + "jazz";
  const auto linked = [](const char* table, const char* key, const std::string& ids) {
    return std::string("EXISTS (SELECT 1 FROM ") + table + " x WHERE x.event_id = p.id AND x." + key +
           " IN (" + ids + "))";
  };
  const std::string has_word =
      "(p.title LIKE '%" + word + "%' OR p.content LIKE '%" + word + "%' OR p.excerpt LIKE '%" + word + "%')";
  const std::vector<Filter> filters = {
      {"", "1 = 1"},
      {"&categories=" + cat_a, linked("term_relationships", "term_id", cat_a)},
      {"&categories=" + cat_a + "," + cat_b, linked("term_relationships", "term_id", cat_a + "," + cat_b)},
      {"&tags=" + tag, linked("term_relationships", "term_id", tag)},
      {"&venue=" + venue, linked("event_venues", "venue_id", venue)},
      {"&venue=" + venue + "," + venue2, linked("event_venues", "venue_id", venue + "," + venue2)},
      {"&organizer=" + organizer, linked("event_organizers", "organizer_id", organizer)},
      {"&categories=" + cat_a + "&tags=" + tag, linked("term_relationships", "term_id", cat_a) + " AND " +
                                                    linked("term_relationships", "term_id", tag)},
      {"&search=" + word, has_word},
      {"&categories=" + cat_a + "&search=" + word,
       linked("term_relationships", "term_id", cat_a) + " AND " + has_word},
      {"&venue=" + venue + "&search=-" + word,
       linked("event_venues", "venue_id", venue) + " AND NOT " + has_word},
      // The driver's rows tested for the other link filters on their event ids alone: one id by a
      // join, several by EXISTS.
      {"&venue=" + venue + "&organizer=" + organizer + "&tags=" + tag,
       linked("event_venues", "venue_id", venue) + " AND " +
           linked("event_organizers", "organizer_id", organizer) + " AND " +
           linked("term_relationships", "term_id", tag)},
      {"&organizer=" + organizer + "&categories=" + cat_a + "," + cat_b + "&search=" + word,
       linked("event_organizers", "organizer_id", organizer) + " AND " +
           linked("term_relationships", "term_id", cat_a + "," + cat_b) + " AND " + has_word},
  };
  // Events carry the links in turn (every third one none), some the search word.
  int n = 0;
  auto make = [&](const std::string& title, int d1, const char* t1, int d2, const char* t2,
                  const std::string& extra = "", const std::string& auth = admin()) {
    ++n;
    std::string links;
    if (n % 3 != 0) links += ",\"categories\":[" + (n % 2 ? cat_a : cat_a + "," + cat_b) + "]";
    if (n % 4 < 2) links += ",\"tags\":[" + tag + "]";
    if (auth == admin() && n % 3 != 1) links += ",\"venue\":" + (n % 5 ? venue : venue2);
    if (auth == admin() && n % 2 == 0) links += ",\"organizer\":[" + organizer + "]";
    if (n % 3 == 2) links += ",\"description\":\"with " + word + "\"";
    return create_id(w + " " + title, day(d1, t1), day(d2, t2),
                     utc + links + (extra.empty() ? "" : "," + extra), auth);
  };
  const long long plain = make("plain", 0, "10:00:00", 0, "11:00:00");
  const long long midnight = make("midnight", 0, "23:30:00", 1, "01:00:00");
  const long long multi = make("multi", 1, "00:00:00", 3, "18:00:00");
  make("draft", 2, "09:00:00", 2, "10:00:00", "\"status\":\"draft\"");
  make("pending", 2, "09:00:00", 2, "10:00:00", "\"status\":\"pending\"");
  make("private", 3, "09:00:00", 3, "10:00:00", "\"status\":\"private\"");
  const long long scheduled =
      make("scheduled", 2, "12:00:00", 2, "13:00:00", "\"status\":\"publish\",\"date\":\"+1 year\"");
  const long long trashed = make("trashed", 4, "09:00:00", 4, "10:00:00");
  REQUIRE(del(path_of(trashed), {admin()}).status == 200);
  const long long hidden = make("hidden", 2, "09:00:00", 2, "10:00:00", "\"hide_from_listings\":true");
  const long long featured = make("featured", 4, "12:00:00", 4, "14:00:00", "\"featured\":true");
  // Longer than any other event: the end bounds must look this far back.
  const long long long_one = make("long", -5, "08:00:00", 8, "20:00:00");
  for (int i = 0; i < 6; ++i) make("filler " + std::to_string(i), i % 6, "10:00:00", i % 6, "10:30:00");
  // The author's own: a draft, a published one and a scheduled one.
  const long long own_draft = make("own draft", 1, "09:00:00", 1, "10:00:00", "\"status\":\"draft\"", author);
  make("own published", 2, "11:00:00", 2, "12:00:00", "\"status\":\"publish\"", author);
  make("own scheduled", 3, "11:00:00", 3, "12:00:00", "\"status\":\"publish\",\"date\":\"+1 year\"", author);
  CHECK(engine::derived_data_mismatch() == "");
  check_all(callers, filters, "created");
  // Due in four seconds: counted and listed for visitors once its date passes, with no write.
  const Window first = windows().front();
  const auto visitors = [&] {
    return int_at(get(std::string(kEvents) + "?" + first.query).json(), {"total"});
  };
  const long long before = visitors();
  const long long soon =
      make("soon", 5, "09:00:00", 5, "10:00:00", "\"status\":\"publish\",\"date_utc\":\"+4 seconds\"");
  CHECK(visitors() == before);
  std::this_thread::sleep_for(std::chrono::seconds(5));
  CHECK(visitors() == before + 1);
  check_all(callers, filters, "scheduled one due");
  CHECK(sql("SELECT status FROM posts WHERE id = " + std::to_string(soon)) == "future");

  // Writes move events between days, statuses, hidden and featured; trash and delete.
  auto update = [&](long long id, const std::string& json) {
    const HttpResponse r = post_json(path_of(id), json, {admin()});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
  };
  update(plain,
         "{\"start_date\":\"" + day(3, "22:00:00") + "\",\"end_date\":\"" + day(4, "02:00:00") + "\"}");
  update(midnight, "{\"status\":\"draft\"}");
  update(multi, "{\"featured\":true}");
  update(hidden, "{\"hide_from_listings\":false}");
  update(featured, "{\"hide_from_listings\":true}");
  update(scheduled, "{\"status\":\"pending\"}");
  update(long_one, "{\"end_date\":\"" + day(20, "20:00:00") + "\"}");
  // Links moved between terms, venues and organizers; the author's draft trashed.
  update(multi, "{\"categories\":[" + cat_b + "],\"venue\":" + venue2 + ",\"organizer\":[]}");
  update(plain, "{\"categories\":[" + cat_a + "],\"tags\":[],\"venue\":" + venue + ",\"organizer\":[" +
                    organizer + "]}");
  update(midnight, "{\"tags\":[" + tag + "]}");
  REQUIRE(del(path_of(own_draft), {admin()}).status == 200);
  REQUIRE(del(path_of(soon), {admin()}).status == 200);
  REQUIRE(del(path_of(trashed) + "?force=true", {admin()}).status == 200);
  REQUIRE(del(path_of(featured) + "?force=true", {admin()}).status == 200);
  CHECK(engine::derived_data_mismatch() == "");
  check_all(callers, filters, "after writes");
}

TEST_CASE("hand-written SQL: link rows copy the event's details, or its post's status before it has any") {
  // The BEFORE INSERT copies of the link tables read post and details in one SELECT; a link
  // written before the details (SQL in that order) takes the post's status and the defaults,
  // and the details' insert then copies itself into it.
  const std::string rows = sql(
      "INSERT INTO posts (type, status, title, content, excerpt, slug, date_local, date_utc, modified_local, "
      "modified_utc) VALUES ('event', 'pending', 'Hand linked', '', '', CONCAT('hand-linked-', "
      "UUID_SHORT()), "
      "'2033-01-01 00:00:00', '2033-01-01 00:00:00', '2033-01-01 00:00:00', '2033-01-01 00:00:00'); "
      "SET @e = LAST_INSERT_ID(); "
      "INSERT INTO term_relationships (event_id, term_id) SELECT @e, MIN(id) FROM terms; "
      "SELECT status, hide_from_listings, start_utc, end_utc FROM term_relationships WHERE event_id = @e; "
      "INSERT INTO event_details (event_id, start_local, end_local, start_utc, end_utc, timezone, "
      "hide_from_listings) VALUES (@e, '2033-02-01 10:00:00', '2033-02-01 11:00:00', '2033-02-01 10:00:00', "
      "'2033-02-01 11:00:00', 'UTC', 1); "
      "SELECT status, hide_from_listings, start_utc, end_utc FROM term_relationships WHERE event_id = @e; "
      "INSERT INTO event_venues (event_id, venue_id) SELECT @e, MIN(id) FROM posts WHERE type = 'venue'; "
      "SELECT status, hide_from_listings, start_utc, end_utc FROM event_venues WHERE event_id = @e; "
      "SELECT status, author, publish_utc FROM event_details WHERE event_id = @e; "
      "DELETE FROM posts WHERE id = @e");
  CHECK(rows ==
        "pending\t0\t1970-01-01 00:00:00\t1970-01-01 00:00:00\n"
        "pending\t1\t2033-02-01 10:00:00\t2033-02-01 11:00:00\n"
        "pending\t1\t2033-02-01 10:00:00\t2033-02-01 11:00:00\n"
        "pending\t0\t2033-01-01 00:00:00");
  CHECK(engine::derived_data_mismatch() == "");
}

TEST_CASE("the default list window is counted exactly by the engine") {
  // Whatever other tests left: the default window (start >= yesterday 00:00, end <= today + 24
  // months 23:59:59, site zone UTC here) for visitors and the administrator. "+24 months" rolls
  // over like PHP's (2028-02-29 + 24 months = 2030-03-01), not clamped like MariaDB's INTERVAL:
  // the first of the month moves 24 months, then the day is added back.
  const std::string first_of_month = "(UTC_DATE() - INTERVAL DAYOFMONTH(UTC_DATE()) - 1 DAY)";
  const std::string window =
      "d.start_utc >= UTC_DATE() - INTERVAL 1 DAY AND d.end_utc <= " + first_of_month +
      " + INTERVAL 24 MONTH + INTERVAL DAYOFMONTH(UTC_DATE()) - 1 DAY + INTERVAL 86399 SECOND";
  const long long visitors =
      std::stoll(sql("SELECT COUNT(*) FROM posts p JOIN event_details d ON d.event_id = p.id "
                     "WHERE p.type = 'event' AND d.hide_from_listings = 0 AND " +
                     kEffective + " = 'publish' AND " + window));
  const HttpResponse r = get(std::string(kEvents));
  REQUIRE(r.status == 200);
  CHECK(int_at(r.json(), {"total"}) == visitors);
  const long long all =
      std::stoll(sql("SELECT COUNT(*) FROM posts p JOIN event_details d ON d.event_id = p.id "
                     "WHERE p.type = 'event' AND d.hide_from_listings = 0 AND p.status <> 'trash' AND " +
                     window));
  const HttpResponse a = get(std::string(kEvents), {admin()});
  REQUIRE(a.status == 200);
  CHECK(int_at(a.json(), {"total"}) == all);
  CHECK(engine::derived_data_mismatch() == "");
}

TEST_CASE("a list of several link filters tests the others on the driving links' event ids") {
  const std::string w = unique("onids");
  const std::string cat_a = made("/cal/events/v1/categories", "{\"name\":\"" + w + " a\"}");
  const std::string cat_b = made("/cal/events/v1/categories", "{\"name\":\"" + w + " b\"}");
  const std::string tag = made("/cal/events/v1/tags", "{\"name\":\"" + w + " t\"}");
  const std::string venue = made("/cal/events/v1/venues", "{\"venue\":\"" + w + " v\"}");
  for (int i = 0; i < 6; ++i)
    create_id(w + " " + std::to_string(i), "2034-03-0" + std::to_string(1 + i) + " 10:00:00",
              "2034-03-0" + std::to_string(1 + i) + " 11:00:00",
              "\"timezone\":\"UTC\",\"venue\":" + venue + ",\"categories\":[" + (i % 2 ? cat_a : cat_b) +
                  "]" + (i % 3 ? ",\"tags\":[" + tag + "]" : ""));
  const std::string window = "&start_date=2034-03-01&end_date=2034-03-31";
  // The statements reading the driver's rows (count and page); none may join the events' rows.
  const auto driven = [](const general_log::LoggedGet& got, const std::string& driver) {
    std::vector<std::string> found;
    for (const std::string& s : got.statements)
      if (s.find("FROM " + driver + " l FORCE INDEX") != std::string::npos) found.push_back(s);
    return found;
  };
  // A tag drives; the one category is a join on its link's key.
  const general_log::LoggedGet one =
      general_log::logged_get(std::string(kEvents) + "?tags=" + tag + "&categories=" + cat_a + window);
  REQUIRE_MESSAGE(one.response.status == 200, describe(one.response));
  CHECK(int_at(one.response.json(), {"total"}) == 2);
  const std::vector<std::string> by_tag = driven(one, "term_relationships");
  CHECK(by_tag.size() >= 2);
  CHECK(general_log::count_containing(by_tag, "STRAIGHT_JOIN term_relationships lj0 ON") ==
        (int)by_tag.size());
  CHECK(general_log::count_containing(by_tag, "JOIN posts p") == 0);
  // The venue drives; two categories are an EXISTS on their links, the tag a join.
  const general_log::LoggedGet two =
      general_log::logged_get(std::string(kEvents) + "?venue=" + venue + "&categories=" + cat_a + "," +
                              cat_b + "&tags=" + tag + window);
  REQUIRE_MESSAGE(two.response.status == 200, describe(two.response));
  CHECK(int_at(two.response.json(), {"total"}) == 4);
  const std::vector<std::string> by_venue = driven(two, "event_venues");
  CHECK(by_venue.size() >= 2);
  CHECK(general_log::count_containing(by_venue, "EXISTS (SELECT 1 FROM term_relationships lx") ==
        (int)by_venue.size());
  CHECK(general_log::count_containing(by_venue, "STRAIGHT_JOIN term_relationships lj0 ON") ==
        (int)by_venue.size());
  CHECK(general_log::count_containing(by_venue, "JOIN posts p") == 0);
}

// A category or tag alone is counted from term_day_counts (whole days) and the list index (the
// part-days at the window's ends), not by reading a link row per event, unless its last list over
// the same window counted few events: then from its links. A count the rollup alone is off by
// shows in the lists of many only.
TEST_CASE("a term's list with no other filter is counted from its day rollup unless it has few links") {
  const std::string w = unique("tdays");
  const auto category = [&](const std::string& name) {
    const HttpResponse made =
        post_json("/cal/events/v1/categories", "{\"name\":\"" + name + "\"}", {admin()});
    REQUIRE_MESSAGE(made.status == 201, describe(made));
    return std::to_string(id_of(made.json()));
  };
  const std::string many = category(w + " many"), few = category(w + " few");
  // 1,001 events of `many`, by hand; three of `few` through the API.
  sql("INSERT INTO posts (type, status, title, content, excerpt, slug, date_local, date_utc, modified_local, "
      "modified_utc) SELECT 'event', 'publish', '" +
      w + "', '', '', CONCAT('" + w +
      "-', seq), UTC_TIMESTAMP(), UTC_TIMESTAMP(), UTC_TIMESTAMP(), UTC_TIMESTAMP() FROM seq_1_to_1001");
  sql("INSERT INTO event_details (event_id, start_local, end_local, start_utc, end_utc, timezone) SELECT id, "
      "'2033-06-10 10:00:00', '2033-06-10 11:00:00', '2033-06-10 10:00:00', '2033-06-10 11:00:00', 'UTC' "
      "FROM posts WHERE type = 'event' AND title = '" +
      w + "'");
  sql("INSERT INTO term_relationships (event_id, term_id) SELECT id, " + many +
      " FROM posts WHERE type = 'event' AND title = '" + w + "'");
  for (const char* d : {"2033-06-10", "2033-06-10", "2033-06-12"})
    create_id(w + " api", std::string(d) + " 10:00:00", std::string(d) + " 11:00:00",
              "\"timezone\":\"UTC\",\"categories\":[" + few + "]");
  const auto total = [&](const std::string& term, const std::string& query) {
    const HttpResponse r = get(std::string(kEvents) + "?categories=" + term +
                               "&start_date=2033-06-01&end_date=2033-06-30" + query);
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    return int_at(r.json(), {"total"});
  };
  CHECK(total(many, "") == 1001);
  CHECK(total(few, "") == 3);
  // Few of `many`'s events in a narrower window: that window's lists count links, not June's.
  const HttpResponse narrow =
      get(std::string(kEvents) + "?categories=" + many + "&start_date=2033-06-11&end_date=2033-06-30");
  REQUIRE_MESSAGE(narrow.status == 200, describe(narrow));
  CHECK(int_at(narrow.json(), {"total"}) == 0);
  const auto tamper = [&](const std::string& term, int by) {
    sql("UPDATE term_day_counts SET events = events + (" + std::to_string(by) + ") WHERE term_id = " + term +
        " AND status = 'publish' AND day = '2033-06-10' LIMIT 1");
  };
  tamper(many, 1000);
  tamper(few, 1000);
  // Other queries than those answered (and cached) before.
  CHECK(total(many, "&per_page=7") == 2001);
  CHECK(total(few, "&per_page=7") == 3);
  CHECK(total(many, "&per_page=7&search=" + w) == 1001);  // another filter: counted from the rows
  tamper(many, -1000);
  tamper(few, -1000);
  CHECK(total(many, "&per_page=8") == 1001);
  CHECK(engine::derived_data_mismatch() == "");
  sql("DELETE FROM posts WHERE type = 'event' AND title = '" + w + "'");
  CHECK(engine::derived_data_mismatch() == "");
}

// The day rollup is sharded by connection (schema.sql): a writer whose transaction has added an
// event to a day does not make another connection's create on the same day wait for its commit.
// Without the shards both add to the same event_day_counts row and the second waits for the
// first's row lock (here: a lock wait timeout after 1 second).
TEST_CASE("creating events on the same day from two connections does not wait on the day rollup") {
  const char* dir = std::getenv("CAL_TEST_DIR");
  REQUIRE(dir != nullptr);
  const std::string w = unique("shard");
  const std::string client =
      "mariadb --no-defaults --socket='" + std::string(dir) + "/mysqld.sock' --user=root -N -B calendar";
  // One event on the test's day, 10:00-12:00 UTC, as the statements of one session.
  const auto create = [&](const std::string& slug) {
    return "INSERT INTO posts (type, status, title, content, excerpt, slug, date_local, date_utc, "
           "modified_local, modified_utc) VALUES ('event', 'publish', '" +
           w + "', '', '', '" + slug +
           "', UTC_TIMESTAMP(), UTC_TIMESTAMP(), UTC_TIMESTAMP(), UTC_TIMESTAMP()); "
           "INSERT INTO event_details (event_id, start_local, end_local, start_utc, end_utc, timezone) "
           "VALUES (LAST_INSERT_ID(), '2034-05-05 10:00:00', '2034-05-05 12:00:00', '2034-05-05 10:00:00', "
           "'2034-05-05 12:00:00', 'UTC');";
  };
  // Committed first, so the day and the duration exist (a new duration row would be a lock too).
  sql(create(w + "-first"));
  // Connection A: adds an event and keeps its transaction open for 8 seconds; the user lock tells
  // B which connection A is, once A's rows are written.
  const std::string a_script = "BEGIN; " + create(w + "-a") + " SELECT GET_LOCK('" + w +
                               "', 10); DO SLEEP(8); COMMIT; DO RELEASE_LOCK('" + w + "');";
  Run a;
  std::jthread a_session([&] { a = run(client + " -e \"" + a_script + "\" 2>&1"); });
  bool a_written = false;
  for (int i = 0; i < 50 && !a_written; ++i) {
    a_written = sql("SELECT IS_USED_LOCK('" + w + "') IS NOT NULL") == "1";
    if (!a_written) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(a_written);
  // Connection B (a new one per try until its shard differs from A's, as CONNECTION_ID() % 8 of
  // most concurrent writers does): adds an event on the same day while A's is uncommitted.
  std::string b_out;
  bool other_shard = false;
  for (int attempt = 0; attempt < 8 && a_written && !other_shard; ++attempt) {
    const std::string b_script = "SET SESSION innodb_lock_wait_timeout = 1; SELECT IF(IS_USED_LOCK('" + w +
                                 "') % 8 = CONNECTION_ID() % 8, 'same', 'other'); BEGIN; " +
                                 create(w + "-b" + std::to_string(attempt)) + " COMMIT; SELECT 'committed';";
    b_out = run(client + " --force -e \"" + b_script + "\" 2>&1").out;
    other_shard = b_out.rfind("other\n", 0) == 0;
  }
  CHECK(other_shard);
  CHECK_MESSAGE(b_out == "other\ncommitted\n", b_out);
  a_session.join();
  CHECK_MESSAGE(a.out == "1\n", a.out);
  CHECK(sql("SELECT SUM(events) FROM event_day_counts WHERE day = '2034-05-05'") ==
        sql("SELECT COUNT(*) FROM event_details WHERE DATE(start_utc) = '2034-05-05'"));
  CHECK(engine::derived_data_mismatch() == "");
  sql("DELETE FROM posts WHERE title = '" + w + "'");
  CHECK(engine::derived_data_mismatch() == "");
}

}  // namespace
}  // namespace caltest
