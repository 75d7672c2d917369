// The response cache of calendar-fcgi (cal/cache/response_cache.h) never answers with
// something the service would not compute now: after writes through the API or straight into
// the database (which drop only the answers they change; one by hand is in every answer once the
// cache lease has passed), when a scheduled event comes due, when a
// relative date moves on; and it never mixes visitors' and authenticated answers, nor those of two
// authenticated callers. Also the term counts kept
// by triggers (schema.sql term_counts), whoever writes. Each check asks twice, so the answer under test is
// the one the cache would give.
#include "support/client.h"
#include "support/commands.h"
#include "support/events.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

namespace caltest {
namespace {

using namespace events;

// GETs `path` twice as a visitor (the second answer may come from the cache) and returns the
// second; both must agree.
HttpResponse twice(const std::string& path) {
  const HttpResponse first = get(path);
  const HttpResponse second = get(path);
  CHECK(first.status == second.status);
  CHECK(first.body == second.body);
  return second;
}

// Runs SQL in the stack's database through the mariadb client, as an administrator would, and
// waits out the cache lease (docs/api.md §12: a write by hand is seen within it); false when this
// stack cannot be reached that way (no CAL_TEST_DIR or no socket).
bool run_sql(const std::string& sql) {
  const char* dir = std::getenv("CAL_TEST_DIR");
  if (dir == nullptr) return false;
  const std::string socket = std::string(dir) + "/mysqld.sock";
  if (!std::ifstream(std::string(dir) + "/mysqld.pid")) return false;
  const std::string command =
      "mariadb --no-defaults --socket='" + socket + "' --user=root calendar -e \"" + sql + "\"";
  if (std::system(command.c_str()) != 0) return false;
  wait_out_lease();
  return true;
}

void sleep_until_next_seconds(int seconds) {
  const auto now = std::chrono::system_clock::now();
  const auto whole = std::chrono::time_point_cast<std::chrono::seconds>(now);
  std::this_thread::sleep_until(whole + std::chrono::seconds(seconds) + std::chrono::milliseconds(50));
}

}  // namespace

TEST_CASE("a write made straight in the database is seen by every visitor's GET once the lease has passed") {
  const std::string word = unique("sqlwrite");
  const long long id = create_id("Before " + word, "+5 days 10:00", "+5 days 11:00");
  CHECK(string_at(twice(path_of(id)).json(), {"title"}) == "Before " + word);
  CHECK(ids_in(twice(std::string(kEvents) + "?search=" + word).json()) == std::vector<long long>{id});
  REQUIRE_MESSAGE(run_sql("UPDATE posts SET title = 'After " + word + "' WHERE id = " + std::to_string(id)),
                  "no database access (scripts/run-tests.sh sets CAL_TEST_DIR)");
  CHECK(string_at(twice(path_of(id)).json(), {"title"}) == "After " + word);
  CHECK(string_at(twice(std::string(kEvents) + "?search=" + word).json(), {"events", "0", "title"}) ==
        "After " + word);
  // A link removed by hand: the event's answer loses its category at once.
  const long long with_term =
      create_id("Termed " + word, "+5 days 10:00", "+5 days 11:00", "\"categories\":[\"Cat " + word + "\"]");
  REQUIRE(array_size(twice(path_of(with_term)).json(), {"categories"}) == 1);
  REQUIRE(run_sql("DELETE FROM term_relationships WHERE event_id = " + std::to_string(with_term)));
  CHECK(array_size(twice(path_of(with_term)).json(), {"categories"}) == 0);
}

// X-Cal-Statements: 0 marks an answer that came from the cache (the stack runs with the header on).
bool from_cache(const std::string& path) { return get(path).header("x-cal-statements") == "0"; }

// A window with an end may reach past an infinite series' horizon: the check reads the clock, but
// the answer does not depend on it, so the list stays cached past the second it was computed in.
TEST_CASE("a list with an end date stays cached when the second changes") {
  const std::string word = unique("secondlater");
  create_id("Kept " + word, days_ahead(5, "10:00"), days_ahead(5, "11:00"));
  const std::string list =
      std::string(kEvents) + "?search=" + word + "&end_date=" + days_ahead(30, "00:00").substr(0, 10);
  get(list);
  REQUIRE(from_cache(list));
  sleep_until_next_seconds(1);
  CHECK(from_cache(list));
}

TEST_CASE("a write drops only the cached answers it changed, whoever writes") {
  const std::string word = unique("finer");
  const auto a = create(event_body("A " + word, days_ahead(5, "10:00"), days_ahead(5, "11:00"),
                                   "\"venue\":{\"venue\":\"V " + word + "\"},\"tags\":[\"T " + word + "\"]"));
  const long long a_id = id_of(a);
  const std::string venue = std::to_string(int_at(a, {"venue", "id"}));
  const std::string tag = std::to_string(int_at(a, {"tags", "0", "id"}));
  const long long b_id = create_id("B " + word, days_ahead(5, "12:00"), days_ahead(5, "13:00"));
  const std::string list = std::string(kEvents) + "?search=" + word;
  const std::string tags = "/cal/events/v1/tags?hide_empty=false&search=" + word;
  for (const std::string& path : {path_of(a_id), path_of(b_id), list, tags}) {
    get(path);
    REQUIRE_MESSAGE(from_cache(path), path);
  }
  SUBCASE("a new tag: the events' answers stay, the tag list is computed again") {
    const HttpResponse created =
        post_json("/cal/events/v1/tags", "{\"name\":\"New " + word + "\"}", {admin()});
    REQUIRE_MESSAGE(created.status == 201, describe(created));
    CHECK(from_cache(path_of(a_id)));
    CHECK(from_cache(path_of(b_id)));
    CHECK(array_size(get(tags).json(), {"tags"}) == 2);
  }
  SUBCASE("a venue renamed: the event at it and the event list change, the other event stays") {
    const HttpResponse renamed =
        post_json("/cal/events/v1/venues/" + venue, "{\"venue\":\"W " + word + "\"}", {admin()});
    REQUIRE_MESSAGE(renamed.status == 200, describe(renamed));
    CHECK(string_at(get(path_of(a_id)).json(), {"venue", "venue"}) == "W " + word);
    CHECK(string_at(get(list).json(), {"events", "0", "venue", "venue"}) == "W " + word);
    CHECK(from_cache(path_of(b_id)));
    CHECK(from_cache(tags));
  }
  SUBCASE("a tag renamed straight in the database: the event that carries it changes, the other stays") {
    REQUIRE_MESSAGE(run_sql("UPDATE terms SET name = 'U " + word + "' WHERE id = " + tag),
                    "no database access (scripts/run-tests.sh sets CAL_TEST_DIR)");
    CHECK(string_at(get(path_of(a_id)).json(), {"tags", "0", "name"}) == "U " + word);
    CHECK(string_at(get(tags).json(), {"tags", "0", "name"}) == "U " + word);
    CHECK(from_cache(path_of(b_id)));
  }
  SUBCASE("an event edited: its answer and the list change, the other event stays") {
    const HttpResponse edited = post_json(path_of(b_id), "{\"title\":\"C " + word + "\"}", {admin()});
    REQUIRE_MESSAGE(edited.status == 200, describe(edited));
    CHECK(string_at(get(path_of(b_id)).json(), {"title"}) == "C " + word);
    CHECK(string_at(get(list).json(), {"events", "1", "title"}) == "C " + word);
    CHECK(from_cache(path_of(a_id)));
  }
}

TEST_CASE("an image changed straight in the database is in the next answer of the event that shows it") {
  const std::string word = unique("imgsql");
  const auto record = create(event_body("Pictured " + word, days_ahead(5, "10:00"), days_ahead(5, "11:00"),
                                        "\"image\":\"https://img.example/" + word + ".jpg\""));
  const long long id = id_of(record);
  const std::string image = std::to_string(int_at(record, {"image", "id"}));
  CHECK(string_at(twice(path_of(id)).json(), {"image", "url"}) == "https://img.example/" + word + ".jpg");
  REQUIRE_MESSAGE(run_sql("UPDATE attachment_details SET url = 'https://img.example/" + word +
                          "-2.jpg' WHERE attachment_id = " + image),
                  "no database access (scripts/run-tests.sh sets CAL_TEST_DIR)");
  CHECK(string_at(twice(path_of(id)).json(), {"image", "url"}) == "https://img.example/" + word + "-2.jpg");
  CHECK(string_at(twice(std::string(kEvents) + "?search=" + word).json(), {"events", "0", "image", "url"}) ==
        "https://img.example/" + word + "-2.jpg");
}

TEST_CASE("a scheduled event appears in the list, by id and in its category's count as soon as it is due") {
  const std::string word = unique("due");
  // Published with a publication date 3 seconds ahead: stored as `future`, hidden from visitors.
  const auto record = create(event_body("Due " + word, "+6 days 10:00", "+6 days 11:00",
                                        "\"date\":\"+3 seconds\",\"categories\":[\"Due " + word + "\"]"));
  const long long id = id_of(record);
  REQUIRE(string_at(record, {"status"}) == "future");
  const long long category = int_at(record, {"categories", "0", "id"});
  REQUIRE(category > 0);
  const std::string term = "/cal/events/v1/categories/" + std::to_string(category);
  const std::string list = std::string(kEvents) + "?search=" + word;
  CHECK(ids_in(twice(list).json()).empty());
  CHECK(twice(path_of(id)).status == 403);
  CHECK(int_at(twice(term).json(), {"count"}) == 0);
  sleep_until_next_seconds(4);
  CHECK(ids_in(twice(list).json()) == std::vector<long long>{id});
  const HttpResponse now_public = twice(path_of(id));
  CHECK(now_public.status == 200);
  CHECK(string_at(now_public.json(), {"status"}) == "publish");
  CHECK(int_at(twice(term).json(), {"count"}) == 1);
}

TEST_CASE("a scheduled event moved into the past is counted at once where its category is shown") {
  const std::string word = unique("moved");
  const auto shown = create(event_body("Shown " + word, "+6 days 10:00", "+6 days 11:00",
                                       "\"categories\":[\"Moved " + word + "\"]"));
  const std::string category = std::to_string(int_at(shown, {"categories", "0", "id"}));
  const auto scheduled = create(event_body("Scheduled " + word, "+6 days 12:00", "+6 days 13:00",
                                           "\"date\":\"+1 day\",\"categories\":[" + category + "]"));
  REQUIRE(string_at(scheduled, {"status"}) == "future");
  const std::string term = "/cal/events/v1/categories/" + category;
  const std::string list = std::string(kEvents) + "?search=" + word;
  CHECK(int_at(twice(term).json(), {"count"}) == 1);
  CHECK(int_at(twice(list).json(), {"events", "0", "categories", "0", "count"}) == 1);
  // Still stored as `future`, its date now past: it reads as published, and no term is logged.
  const HttpResponse moved = post_json(path_of(id_of(scheduled)), "{\"date\":\"-1 hour\"}", {admin()});
  REQUIRE_MESSAGE(moved.status == 200, describe(moved));
  REQUIRE(string_at(moved.json(), {"status"}) == "publish");
  CHECK(int_at(twice(term).json(), {"count"}) == 2);
  const HttpResponse after = twice(list);
  REQUIRE(array_size(after.json(), {"events"}) == 2);
  CHECK(int_at(after.json(), {"events", "0", "categories", "0", "count"}) == 2);
  CHECK(int_at(after.json(), {"events", "1", "categories", "0", "count"}) == 2);
}

TEST_CASE("a category's count follows status changes and links made straight in the database") {
  const std::string word = unique("sqlcount");
  const auto record = create(event_body("Counted " + word, "+5 days 10:00", "+5 days 11:00",
                                        "\"categories\":[\"Count " + word + "\"]"));
  const long long id = id_of(record);
  const long long category = int_at(record, {"categories", "0", "id"});
  const std::string term = "/cal/events/v1/categories/" + std::to_string(category);
  CHECK(int_at(twice(term).json(), {"count"}) == 1);
  const std::string event = std::to_string(id), cat = std::to_string(category);
  REQUIRE_MESSAGE(run_sql("UPDATE posts SET status = 'draft' WHERE id = " + event),
                  "no database access (scripts/run-tests.sh sets CAL_TEST_DIR)");
  CHECK(int_at(twice(term).json(), {"count"}) == 0);
  REQUIRE(run_sql("UPDATE posts SET status = 'publish' WHERE id = " + event));
  CHECK(int_at(twice(term).json(), {"count"}) == 1);
  REQUIRE(run_sql("DELETE FROM term_relationships WHERE event_id = " + event));
  CHECK(int_at(twice(term).json(), {"count"}) == 0);
  REQUIRE(run_sql("INSERT INTO term_relationships (event_id, term_id) VALUES (" + event + ", " + cat + ")"));
  CHECK(int_at(twice(term).json(), {"count"}) == 1);
  REQUIRE(run_sql("DELETE FROM posts WHERE id = " + event));  // its links go by cascade
  CHECK(int_at(twice(term).json(), {"count"}) == 0);
}

TEST_CASE("a relative date filter is evaluated again as time passes") {
  const std::string word = unique("moving");
  // Starts 2 seconds from now: after "now" at first, not any more 3 seconds later.
  const long long id = create_id("Soon " + word, "+2 seconds", "+1 hour", "\"timezone\":\"UTC\"");
  const std::string list = std::string(kEvents) + "?search=" + word + "&starts_after=now&strict_dates=true";
  CHECK(ids_in(twice(list).json()) == std::vector<long long>{id});
  sleep_until_next_seconds(3);
  CHECK(ids_in(twice(list).json()).empty());
}

TEST_CASE("visitors never get an authenticated caller's answer, nor the reverse") {
  const std::string word = unique("private");
  const long long id = create_id("Draft " + word, "+5 days 10:00", "+5 days 11:00", "\"status\":\"draft\"");
  // The administrator sees the draft, as often as asked; the visitor, asking the same URLs, not.
  for (int i = 0; i < 2; ++i) {
    CHECK(get(path_of(id), {admin()}).status == 200);
    CHECK(list_ids("search=" + word + "&status=draft", {admin()}) == std::vector<long long>{id});
  }
  CHECK(twice(path_of(id)).status == 403);
  CHECK(twice(std::string(kEvents) + "?search=" + word).status == 200);
  CHECK(ids_in(twice(std::string(kEvents) + "?search=" + word).json()).empty());
  // And once published, the visitor sees it, the administrator too.
  REQUIRE(post_json(path_of(id), "{\"status\":\"publish\"}", {admin()}).status == 200);
  CHECK(twice(path_of(id)).status == 200);
  CHECK(get(path_of(id), {admin()}).header("cache-control") == "private, no-store");
}

// X-Cal-Statements: 1 marks an authenticated answer that came from the cache: only the
// application password was looked up.
bool from_cache_as(const HttpResponse& r) { return r.header("x-cal-statements") == "1"; }

TEST_CASE("an authenticated caller's answers come from the cache under its own key, never another's") {
  const std::string word = unique("keyed");
  const long long id = create_id("Draft " + word, "+5 days 10:00", "+5 days 11:00", "\"status\":\"draft\"");
  std::string editor_login;
  const std::string editor = bearer(create_user("keyed", "editor", &editor_login));
  const std::string contributor = bearer(create_user("keyed", "contributor"));
  const HttpResponse computed = get(path_of(id), {admin()});
  REQUIRE(computed.status == 200);
  CHECK_FALSE(from_cache_as(computed));
  const HttpResponse again = get(path_of(id), {admin()});
  CHECK(from_cache_as(again));
  CHECK(again.body == computed.body);
  CHECK(again.header("etag") == computed.header("etag"));
  CHECK(again.header("cache-control") == "private, no-store");
  CHECK(get(path_of(id), {admin(), "If-None-Match: " + computed.header("etag")}).status == 304);
  // The same URL for other callers: each its own answer, the second time from its own entry.
  for (int i = 0; i < 2; ++i) {
    CHECK(get(path_of(id), {editor}).status == 200);
    CHECK(get(path_of(id), {contributor}).status == 403);
    CHECK(get(path_of(id)).status == 403);
  }
  CHECK(from_cache_as(get(path_of(id), {editor})));
  // A role changed by hand is no write the cache sees; the role is part of the key.
  REQUIRE(run_sql("UPDATE users SET role = 'contributor' WHERE login = '" + editor_login + "'"));
  CHECK(get(path_of(id), {editor}).status == 403);
  // A write drops the administrator's entry like a visitor's.
  REQUIRE(post_json(path_of(id), "{\"title\":\"Edited " + word + "\"}", {admin()}).status == 200);
  const HttpResponse edited = get(path_of(id), {admin()});
  CHECK_FALSE(from_cache_as(edited));
  CHECK(string_at(edited.json(), {"title"}) == "Edited " + word);
}

TEST_CASE("an administrator polling GET /changes with one token gets the cached answer until a write") {
  const std::string word = unique("poll");
  const std::string changes = "/cal/events/v1/changes";
  const std::string token = string_at(get(changes, {admin()}).json(), {"next"});
  REQUIRE(!token.empty());
  const long long first = create_id("Poll " + word, "+5 days 10:00", "+5 days 11:00", "\"status\":\"draft\"");
  const std::string since = changes + "?since=" + token;
  const HttpResponse computed = get(since, {admin()});
  REQUIRE(computed.status == 200);
  const HttpResponse cached = get(since, {admin()});
  CHECK(from_cache_as(cached));
  CHECK(cached.body == computed.body);
  CHECK(computed.body.find("\"id\":" + std::to_string(first)) != std::string::npos);
  const long long second = create_id("Poll 2 " + word, "+5 days 10:00", "+5 days 11:00");
  const HttpResponse after = get(since, {admin()});
  CHECK_FALSE(from_cache_as(after));
  CHECK(after.body.find("\"id\":" + std::to_string(second)) != std::string::npos);
}

TEST_CASE("HEAD after GET: the same headers and ETag, no body") {
  const std::string word = unique("head");
  const long long id = create_id("Head " + word, "+5 days 10:00", "+5 days 11:00");
  const HttpResponse got = twice(path_of(id));
  REQUIRE(got.status == 200);
  const HttpResponse h = head(path_of(id));
  CHECK(h.status == 200);
  CHECK(h.body.empty());
  CHECK(h.header("etag") == got.header("etag"));
  CHECK(h.header("content-length") == std::to_string(got.body.size()));
}

}  // namespace caltest
