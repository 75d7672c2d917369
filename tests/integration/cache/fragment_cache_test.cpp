// The fragment cache (cal/cache/fragment_cache.h, cal/api/events/event_fragments.h): an event's
// record rendered for one answer is written again by other lists and single reads without reading
// its relations (two statements less, counted by X-Cal-Statements: its links, and the venues,
// organizers and terms they name, which are kept too and serve records rendered later). A list
// keeps each record's single-read rendering too, so that reading an event found in a list costs
// no statement. Never anything older than the last write: through the API, by hand in SQL
// (committed or rolled back), a term renamed under many events, a venue edited, a scheduled event
// coming due. Records are kept without their terms' records, which are written in when they are
// written out, so that a term's count changing with each event written in it drops none of them.
// Per host, per language, and password-protected records only to callers who may read them. Each
// list query here is one no earlier request asked, so the response cache cannot answer it: the
// records come from the fragments or are rendered anew.
#include "support/client.h"
#include "support/engine.h"
#include "support/events.h"

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace caltest {
namespace {

using namespace events;

long long statements(const HttpResponse& r) { return std::stoll(r.header("x-cal-statements")); }

std::string include_list(const std::vector<long long>& ids) {
  std::string query = std::string(kEvents) + "?include=";
  for (std::size_t i = 0; i < ids.size(); ++i) query += (i ? "," : "") + std::to_string(ids[i]);
  return query;
}

// The `events` array of a list answer as JSON text.
std::string records_of(const HttpResponse& r) {
  const std::string& body = r.body;
  const std::size_t start = body.find("[");
  const std::size_t end = body.rfind("]");
  REQUIRE(start != std::string::npos);
  return body.substr(start, end - start + 1);
}

// A list query no earlier request asked: `base` with a per_page of its own.
std::string fresh(const std::string& base) {
  static int per_page = 10;
  return base + "&per_page=" + std::to_string(++per_page % 90 + 10);
}

}  // namespace

TEST_CASE("fragments: a record rendered for one list is written again by another without its relations") {
  const std::string word = unique("frag");
  const std::string extra = "\"venue\":{\"venue\":\"V " + word + "\"},\"categories\":[\"C " + word +
                            "\"],\"organizer\":[{\"organizer\":\"O " + word + "\"}]";
  const long long a = create_id("A " + word, days_ahead(6, "10:00"), days_ahead(6, "11:00"), extra);
  const long long b = create_id("B " + word, days_ahead(6, "12:00"), days_ahead(6, "13:00"), extra);
  const long long c = create_id("C " + word, days_ahead(6, "14:00"), days_ahead(6, "15:00"), extra);
  // First sight of a and b: their links are read, then the venue, category and organizer they
  // name (kept too).
  const HttpResponse first = get(include_list({a, b}) + "&per_page=5");
  REQUIRE_MESSAGE(first.status == 200, describe(first));
  // Another query of the same records: written from their fragments, two statements less.
  const HttpResponse again = get(include_list({a, b}) + "&per_page=6");
  REQUIRE(again.status == 200);
  CHECK(statements(again) == statements(first) - 2);
  CHECK(records_of(again) == records_of(first));
  // c was never rendered: the links of c alone are read, what they name is kept already.
  const HttpResponse with_c = get(include_list({a, b, c}) + "&per_page=5");
  CHECK(statements(with_c) == statements(again) + 1);
  const HttpResponse all_kept = get(include_list({a, b, c}) + "&per_page=6");
  CHECK(statements(all_kept) == statements(again));
  CHECK(records_of(all_kept) == records_of(with_c));
  CHECK(array_size(all_kept.json(), {"events", "2", "organizer"}) == 1);
  CHECK(string_at(all_kept.json(), {"events", "2", "venue", "venue"}) == "V " + word);
  // A single read by id of an event a list rendered: its full record was kept beside the list's,
  // from the same rows, so no statement; the same bytes as a record rendered for the read (under
  // another host, which has records of its own: one statement).
  const HttpResponse single = get(path_of(a));
  REQUIRE(single.status == 200);
  CHECK(statements(single) == 0);
  const HttpResponse single_again = get(path_of(a) + "?context=view");
  CHECK(statements(single_again) == 0);
  CHECK(single_again.body == single.body);
  const HttpResponse rendered = get(path_of(a), {"Host: other.example"});
  REQUIRE(rendered.status == 200);
  CHECK(statements(rendered) == 1);
  // The same port, another host name: its name is all that differs.
  const std::string url = string_at(single.json(), {"rest_url"});
  const std::size_t host = url.find("//") + 2;
  const std::string name = url.substr(host, url.find_first_of(":/", host) - host);
  std::string as_here = rendered.body;
  for (std::size_t at; (at = as_here.find("other.example")) != std::string::npos;)
    as_here.replace(at, 13, name);
  CHECK(as_here == single.body);
  // A protected event's list record is masked: its single read renders its own.
  const long long locked = create_id("Locked " + word, days_ahead(6, "16:00"), days_ahead(6, "17:00"),
                                     "\"password\":\"pw-" + word + "\"");
  REQUIRE(get(include_list({locked}) + "&per_page=5").status == 200);
  const HttpResponse unlocked = get(path_of(locked) + "?password=pw-" + word);
  REQUIRE_MESSAGE(unlocked.status == 200, describe(unlocked));
  CHECK(statements(unlocked) == 1);
}

TEST_CASE("fragments: never older than a write through the API, to the event, its venue or its terms") {
  const std::string word = unique("fragw");
  const auto first =
      create(event_body("One " + word, days_ahead(6, "10:00"), days_ahead(6, "11:00"),
                        "\"venue\":{\"venue\":\"V " + word + "\"},\"categories\":[\"K " + word + "\"]"));
  const long long one = id_of(first);
  const std::string venue = std::to_string(int_at(first, {"venue", "id"}));
  const std::string category = std::to_string(int_at(first, {"categories", "0", "id"}));
  std::vector<long long> ids{one};
  for (int i = 0; i < 5; ++i)
    ids.push_back(create_id("More " + std::to_string(i) + " " + word, days_ahead(6, "12:00"),
                            days_ahead(6, "13:00"),
                            "\"venue\":" + venue + ",\"categories\":[" + category + "]"));
  // At the same venue and in the same category, first rendered after the write: from the venue
  // and category rows kept before it, unless the write dropped them.
  const long long unseen = create_id("Unseen " + word, days_ahead(6, "14:00"), days_ahead(6, "15:00"),
                                     "\"venue\":" + venue + ",\"categories\":[" + category + "]");
  const auto unseen_after = [&] { return get(fresh(include_list({unseen}))); };
  const std::string list = include_list(ids);
  REQUIRE(get(fresh(list)).status == 200);  // every record rendered and kept, with the venue and term
  REQUIRE(get(path_of(one)).status == 200);

  SUBCASE("the event edited") {
    REQUIRE(post_json(path_of(one), "{\"title\":\"Edited " + word + "\"}", {admin()}).status == 200);
    CHECK(string_at(get(fresh(list)).json(), {"events", "0", "title"}) == "Edited " + word);
    CHECK(string_at(get(path_of(one) + "?context=view").json(), {"title"}) == "Edited " + word);
  }
  SUBCASE("the venue edited: every event at it shows the new name") {
    const HttpResponse r =
        post_json("/cal/events/v1/venues/" + venue, "{\"venue\":\"W " + word + "\"}", {admin()});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    const HttpResponse after = get(fresh(list));
    for (std::size_t i = 0; i < ids.size(); ++i)
      CHECK(string_at(after.json(), {"events", std::to_string(i), "venue", "venue"}) == "W " + word);
    CHECK(string_at(get(path_of(one) + "?context=view").json(), {"venue", "venue"}) == "W " + word);
    CHECK(string_at(unseen_after().json(), {"events", "0", "venue", "venue"}) == "W " + word);
  }
  SUBCASE("the category renamed: every event carrying it shows the new name") {
    const HttpResponse r =
        post_json("/cal/events/v1/categories/" + category, "{\"name\":\"R " + word + "\"}", {admin()});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    const HttpResponse after = get(fresh(list));
    for (std::size_t i = 0; i < ids.size(); ++i)
      CHECK(string_at(after.json(), {"events", std::to_string(i), "categories", "0", "name"}) == "R " + word);
    CHECK(string_at(unseen_after().json(), {"events", "0", "categories", "0", "name"}) == "R " + word);
  }
  SUBCASE("a new event in the category: every event carrying it shows the new count") {
    create_id("Another " + word, days_ahead(7, "12:00"), days_ahead(7, "13:00"),
              "\"categories\":[" + category + "]");
    const HttpResponse after = get(fresh(list));
    for (std::size_t i = 0; i < ids.size(); ++i)
      CHECK(int_at(after.json(), {"events", std::to_string(i), "categories", "0", "count"}) == 8);
    CHECK(int_at(unseen_after().json(), {"events", "0", "categories", "0", "count"}) == 8);
  }
}

TEST_CASE("fragments: records stay kept when a term they show changes, and show its current record") {
  const std::string word = unique("fragsplice");
  const auto first = create(event_body("Two " + word, days_ahead(6, "10:00"), days_ahead(6, "11:00"),
                                       "\"categories\":[\"A " + word + "\",\"B " + word + "\"]"));
  const long long two = id_of(first);
  const std::string a = std::to_string(int_at(first, {"categories", "0", "id"}));
  const long long one =
      create_id("One " + word, days_ahead(6, "12:00"), days_ahead(6, "13:00"), "\"categories\":[" + a + "]");
  const std::string list = include_list({two, one});
  REQUIRE(get(fresh(list)).status == 200);
  REQUIRE(get(path_of(two)).status == 200);
  const HttpResponse kept = get(fresh(list));
  REQUIRE(kept.status == 200);
  const auto names = [](const HttpResponse& r, const std::string& event) {
    std::string out;
    for (int i = 0; i < array_size(r.json(), {"events", event, "categories"}); ++i)
      out += string_at(r.json(), {"events", event, "categories", std::to_string(i), "name"}) + ";";
    return out;
  };
  REQUIRE(names(kept, "0") == "A " + word + ";B " + word + ";");

  // A new event in A: both records written from their fragments, only A's row read again (a record
  // rendered anew would read its links too), and both show A's new count.
  create_id("Three " + word, days_ahead(7, "12:00"), days_ahead(7, "13:00"), "\"categories\":[" + a + "]");
  const HttpResponse counted = get(fresh(list));
  CHECK(statements(counted) == statements(kept) + 1);
  CHECK(int_at(counted.json(), {"events", "0", "categories", "0", "count"}) == 3);
  CHECK(int_at(counted.json(), {"events", "0", "categories", "1", "count"}) == 1);
  CHECK(int_at(counted.json(), {"events", "1", "categories", "0", "count"}) == 3);
  CHECK(int_at(get(path_of(two) + "?context=view").json(), {"categories", "0", "count"}) == 3);
  CHECK(statements(get(fresh(list))) == statements(kept));

  // A renamed past B: the kept record lists its terms in the new name order, as one rendered anew.
  const HttpResponse r =
      post_json("/cal/events/v1/categories/" + a, "{\"name\":\"C " + word + "\"}", {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  const HttpResponse renamed = get(fresh(list));
  CHECK(statements(renamed) == statements(kept) + 1);
  CHECK(names(renamed, "0") == "B " + word + ";C " + word + ";");
  CHECK(names(renamed, "1") == "C " + word + ";");
  const HttpResponse single = get(path_of(two) + "?context=view");
  CHECK(string_at(single.json(), {"categories", "0", "name"}) == "B " + word);
  CHECK(string_at(single.json(), {"categories", "1", "name"}) == "C " + word);
}

TEST_CASE("fragments: a scheduled event coming due is counted in the terms other events' records show") {
  const std::string word = unique("fragdue");
  const auto first = create(event_body("Shown " + word, days_ahead(6, "10:00"), days_ahead(6, "11:00"),
                                       "\"categories\":[\"D " + word + "\"]"));
  const std::string category = std::to_string(int_at(first, {"categories", "0", "id"}));
  const std::string list = include_list({id_of(first)});
  REQUIRE(int_at(get(fresh(list)).json(), {"events", "0", "categories", "0", "count"}) == 1);
  // Published with a publication date 3 seconds ahead: stored as `future`, not counted yet.
  const auto scheduled =
      create(event_body("Scheduled " + word, days_ahead(7, "10:00"), days_ahead(7, "11:00"),
                        "\"date\":\"+3 seconds\",\"categories\":[" + category + "]"));
  REQUIRE(string_at(scheduled, {"status"}) == "future");
  CHECK(int_at(get(fresh(list)).json(), {"events", "0", "categories", "0", "count"}) == 1);
  // Due: no write marks the change, yet the record kept before shows the new count.
  std::this_thread::sleep_for(std::chrono::milliseconds(4200));
  CHECK(int_at(get(fresh(list)).json(), {"events", "0", "categories", "0", "count"}) == 2);
  CHECK(int_at(get("/cal/events/v1/categories/" + category).json(), {"count"}) == 2);
}

TEST_CASE("fragments: a write by hand in SQL is seen once committed, never when rolled back") {
  const std::string word = unique("fragsql");
  const long long id = create_id("Hand " + word, days_ahead(6, "10:00"), days_ahead(6, "11:00"),
                                 "\"tags\":[\"T " + word + "\"]");
  const std::string list = include_list({id});
  REQUIRE(string_at(get(fresh(list)).json(), {"events", "0", "title"}) == "Hand " + word);
  REQUIRE(get(path_of(id)).status == 200);
  const std::string update =
      "UPDATE posts SET title = 'Edited " + word + "' WHERE id = " + std::to_string(id);
  engine::sql("START TRANSACTION; " + update + "; ROLLBACK;");
  CHECK(string_at(get(fresh(list)).json(), {"events", "0", "title"}) == "Hand " + word);
  engine::sql("START TRANSACTION; " + update + "; COMMIT;");
  CHECK(string_at(get(fresh(list)).json(), {"events", "0", "title"}) == "Edited " + word);
  CHECK(string_at(get(path_of(id) + "?context=view").json(), {"title"}) == "Edited " + word);
  // A tag renamed by hand: the event that carries it.
  const std::string tag =
      engine::sql("SELECT term_id FROM term_relationships WHERE event_id = " + std::to_string(id));
  engine::sql("UPDATE terms SET name = 'U " + word + "' WHERE id = " + tag);
  CHECK(string_at(get(fresh(list)).json(), {"events", "0", "tags", "0", "name"}) == "U " + word);
  CHECK(string_at(get(path_of(id) + "?context=view").json(), {"tags", "0", "name"}) == "U " + word);
}

TEST_CASE("fragments: each host and language has its own records") {
  const std::string word = unique("fraghost");
  const long long id = create_id("Host " + word, days_ahead(6, "10:00"), days_ahead(6, "11:00"));
  const std::string list = include_list({id});
  const HttpResponse here = get(fresh(list));
  REQUIRE(here.status == 200);
  const HttpResponse there = get(fresh(list), {"Host: other.example"});
  REQUIRE(there.status == 200);
  CHECK(string_at(there.json(), {"events", "0", "rest_url"}).find("//other.example") != std::string::npos);
  CHECK(string_at(here.json(), {"events", "0", "rest_url"}).find("//other.example") == std::string::npos);
  // A language's first list renders its records (the relation statement), its second reuses them.
  const HttpResponse german = get(fresh(list) + "&_locale=de_DE");
  const HttpResponse german_again = get(fresh(list) + "&_locale=de_DE");
  CHECK(statements(german_again) == statements(german) - 1);
  CHECK(records_of(german_again) == records_of(here));
}

TEST_CASE("fragments: a protected event's full record only for callers who may read it") {
  const std::string word = unique("fragpw");
  const long long id = create_id("Locked " + word, days_ahead(6, "10:00"), days_ahead(6, "11:00"),
                                 "\"description\":\"Secret " + word + "\",\"password\":\"pw-" + word + "\"");
  // The full record rendered for the caller with the password, and for the administrator.
  const HttpResponse unlocked = get(path_of(id) + "?password=pw-" + word);
  REQUIRE_MESSAGE(unlocked.status == 200, describe(unlocked));
  CHECK(string_at(unlocked.json(), {"description"}).find("Secret " + word) != std::string::npos);
  const HttpResponse editor = get(path_of(id) + "?context=edit", {admin()});
  REQUIRE(editor.status == 200);
  CHECK(string_at(editor.json(), {"description"}).find("Secret " + word) != std::string::npos);
  // Visitors without it, or with a wrong one, still get 403; lists still mask it, for everyone.
  CHECK(error_mismatch(get(path_of(id)), 403, "event-password-protected") == "");
  CHECK(error_mismatch(get(path_of(id) + "?context=view"), 403, "event-password-protected") == "");
  CHECK(error_mismatch(get(path_of(id) + "?password=wrong"), 403, "event-password-protected") == "");
  const std::string list = include_list({id});
  for (const std::vector<std::string>& headers : {std::vector<std::string>{}, {admin()}}) {
    const HttpResponse listed = get(fresh(list), headers);
    REQUIRE(listed.status == 200);
    CHECK(string_at(listed.json(), {"events", "0", "description"}).empty());
  }
  // The password changed: the old one opens nothing.
  REQUIRE(post_json(path_of(id), "{\"password\":\"new-" + word + "\"}", {admin()}).status == 200);
  CHECK(error_mismatch(get(path_of(id) + "?password=pw-" + word + "&context=view"), 403,
                       "event-password-protected") == "");
}

}  // namespace caltest
