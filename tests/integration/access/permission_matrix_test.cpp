// The permission matrix of docs/api.md §7, exhaustively: every role (and the visitor) × every
// write route (create, update, trash by id and by slug for events, venues and organizers; create,
// update, delete for categories and tags) × own / other's records × published / unpublished,
// plus force delete, publishing and setting another author. The matrix below is docs/api.md §7's table
// written out; the code's own matrix (cal/api/permissions.h) is not consulted.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/events.h"

namespace caltest {
namespace {

using events::quoted;

// One row of docs/api.md §7 for write actions.
struct RoleRow {
  const char* role;  // "visitor" = no credentials
  bool create;       // create event/venue/organizer
  bool edit_own_unpublished;
  bool edit_own_published;
  bool edit_others;  // anyone's, published or not
  bool force_delete;
  bool set_other_author;
  const char* publish_own;  // the status a publish request on an own draft ends with; "" = 403
  bool manage_categories;
  bool manage_tags;
};

const RoleRow kMatrix[] = {
    {"administrator", true, true, true, true, true, true, "publish", true, true},
    {"editor", true, true, true, true, true, true, "publish", true, true},
    {"author", true, true, true, false, false, false, "publish", true, false},
    {"contributor", true, true, false, false, false, false, "pending", false, false},
    {"subscriber", false, false, false, false, false, false, "", false, false},
    {"visitor", false, false, false, false, false, false, "", false, false},
};

struct Resource {
  const char* collection;  // "/cal/events/v1/events"
  const char* name_field;  // "title", "venue", "organizer"
};

const Resource kResources[] = {
    {"/cal/events/v1/events", "title"},
    {"/cal/events/v1/venues", "venue"},
    {"/cal/events/v1/organizers", "organizer"},
};

// A caller: the Authorization header ("" for the visitor) and the user id (0 for the visitor).
struct Caller {
  std::string auth;
  long long id = 0;
};

std::vector<std::string> with_auth(const Caller& c, std::vector<std::string> headers = {}) {
  if (!c.auth.empty()) headers.push_back(c.auth);
  return headers;
}

// A record created by the admin for `author` with `status`; returns {id, slug}.
std::pair<long long, std::string> make_record(const Resource& r, long long author, const std::string& status,
                                              const std::string& name) {
  std::string body = "{" + quoted(r.name_field) + ":" + quoted(name) +
                     ",\"author\":" + std::to_string(author) + ",\"status\":" + quoted(status);
  if (std::string(r.name_field) == "title")
    body += R"(,"start_date":"2031-04-01 10:00","end_date":"2031-04-01 11:00")";
  body += "}";
  const HttpResponse resp = post_json(r.collection, body, {bearer(admin_token())});
  REQUIRE_MESSAGE(resp.status == 201, (describe(resp) + " for " + body));
  const rapidjson::Document doc = resp.json();
  return {events::id_of(doc), string_at(doc, {"slug"})};
}

// "" when `resp` is the answer docs/api.md §7 gives: `allowed` → `ok_status`, else 401 for the visitor
// and 403 for everyone else, both rest_forbidden.
std::string matrix_mismatch(const HttpResponse& resp, bool allowed, long ok_status, bool visitor) {
  if (allowed)
    return resp.status == ok_status ? "" : "expected " + std::to_string(ok_status) + ": " + describe(resp);
  return error_mismatch(resp, visitor ? 401 : 403, "rest_forbidden");
}

}  // namespace

TEST_CASE("docs/api.md §7: every role × every write route × own/other's × published or not × by id/by slug") {
  const std::string run = unique("matrix");
  // One user per role; "other's" records belong to a separate author.
  std::string login;
  create_user("owner", "author", &login);
  const long long other_user = user_id(login);
  std::map<std::string, Caller> callers;
  for (const RoleRow& row : kMatrix) {
    const std::string role = row.role;
    if (role == "visitor") {
      callers[role] = Caller{};
      continue;
    }
    const std::string password = create_user(role.substr(0, 5), role, &login);
    callers[role] = Caller{bearer(password), user_id(login)};
  }

  int checked = 0;
  for (const RoleRow& row : kMatrix) {
    const std::string role = row.role;
    const Caller& me = callers[role];
    const bool visitor = role == "visitor";
    for (const Resource& res : kResources) {
      CAPTURE(role);
      CAPTURE(res.collection);
      // Create.
      {
        std::string body = "{" + quoted(res.name_field) + ":" +
                           quoted("Created by " + role + " " + run + " " + res.name_field);
        if (std::string(res.name_field) == "title")
          body += R"(,"start_date":"2031-05-01 10:00","end_date":"2031-05-01 11:00")";
        body += "}";
        const HttpResponse r = post_json(res.collection, body, with_auth(me));
        CHECK(matrix_mismatch(r, row.create, 201, visitor) == "");
        if (r.status == 201)
          CHECK(string_at(r.json(), {"status"}) == (role == "contributor" ? "draft" : "publish"));
        ++checked;
      }
      // Updates and trash on four kinds of target, by id and by slug.
      struct Target {
        const char* what;
        bool own;
        const char* status;
      };
      const Target targets[] = {{"own draft", true, "draft"},
                                {"own published", true, "publish"},
                                {"other's draft", false, "draft"},
                                {"other's published", false, "publish"}};
      for (const Target& t : targets) {
        CAPTURE(t.what);
        if (t.own && visitor) continue;  // a visitor owns nothing
        // A subscriber owns records an editor assigned to it: it still may not edit them.
        const long long owner = t.own ? me.id : other_user;
        const bool allowed =
            t.own ? (std::string(t.status) == "draft" ? row.edit_own_unpublished : row.edit_own_published)
                  : row.edit_others;
        const std::string base = std::string(res.collection);
        const auto [uid, uslug] =
            make_record(res, owner, t.status, "Target " + role + " " + t.what + " " + run);
        const char* methods[] = {"PUT", "PATCH", "POST"};
        int m = 0;
        for (const std::string& path : {base + "/" + std::to_string(uid), base + "/by-slug/" + uslug}) {
          CAPTURE(path);
          const std::string title = "Renamed " + std::to_string(m) + " " + run;
          const HttpResponse r =
              request(methods[m++ % 3], path, "{" + quoted(res.name_field) + ":" + quoted(title) + "}",
                      with_auth(me, {"Content-Type: application/json"}));
          CHECK(matrix_mismatch(r, allowed, 200, visitor) == "");
          if (r.status == 200) CHECK(string_at(r.json(), {res.name_field}) == title);
          ++checked;
        }
        const long long did =
            make_record(res, owner, t.status, "Trash by id " + role + " " + t.what + " " + run).first;
        const std::string sslug =
            make_record(res, owner, t.status, "Trash by slug " + role + " " + t.what + " " + run).second;
        for (const std::string& path : {base + "/" + std::to_string(did), base + "/by-slug/" + sslug}) {
          CAPTURE(path);
          const HttpResponse r = del(path, with_auth(me));
          CHECK(matrix_mismatch(r, allowed, 200, visitor) == "");
          if (r.status == 200) CHECK(string_at(r.json(), {"status"}) == "trash");
          ++checked;
        }
      }
      // Force delete, another author and publishing, on a draft of the caller's own (other's
      // for the visitor, who owns nothing).
      const long long owner = visitor ? other_user : me.id;
      const bool may_edit = visitor ? false : row.edit_own_unpublished;
      {
        const auto [id, slug] = make_record(res, owner, "draft", "Force " + role + " " + run);
        bool deleted = false;
        for (const std::string& path :
             {std::string(res.collection) + "/" + std::to_string(id) + "?force=true",
              std::string(res.collection) + "/by-slug/" + slug + "?force=true"}) {
          CAPTURE(path);
          const HttpResponse r = del(path, with_auth(me));
          if (deleted) {  // the by-id call deleted it: the slug names nothing now
            CHECK_MESSAGE(r.status == 404, describe(r));
            continue;
          }
          deleted = r.status == 200;
          CHECK(matrix_mismatch(r, may_edit && row.force_delete, 200, visitor) == "");
          if (r.status == 200) CHECK(find(r.json(), {"deleted"}) != nullptr);
          ++checked;
        }
      }
      {
        const std::string slug = make_record(res, owner, "draft", "Author " + role + " " + run).second;
        const long long someone_else = owner == other_user ? 1 : other_user;
        const HttpResponse r = post_json(std::string(res.collection) + "/by-slug/" + slug,
                                         "{\"author\":" + std::to_string(someone_else) + "}", with_auth(me));
        CHECK(matrix_mismatch(r, may_edit && row.set_other_author, 200, visitor) == "");
        if (r.status == 200) CHECK(find(r.json(), {"author"})->GetInt64() == someone_else);
        ++checked;
      }
      {
        const long long id = make_record(res, owner, "draft", "Publish " + role + " " + run).first;
        const HttpResponse r = post_json(std::string(res.collection) + "/" + std::to_string(id),
                                         R"({"status":"publish"})", with_auth(me));
        const std::string want = visitor ? "" : row.publish_own;
        CHECK(matrix_mismatch(r, !want.empty(), 200, visitor) == "");
        if (r.status == 200) CHECK(string_at(r.json(), {"status"}) == want);
        ++checked;
      }
    }
    // Categories and tags: create, update, delete.
    for (const auto& [collection, allowed] :
         {std::pair<std::string, bool>{"/cal/events/v1/categories", row.manage_categories},
          std::pair<std::string, bool>{"/cal/events/v1/tags", row.manage_tags}}) {
      CAPTURE(role);
      CAPTURE(collection);
      const HttpResponse created =
          post_json(collection, "{\"name\":" + quoted("term " + role + " " + run) + "}", with_auth(me));
      CHECK(matrix_mismatch(created, allowed, 201, visitor) == "");
      const HttpResponse fixture = post_json(
          collection, "{\"name\":" + quoted("fixture " + role + " " + run) + "}", {bearer(admin_token())});
      REQUIRE_MESSAGE(fixture.status == 201, describe(fixture));
      const std::string path = collection + "/" + std::to_string(events::id_of(fixture.json()));
      CHECK(matrix_mismatch(request("PUT", path, "{\"description\":\"changed\"}",
                                    with_auth(me, {"Content-Type: application/json"})),
                            allowed, 200, visitor) == "");
      CHECK(matrix_mismatch(del(path, with_auth(me)), allowed, 200, visitor) == "");
      checked += 3;
    }
  }
  CHECK(checked >= 250);
  MESSAGE("permission matrix: " << checked << " requests checked against docs/api.md §7");
}

}  // namespace caltest
