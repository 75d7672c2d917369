// The answer of an event's write is the record as stored (docs/api.md §5): byte for byte the
// record a GET of it returns right after, but for the single read's json_ld. A one-off event's
// write builds that answer from the values it wrote, without reading the event back
// (src/api/events/event_writes.cpp), so what MariaDB decides (the id, the slug made unique, the
// status of a scheduled post come due, the terms' counts) must come out the same: compared here
// for many kinds of bodies, creates and updates, by administrators and authors, with the response
// cache on (the main stack) and off (a stack of its own), and the write's statements counted in
// MariaDB's general log.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "ops/ops_stack.h"
#include "support/client.h"
#include "support/commands.h"
#include "support/engine.h"
#include "support/events.h"
#include "support/general_log.h"

namespace caltest {
namespace {

using namespace events;

// The stack a table of writes runs against.
struct Target {
  std::string api;    // the REST root, e.g. http://127.0.0.1:8080/api
  std::string admin;  // its administrator's Authorization header
  std::string ctl;    // a calendarctl command line for its database

  HttpResponse call(const std::string& method, const std::string& path, const std::string& body,
                    const std::string& auth) const {
    std::vector<std::string> headers{auth};
    if (!body.empty()) headers.push_back("Content-Type: application/json");
    return send({.url = api + path, .method = method, .body = body, .headers = headers});
  }

  // The Authorization header of a new user of `role` on this stack.
  std::string user(const std::string& role) const {
    const Run r = run(ctl + " user add " + unique("wa" + role) + " --role " + role);
    REQUIRE_MESSAGE(r.exit_code == 0, r.out);
    return bearer(r.out.substr(0, r.out.find('\n')));
  }
};

// The calendarctl binary of this test run (CAL_TEST_CTL's first word).
std::string calendarctl() {
  const std::string ctl = std::getenv("CAL_TEST_CTL") ? std::getenv("CAL_TEST_CTL") : "";
  return ctl.substr(0, ctl.find(' '));
}

// "" when `written`, a write's answer, is byte for byte the record that GET `path` by `auth`
// returns (the first GET computes it, the second may come from the caches), without its json_ld,
// the last member of a single read; else what differs.
std::string answer_mismatch(const Target& t, const HttpResponse& written, const std::string& path,
                            const std::string& auth) {
  if (written.body.size() < 2 || written.body.back() != '}') return "no record: " + describe(written);
  const std::string head = written.body.substr(0, written.body.size() - 1) + ",\"json_ld\":";
  for (const char* round : {"first GET", "second GET"}) {
    const HttpResponse read = t.call("GET", path, "", auth);
    if (read.status != 200) return std::string(round) + ": " + describe(read);
    if (read.body.compare(0, head.size(), head) != 0) {
      std::size_t at = 0;
      while (at < head.size() && at < read.body.size() && head[at] == read.body[at]) ++at;
      const std::size_t from = at > 80 ? at - 80 : 0;
      return std::string(round) + " differs at byte " + std::to_string(at) +
             ":\n  write: " + written.body.substr(from, 200) + "\n  GET:   " + read.body.substr(from, 200);
    }
  }
  return "";
}

// One write and what it is compared with: a create (POST /events with `body`), then, when
// `update` is set, that write of `update_body` to the created event.
struct WriteCase {
  const char* name;
  std::string body;                  // of the create
  std::string update = "";           // POST, PUT or PATCH; "" for none
  std::string update_body = "";      // of the update
  std::string author = "admin";      // whose writes: admin, author or contributor
  std::string read_query = "";       // the GET's query (a protected event's password)
  bool trash_before_update = false;  // DELETE the event between the create and the update
};

// Runs `cases` against `t`; `word` makes names and slugs of this run unique.
void check_writes(const Target& t, const std::string& word) {
  const auto made_on = [&](const std::string& collection, const std::string& body) {
    const HttpResponse r = t.call("POST", "/cal/events/v1/" + collection, body, t.admin);
    REQUIRE_MESSAGE(r.status == 201, describe(r));
    return std::to_string(id_of(r.json()));
  };
  const std::string venue =
      made_on("venues", "{\"venue\":" + quoted("WA hall " + word) + ",\"city\":\"Lyon\"}");
  const std::string org1 = made_on("organizers", "{\"organizer\":" + quoted("WA org1 " + word) + "}");
  const std::string org2 =
      made_on("organizers", "{\"organizer\":" + quoted("WA org2 " + word) + ",\"email\":\"o2@example.org\"}");
  const std::string category = made_on("categories", "{\"name\":" + quoted("WA cat " + word) + "}");
  const std::string taken = "wa-taken-" + word;
  const HttpResponse holder =
      t.call("POST", kEvents,
             event_body("Taken", "2031-03-01 10:00", "2031-03-01 11:00",
                        "\"slug\":" + quoted(taken) + ",\"image\":\"https://img.example/" + word + ".png\""),
             t.admin);
  REQUIRE_MESSAGE(holder.status == 201, describe(holder));
  const std::string image = std::to_string(int_at(holder.json(), {"image", "id"}));
  REQUIRE(image != "-1");
  const std::string every =
      "\"description\":\"<p>Hello <b>there</b><script>alert(1)</script></p>\",\"excerpt\":\"<em>short</em>\","
      "\"timezone\":\"America/New_York\",\"cost\":[\"0$\",\"20$\"],\"website\":\"https://ex.example/x\","
      "\"show_map\":false,\"show_map_link\":false,\"hide_from_listings\":true,\"sticky\":true,"
      "\"featured\":true,\"venue\":" +
      venue + ",\"organizer\":[" + org2 + "," + org1 + "," + org2 + "],\"categories\":[" + category + "," +
      quoted("WA new cat " + word) + "],\"tags\":" + quoted("wa tag a " + word + ", wa tag b " + word) +
      ",\"image\":\"https://img.example/every-" + word + ".jpg\",\"slug\":" + quoted("wa-every-" + word) +
      ",\"date\":\"2020-01-02 03:04:05\",\"status\":\"publish\"";
  const std::string linked = "\"venue\":" + venue + ",\"organizer\":[" + org1 + "],\"categories\":[" +
                             category + "],\"tags\":" + quoted("wa tag a " + word);
  const auto body = [&](const std::string& extra) {
    return event_body("WA " + word, "2031-03-05 10:00", "2031-03-05 12:30", extra);
  };
  const std::vector<WriteCase> cases = {
      {"no optional field", body("")},
      {"every field", body(every)},
      {"venue and organizers as objects",
       body("\"venue\":{\"venue\":" + quoted("WA inline hall " + word) +
            ",\"address\":\"1 Main St\",\"country\":\"France\"},\"organizer\":[{\"organizer\":" +
            quoted("WA inline org " + word) + ",\"phone\":\"+33 1\"},{\"id\":" + org1 + "}]")},
      {"new terms by name", body("\"categories\":" + quoted("wa c1 " + word + ",wa c2 " + word) +
                                 ",\"tags\":[" + quoted("wa t " + word) + "]")},
      {"scheduled",
       body("\"status\":\"publish\",\"date\":\"2039-01-01 08:00:00\",\"categories\":[" + category + "]")},
      {"all day", event_body("WA allday", "2031-03-05 10:00", "2031-03-07 11:00", "\"all_day\":true")},
      {"another zone, an instant", event_body("WA zone", "2031-03-05T10:00:00Z", "2031-03-05T13:00:00+02:00",
                                              "\"timezone\":\"Asia/Kolkata\"")},
      {"a UTC offset zone", body("\"timezone\":\"UTC+5:30\"")},
      {"a slug that collides", body("\"slug\":" + quoted(taken))},
      {"HTML from an administrator",
       body("\"description\":\"<div onclick=\\\"x()\\\">raw <i>é</i> ✓</div>\"")},
      {"an image by id", body("\"image\":" + image)},
      {"draft", body("\"status\":\"draft\"," + linked)},
      {"pending", body("\"status\":\"pending\"")},
      {"private", body("\"status\":\"private\"," + linked)},
      {"a cost as a number", body("\"cost\":12.5")},
      {"a password", body("\"password\":\"pw-" + word + "\""), "", "", "admin", "?password=pw-" + word},
      {"an author's write",
       body("\"description\":\"<p>ok<script>no()</script></p>\",\"status\":\"publish\"," + linked), "PATCH",
       "{\"excerpt\":\"<b>x</b><iframe></iframe>\",\"categories\":[" + category + "]}", "author"},
      {"a contributor's write", body("\"status\":\"publish\""), "POST", "{\"title\":\"WA contributed\"}",
       "contributor"},
      {"an update of the title alone", body(every), "PATCH", "{\"title\":\"WA renamed\"}"},
      {"an update of the categories alone", body(linked), "PUT",
       "{\"categories\":[" + quoted("wa put cat " + word) + "," + category + "]}"},
      {"an update of the tags and organizers alone", body(linked), "POST",
       "{\"tags\":[],\"organizer\":[" + org2 + "]}"},
      {"an update unlinking everything", body(every), "POST",
       "{\"venue\":0,\"organizer\":[],\"categories\":\"\",\"tags\":\"\",\"image\":null}"},
      {"a scheduled event moved into the past",
       body("\"status\":\"publish\",\"date\":\"2039-01-01 08:00\"," + linked), "PATCH",
       "{\"date\":\"2021-06-01 08:00:00\"}"},
      {"an update to a slug taken", body(""), "PATCH", "{\"slug\":" + quoted(taken) + "}"},
      {"an update of the time zone", body(linked), "PATCH", "{\"timezone\":\"Pacific/Auckland\"}"},
      {"an update to all day", body(""), "PATCH", "{\"all_day\":true,\"venue\":{\"id\":" + venue + "}}"},
      {"a restore from the trash", body(linked), "PATCH", "{\"status\":\"draft\"}", "admin", "", true},
  };
  const std::string author = t.user("author"), contributor = t.user("contributor");
  for (const WriteCase& c : cases) {
    const std::string name = c.name;
    CAPTURE(name);
    const std::string auth = c.author == "author"        ? author
                             : c.author == "contributor" ? contributor
                                                         : t.admin;
    const HttpResponse created = t.call("POST", kEvents, c.body, auth);
    REQUIRE_MESSAGE(created.status == 201, (describe(created) + " for " + c.body));
    const std::string path = path_of(id_of(created.json()));
    CHECK(created.header("location") == t.api + path);
    CHECK(answer_mismatch(t, created, path + c.read_query, auth) == "");
    if (c.update.empty()) continue;
    if (c.trash_before_update) REQUIRE(t.call("DELETE", path, "", auth).status == 200);
    const HttpResponse updated = t.call(c.update, path, c.update_body, auth);
    REQUIRE_MESSAGE(updated.status == 200, (describe(updated) + " for " + c.update_body));
    CHECK(answer_mismatch(t, updated, path + c.read_query, auth) == "");
  }
}

}  // namespace

TEST_CASE("a write's answer is the record a GET returns right after, response cache on") {
  const Target main{base_url(), admin(), std::getenv("CAL_TEST_CTL") ? std::getenv("CAL_TEST_CTL") : ""};
  check_writes(main, unique("wa"));
  // The read side's copies and counts agree with the rows the writes stored.
  CHECK(engine::derived_data_mismatch() == "");
}

TEST_CASE("a write's answer is the record a GET returns right after, response cache off") {
  OpsStack stack("writeanswer", "[server]\nresponse_cache = false\n");
  const Target off{stack.url(""), stack.admin(),
                   calendarctl() + " --config " + stack.dir() + "/calendar.conf"};
  check_writes(off, unique("wa"));
}

TEST_CASE("a one-off event's write reads none of it back: only what it links, by id") {
  const std::string word = unique("wastmt");
  const long long venue = made("/cal/events/v1/venues", "{\"venue\":" + quoted("WS hall " + word) + "}");
  const long long category = made("/cal/events/v1/categories", "{\"name\":" + quoted("WS cat " + word) + "}");
  general_log::on();
  const HttpResponse created = post_json(
      kEvents,
      event_body("WS " + word, "2031-04-01 10:00", "2031-04-01 11:00",
                 "\"venue\":" + std::to_string(venue) + ",\"categories\":[" + std::to_string(category) + "]"),
      {admin()});
  const HttpResponse updated = patch_json(path_of(created.status == 201 ? id_of(created.json()) : 0),
                                          "{\"title\":\"WS again\"}", {admin()});
  const std::vector<std::vector<std::string>> transactions = general_log::off();
  REQUIRE_MESSAGE(created.status == 201, describe(created));
  REQUIRE_MESSAGE(updated.status == 200, describe(updated));
  const auto creates = general_log::with(transactions, "INSERT INTO posts");
  const auto updates = general_log::with(transactions, "UPDATE posts");
  REQUIRE(creates.size() == 1);
  REQUIRE(updates.size() == 1);
  // How the service reads an event row (find_events, and the 'e' part of the relations statement
  // that read the written event back); the triggers' own joins are LEFT JOINs without the venue.
  const std::string event_read =
      "FROM posts p JOIN event_details d ON d.event_id = p.id LEFT JOIN event_venues ev";
  const std::vector<std::string>& create = creates[0];
  CHECK(general_log::count_containing(create, event_read) == 0);
  CHECK(general_log::count_containing(create, "SELECT 'e'") == 0);
  // The answer's one statement: the venue and the category by id, not the links the write set.
  CHECK(general_log::count_containing(create, "SELECT 'v'") == 1);
  CHECK(general_log::count_containing(create, "SELECT 't'") == 1);
  CHECK(general_log::count_containing(create, "SELECT 'l'") == 0);
  CHECK(general_log::count_containing(create, "SELECT 'r'") == 0);
  CHECK(general_log::count_containing(create, "SELECT 'o'") == 0);  // no organizer
  // The update reads the event once, locked, before it writes; the links it left alone are read
  // by the event's id for its answer.
  const std::vector<std::string>& update = updates[0];
  CHECK(general_log::count_containing(update, event_read) == 1);
  CHECK(general_log::count_containing(update, "SELECT 'e'") == 0);
  CHECK(general_log::count_containing(update, "SELECT 'l'") == 1);
  CHECK(general_log::count_containing(update, "SELECT 'r'") == 1);
  CHECK(string_at(updated.json(), {"venue", "venue"}) == "WS hall " + word);
  CHECK(int_at(updated.json(), {"categories", "0", "id"}) == category);
}

}  // namespace caltest
