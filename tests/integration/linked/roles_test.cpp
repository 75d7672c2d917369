// Integration tests of the docs/api.md §7 role matrix on venues and organizers, by id and by slug
// (the same per-record rules on both routes): read, update, trash and force delete.
#include <doctest/doctest.h>

#include <string>

#include "support/linked.h"

namespace caltest {
namespace {

struct RoleCase {
  const char* who;     // "visitor" or a role
  const char* owner;   // role of the record's author
  const char* status;  // the record's status
  const char* action;  // GET, PATCH, DELETE, FORCE
  long status_code;
  const char* code;  // expected error code ("*" stands for the kind), or "" on success
};

const RoleCase kRoleCases[] = {
    {"visitor", "administrator", "publish", "GET", 200, ""},
    {"visitor", "administrator", "draft", "GET", 403, "*-not-accessible"},
    {"subscriber", "administrator", "draft", "GET", 403, "*-not-accessible"},
    {"contributor", "contributor", "draft", "GET", 200, ""},
    {"contributor", "administrator", "draft", "GET", 403, "*-not-accessible"},
    {"author", "author", "draft", "GET", 200, ""},
    {"author", "administrator", "pending", "GET", 403, "*-not-accessible"},
    {"editor", "administrator", "draft", "GET", 200, ""},

    {"visitor", "administrator", "publish", "PATCH", 401, "rest_forbidden"},
    {"subscriber", "administrator", "publish", "PATCH", 403, "rest_forbidden"},
    {"contributor", "contributor", "draft", "PATCH", 200, ""},
    {"contributor", "contributor", "pending", "PATCH", 200, ""},
    {"contributor", "contributor", "publish", "PATCH", 403, "rest_forbidden"},
    {"contributor", "administrator", "draft", "PATCH", 403, "rest_forbidden"},
    {"author", "author", "publish", "PATCH", 200, ""},
    {"author", "administrator", "publish", "PATCH", 403, "rest_forbidden"},
    {"editor", "administrator", "draft", "PATCH", 200, ""},
    {"administrator", "contributor", "publish", "PATCH", 200, ""},

    {"visitor", "administrator", "publish", "DELETE", 401, "rest_forbidden"},
    {"subscriber", "administrator", "publish", "DELETE", 403, "rest_forbidden"},
    {"contributor", "contributor", "draft", "DELETE", 200, ""},
    {"contributor", "contributor", "publish", "DELETE", 403, "rest_forbidden"},
    {"contributor", "administrator", "draft", "DELETE", 403, "rest_forbidden"},
    {"author", "author", "publish", "DELETE", 200, ""},
    {"author", "administrator", "publish", "DELETE", 403, "rest_forbidden"},
    {"editor", "administrator", "publish", "DELETE", 200, ""},

    {"contributor", "contributor", "draft", "FORCE", 403, "rest_forbidden"},
    {"author", "author", "publish", "FORCE", 403, "rest_forbidden"},
    {"editor", "author", "publish", "FORCE", 200, ""},
    {"administrator", "administrator", "draft", "FORCE", 200, ""},
};

std::string replace_kind(std::string code, const char* kind) {
  if (!code.empty() && code[0] == '*') code = kind + code.substr(1);
  return code;
}

HttpResponse run(const RoleCase& c, const std::string& path) {
  std::vector<std::string> headers;
  if (std::string(c.who) != "visitor") headers.push_back(role_user(c.who).auth());
  const std::string action = c.action;
  if (action == "GET") return get(path, headers);
  if (action == "PATCH") return patch_json(path, R"({"description":"changed"})", headers);
  if (action == "DELETE") return del(path, headers);
  return del(path + "?force=true", headers);
}

TEST_CASE("linked records follow the role matrix by id and by slug") {
  for (const LinkedResource& res : kLinkedResources) {
    for (const bool by_slug : {false, true}) {
      for (const RoleCase& c : kRoleCases) {
        const std::string collection = res.collection;
        CAPTURE(collection);
        CAPTURE(by_slug);
        const std::string label =
            std::string(c.who) + " " + c.action + " a record of " + c.owner + " in " + c.status;
        CAPTURE(label);
        const std::string more = "\"author\":" + std::to_string(role_user(c.owner).id) +
                                 ",\"status\":" + json_string(c.status) + ",\"description\":\"before\"";
        const rapidjson::Document record = create_record(res, unique("Role"), more, bearer(admin_token()));
        const long long id = id_of(record);
        REQUIRE(id != 0);
        REQUIRE(string_at(record, {"status"}) == c.status);
        const std::string path = by_slug ? slug_path(res, string_at(record, {"slug"})) : item_path(res, id);
        const HttpResponse r = run(c, path);
        if (*c.code) {
          CHECK(error_mismatch(r, c.status_code, replace_kind(c.code, res.kind)) == "");
          // Refused writes change nothing.
          const HttpResponse after = get(item_path(res, id) + "?context=edit", {bearer(admin_token())});
          CHECK(string_at(after.json(), {"description"}) == "before");
          CHECK(string_at(after.json(), {"status"}) == c.status);
          continue;
        }
        REQUIRE_MESSAGE(r.status == c.status_code, describe(r));
        const rapidjson::Document doc = r.json();
        const std::string action = c.action;
        if (action == "GET") CHECK(id_of(doc) == id);
        if (action == "PATCH") CHECK(string_at(doc, {"description"}) == "changed");
        if (action == "DELETE") CHECK(string_at(doc, {"status"}) == "trash");
        if (action == "FORCE") {
          CHECK(doc["deleted"].IsTrue());
          CHECK(id_of(doc["previous"]) == id);
          CHECK(error_mismatch(get(item_path(res, id), {bearer(admin_token())}), 404,
                               std::string("rest-") + res.kind + "-not-found") == "");
        }
      }
    }
  }
}

TEST_CASE("linked writes need a user who may edit posts") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string body = "{" + json_string(res.name_key) + ":" + json_string(unique("Nobody")) + "}";
    CHECK(error_mismatch(post_json(res.collection, body), 401, "rest_forbidden") == "");
    CHECK(error_mismatch(post_json(res.collection, body, {role_user("subscriber").auth()}), 403,
                         "rest_forbidden") == "");
  }
}

TEST_CASE("a contributor's record is a draft; publishing becomes pending") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string auth = role_user("contributor").auth();
    const rapidjson::Document draft = create_record(res, unique("Contrib"), "", auth);
    CHECK(string_at(draft, {"status"}) == "draft");
    CHECK(id_of(draft) != 0);
    CHECK(find(draft, {"author"})->GetInt64() == role_user("contributor").id);
    const rapidjson::Document pending = create_record(res, unique("Contrib"), R"("status":"publish")", auth);
    CHECK(string_at(pending, {"status"}) == "pending");
    const HttpResponse r = patch_json(item_path(res, id_of(draft)), R"({"status":"publish"})", {auth});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(string_at(r.json(), {"status"}) == "pending");
    // An author publishes their own.
    const rapidjson::Document authored =
        create_record(res, unique("Authored"), "", role_user("author").auth());
    CHECK(string_at(authored, {"status"}) == "publish");
  }
}

TEST_CASE("only editors may give a linked record another author") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string other = std::to_string(role_user("editor").id);
    const std::string body = "{" + json_string(res.name_key) + ":" + json_string(unique("Other Author")) +
                             ",\"author\":" + other + "}";
    CHECK(error_mismatch(post_json(res.collection, body, {role_user("author").auth()}), 403,
                         "rest_forbidden") == "");
    const rapidjson::Document doc =
        create_record(res, unique("Given Author"), "\"author\":" + other, bearer(admin_token()));
    CHECK(find(doc, {"author"})->GetInt64() == role_user("editor").id);
    const HttpResponse bad = post_json(
        res.collection,
        "{" + json_string(res.name_key) + ":" + json_string(unique("No Author")) + ",\"author\":999999999}",
        {bearer(admin_token())});
    CHECK(error_mismatch(bad, 400, "rest_invalid_param") == "");
  }
}

}  // namespace
}  // namespace caltest
