// Integration tests of the create dedupe rule of docs/api.md §5 on venues and organizers: a create whose
// name (case-insensitive) and every other sent field match a live record the caller may read
// returns that record, unchanged, with 200.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "support/linked.h"

namespace caltest {
namespace {

TEST_CASE("a create matching an existing record by name and sent fields returns it unchanged") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string admin = bearer(admin_token());
    const std::string field = detail_field(res);
    const std::string name = unique("Dedupe Me");
    const rapidjson::Document original =
        create_record(res, name, json_string(field) + ":\"Same\",\"description\":\"Desc\"", admin);
    const long long id = id_of(original);

    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    struct Case {
      std::string body;
      bool reuses;
    };
    const Case cases[] = {
        {body_with(res, name), true},
        {body_with(res, upper), true},
        {body_with(res, name, json_string(field) + ":\"Same\""), true},
        {body_with(res, upper, json_string(field) + ":\"Same\",\"description\":\"Desc\""), true},
        {body_with(res, name, json_string(field) + ":\"Different\""), false},
        {body_with(res, name, "\"description\":\"Other\""), false},
        {body_with(res, name, "\"status\":\"publish\""), true},
        {body_with(res, name, "\"status\":\"draft\""), false},
        {body_with(res, name, "\"slug\":" + json_string(string_at(original, {"slug"}))), true},
        {body_with(res, name + " more"), false},
    };
    for (const Case& c : cases) {
      CAPTURE(c.body);
      const HttpResponse r = post_json(res.collection, c.body, {admin});
      if (c.reuses) {
        REQUIRE_MESSAGE(r.status == 200, describe(r));
        const rapidjson::Document doc = r.json();
        CHECK(id_of(doc) == id);
        CHECK(string_at(doc, {res.name_key}) == name);
        CHECK(string_at(doc, {"modified_utc"}) == string_at(original, {"modified_utc"}));
        CHECK(string_at(doc, {field.c_str()}) == "Same");
        CHECK(r.header("location") == "");
      } else {
        REQUIRE_MESSAGE(r.status == 201, describe(r));
        CHECK(id_of(r.json()) != id);
      }
    }
  }
}

TEST_CASE("dedupe ignores trashed records and records the caller may not read") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string admin = bearer(admin_token());
    const std::string name = unique("Dedupe Trash");
    const long long trashed = create_record_id(res, name);
    REQUIRE(del(item_path(res, trashed), {admin}).status == 200);
    const rapidjson::Document fresh = create_record(res, name, "", admin);
    CHECK(id_of(fresh) != trashed);

    const std::string hidden_name = unique("Dedupe Hidden");
    const long long hidden = create_record_id(res, hidden_name, R"("status":"draft")");
    const rapidjson::Document own = create_record(res, hidden_name, "", role_user("contributor").auth());
    CHECK(id_of(own) != hidden);
    // The editor may read the draft: reused.
    const HttpResponse again = post_json(res.collection, body_with(res, hidden_name, R"("status":"draft")"),
                                         {role_user("editor").auth()});
    REQUIRE_MESSAGE(again.status == 200, describe(again));
    CHECK(id_of(again.json()) == std::min(hidden, id_of(own)));
  }
}

}  // namespace
}  // namespace caltest
