// Integration tests of the role matrix (docs/api.md §7, §1.4, §5) on every event write route: create;
// update by id and by slug with POST, PUT and PATCH; delete and force delete by id and by slug;
// status rules on create and update; setting another author.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

struct Users {
  std::string editor, author, author2, contributor, contributor2, subscriber;
  long long author_id = 0, contributor_id = 0;
};

const Users& users() {
  static const Users u = [] {
    Users x;
    x.editor = bearer(create_user("red", "editor"));
    x.author = bearer(create_user("rau", "author"));
    x.author2 = bearer(create_user("rau2", "author"));
    x.contributor = bearer(create_user("rco", "contributor"));
    x.contributor2 = bearer(create_user("rco2", "contributor"));
    x.subscriber = bearer(create_user("rsu", "subscriber"));
    x.author_id =
        int_at(create(event_body(unique("who"), "+3 days 10:00", "+3 days 11:00"), x.author), {"author"});
    x.contributor_id = int_at(
        create(event_body(unique("who"), "+3 days 10:00", "+3 days 11:00"), x.contributor), {"author"});
    return x;
  }();
  return u;
}

// An event owned by `owner_auth` (admin creates it for another author when `author_id` > 0).
struct Target {
  long long id = 0;
  std::string slug;
};

Target make_target(const std::string& owner_auth, const std::string& status, long long author_id = 0) {
  std::string extra = "\"status\":\"" + status + "\"";
  if (author_id > 0) extra += ",\"author\":" + std::to_string(author_id);
  const rapidjson::Document e =
      create(event_body(unique("target"), "+3 days 10:00", "+3 days 11:00", extra), owner_auth);
  return {id_of(e), string_at(e, {"slug"})};
}

std::vector<std::string> auth_headers(const std::string& auth) {
  return auth.empty() ? std::vector<std::string>{} : std::vector<std::string>{auth};
}

TEST_CASE("create: visitors 401, subscribers 403, status rules per role") {
  const Users& u = users();
  const std::string body = event_body(unique("c"), "+3 days 10:00", "+3 days 11:00");
  CHECK(error_mismatch(post_json(kEvents, body), 401, "rest_forbidden") == "");
  CHECK(error_mismatch(post_json(kEvents, body, {u.subscriber}), 403, "rest_forbidden") == "");
  struct Case {
    const std::string* auth;
    const char* asked;  // status sent ("" = none)
    const char* stored;
  };
  const std::string admin_auth = admin();
  const Case kCases[] = {
      {&u.contributor, "", "draft"},
      {&u.contributor, "draft", "draft"},
      {&u.contributor, "pending", "pending"},
      {&u.contributor, "publish", "pending"},
      {&u.contributor, "future", "pending"},
      {&u.contributor, "private", "pending"},
      {&u.author, "", "publish"},
      {&u.author, "draft", "draft"},
      {&u.author, "publish", "publish"},
      {&u.author, "private", "private"},
      {&u.editor, "", "publish"},
      {&u.editor, "pending", "pending"},
      {&admin_auth, "", "publish"},
      {&admin_auth, "draft", "draft"},
  };
  for (const Case& c : kCases) {
    CAPTURE(c.asked);
    CAPTURE(c.stored);
    std::string extra = *c.asked ? std::string("\"status\":\"") + c.asked + "\"" : "";
    const rapidjson::Document e =
        create(event_body(unique("c"), "+3 days 10:00", "+3 days 11:00", extra), *c.auth);
    CHECK(string_at(e, {"status"}) == c.stored);
  }
  // publish with a future date is stored as future.
  const rapidjson::Document f = create(event_body(unique("c"), "+3 days 10:00", "+3 days 11:00",
                                                  "\"status\":\"publish\",\"date\":\"+2 years\""),
                                       u.author);
  CHECK(string_at(f, {"status"}) == "future");
}

TEST_CASE("create: setting another author needs editor rights") {
  const Users& u = users();
  const std::string extra = "\"author\":" + std::to_string(u.contributor_id);
  CHECK(error_mismatch(
            post_json(kEvents, event_body(unique("a"), "+3 days 10:00", "+3 days 11:00", extra), {u.author}),
            403, "rest_forbidden") == "");
  const rapidjson::Document e =
      create(event_body(unique("a"), "+3 days 10:00", "+3 days 11:00", extra), u.editor);
  CHECK(int_at(e, {"author"}) == u.contributor_id);
  // Naming oneself is fine for anyone.
  const rapidjson::Document self = create(
      event_body(unique("a"), "+3 days 10:00", "+3 days 11:00", "\"author\":" + std::to_string(u.author_id)),
      u.author);
  CHECK(int_at(self, {"author"}) == u.author_id);
}

TEST_CASE("update: the role matrix on every method, by id and by slug") {
  const Users& u = users();
  const std::string admin_auth = admin();
  const Target published_admin = make_target(admin_auth, "publish");
  const Target published_author = make_target(u.author, "publish");
  const Target draft_contributor = make_target(u.contributor, "draft");
  const Target published_contributor = make_target(admin_auth, "publish", u.contributor_id);
  struct Case {
    const char* who;
    const std::string* auth;  // nullptr: visitor
    const Target* target;
    long status;
  };
  const std::string none;
  const Case kCases[] = {
      {"visitor", &none, &published_admin, 401},
      {"visitor", &none, &draft_contributor, 401},
      {"subscriber", &u.subscriber, &published_admin, 403},
      {"subscriber", &u.subscriber, &draft_contributor, 403},
      {"contributor on admin's", &u.contributor, &published_admin, 403},
      {"contributor on author's", &u.contributor, &published_author, 403},
      {"contributor on own draft", &u.contributor, &draft_contributor, 200},
      {"contributor on own published", &u.contributor, &published_contributor, 403},
      {"other contributor on draft", &u.contributor2, &draft_contributor, 403},
      {"author on admin's", &u.author, &published_admin, 403},
      {"author on own", &u.author, &published_author, 200},
      {"author on contributor's draft", &u.author, &draft_contributor, 403},
      {"other author", &u.author2, &published_author, 403},
      {"editor on admin's", &u.editor, &published_admin, 200},
      {"editor on author's", &u.editor, &published_author, 200},
      {"editor on contributor's", &u.editor, &draft_contributor, 200},
      {"admin on author's", &admin_auth, &published_author, 200},
      {"admin on contributor's published", &admin_auth, &published_contributor, 200},
  };
  for (const Case& c : kCases) {
    for (const char* method : {"POST", "PUT", "PATCH"}) {
      for (const bool by_slug : {false, true}) {
        CAPTURE(c.who);
        CAPTURE(method);
        CAPTURE(by_slug);
        std::vector<std::string> headers = auth_headers(*c.auth);
        headers.push_back("Content-Type: application/json");
        const std::string path = by_slug ? slug_path(c.target->slug) : path_of(c.target->id);
        const HttpResponse r = request(method, path, R"({"excerpt":"touched"})", headers);
        if (c.status == 200) {
          CHECK_MESSAGE(r.status == 200, describe(r));
        } else {
          CHECK(error_mismatch(r, c.status, "rest_forbidden") == "");
        }
      }
    }
  }
  // A visitor never learns whether the event exists.
  CHECK(error_mismatch(post_json(path_of(999999999), "{}"), 401, "rest_forbidden") == "");
  CHECK(error_mismatch(post_json(slug_path(unique("none")), "{}"), 401, "rest_forbidden") == "");
}

TEST_CASE("update: publishing needs the right; contributors get pending") {
  const Users& u = users();
  const Target own = make_target(u.contributor, "draft");
  rapidjson::Document e = post_json(path_of(own.id), R"({"status":"publish"})", {u.contributor}).json();
  CHECK(string_at(e, {"status"}) == "pending");
  const Target author_draft = make_target(u.author, "draft");
  e = post_json(path_of(author_draft.id), R"({"status":"publish"})", {u.author}).json();
  CHECK(string_at(e, {"status"}) == "publish");
  // Once published, the contributor's event is out of their hands.
  const HttpResponse pub = post_json(path_of(own.id), R"({"status":"publish"})", {u.editor});
  CHECK(string_at(pub.json(), {"status"}) == "publish");
  CHECK(error_mismatch(post_json(path_of(own.id), R"({"title":"mine"})", {u.contributor}), 403,
                       "rest_forbidden") == "");
  // Changing the author of one's own event to someone else needs editor rights.
  CHECK(error_mismatch(post_json(path_of(author_draft.id),
                                 "{\"author\":" + std::to_string(u.contributor_id) + "}", {u.author}),
                       403, "rest_forbidden") == "");
}

TEST_CASE("delete and force delete: the role matrix, by id and by slug") {
  const Users& u = users();
  const std::string admin_auth = admin();
  const std::string none;
  struct Case {
    const char* who;
    const std::string* owner;  // who creates the target
    long long author_id;       // > 0: admin creates it for this author
    const char* status;
    const std::string* caller;
    bool force;
    long expected;
  };
  const Case kCases[] = {
      {"visitor", &admin_auth, 0, "publish", &none, false, 401},
      {"subscriber", &admin_auth, 0, "publish", &u.subscriber, false, 403},
      {"contributor own draft", &u.contributor, 0, "draft", &u.contributor, false, 200},
      {"contributor own published", &admin_auth, u.contributor_id, "publish", &u.contributor, false, 403},
      {"contributor other's draft", &u.contributor2, 0, "draft", &u.contributor, false, 403},
      {"contributor own draft, force", &u.contributor, 0, "draft", &u.contributor, true, 403},
      {"author own", &u.author, 0, "publish", &u.author, false, 200},
      {"author own, force", &u.author, 0, "publish", &u.author, true, 403},
      {"author other's", &admin_auth, 0, "publish", &u.author, false, 403},
      {"editor other's", &u.author, 0, "publish", &u.editor, false, 200},
      {"editor other's, force", &u.author, 0, "publish", &u.editor, true, 200},
      {"admin, force", &u.contributor, 0, "draft", &admin_auth, true, 200},
  };
  for (const Case& c : kCases) {
    for (const bool by_slug : {false, true}) {
      CAPTURE(c.who);
      CAPTURE(by_slug);
      const Target t = make_target(*c.owner, c.status, c.author_id);
      const std::string path = (by_slug ? slug_path(t.slug) : path_of(t.id)) + (c.force ? "?force=true" : "");
      const HttpResponse r = del(path, auth_headers(*c.caller));
      if (c.expected == 200) {
        REQUIRE_MESSAGE(r.status == 200, describe(r));
        const rapidjson::Document d = r.json();
        if (c.force) {
          CHECK(flag_at(d, {"deleted"}) == "true");
          CHECK(error_mismatch(get(path_of(t.id), {admin()}), 404, "rest-event-not-found") == "");
        } else {
          CHECK(string_at(d, {"status"}) == "trash");
        }
      } else {
        CHECK(error_mismatch(r, c.expected, "rest_forbidden") == "");
        // Nothing changed.
        CHECK(get(path_of(t.id) + "?context=edit", {admin()}).status == 200);
        CHECK(string_at(get(path_of(t.id), {admin()}).json(), {"status"}) == c.status);
      }
    }
  }
}

}  // namespace
}  // namespace caltest
