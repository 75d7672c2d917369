// Integration tests of category and tag reads, creates and updates (docs/api.md §3.3, §5): the record
// shape, create with slugs and 409 term_exists, invalid input, partial updates, parent rules.
#include <doctest/doctest.h>

#include <cctype>
#include <string>
#include <vector>

#include "support/client.h"
#include "support/terms.h"

namespace caltest {
namespace {

using namespace terms;

std::vector<std::string> keys_of(const rapidjson::Value& v) {
  std::vector<std::string> out;
  for (const auto& m : v.GetObject()) out.emplace_back(m.name.GetString());
  return out;
}

TEST_CASE("a created category is 201 with Location and the full term record") {
  const std::string name = unique("Cat Record");
  const HttpResponse r =
      create_term(kCategories, "{\"name\": " + quoted(name) + ", \"description\": \"About it\"}");
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  const rapidjson::Document doc = r.json();
  CHECK(keys_of(doc) == std::vector<std::string>{"id", "name", "slug", "taxonomy", "description", "parent",
                                                 "count", "url", "urls"});
  const long long id = id_of(doc);
  const std::string self = service_root() + item_path(kCategories, id);
  CHECK(r.header("location") == self);
  CHECK(string_at(doc, {"name"}) == name);
  CHECK(string_at(doc, {"slug"}).rfind("cat-record", 0) == 0);  // lower-case, words joined by -
  CHECK(string_at(doc, {"taxonomy"}) == "cal_events_cat");
  CHECK(string_at(doc, {"description"}) == "About it");
  CHECK(doc["parent"].GetInt64() == 0);
  CHECK(doc["count"].GetInt64() == 0);
  CHECK(string_at(doc, {"url"}) == service_site_url() + "/events/category/" + string_at(doc, {"slug"}) + "/");
  CHECK(keys_of(doc["urls"]) == std::vector<std::string>{"self", "collection"});
  CHECK(string_at(doc, {"urls", "self"}) == self);
  CHECK(string_at(doc, {"urls", "collection"}) == service_root() + kCategories);

  // The same record by id.
  const HttpResponse g = get(item_path(kCategories, id));
  REQUIRE_MESSAGE(g.status == 200, describe(g));
  CHECK(g.body == r.body);
}

TEST_CASE("a created tag is a post_tag with a tag URL and parent 0") {
  const std::string name = unique("tag_record");
  const HttpResponse r = create_term(kTags, "{\"name\": " + quoted(name) + "}");
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  const rapidjson::Document doc = r.json();
  CHECK(string_at(doc, {"taxonomy"}) == "post_tag");
  CHECK(doc["parent"].GetInt64() == 0);
  CHECK(string_at(doc, {"url"}) == service_site_url() + "/events/tag/" + string_at(doc, {"slug"}) + "/");
  CHECK(string_at(doc, {"urls", "collection"}) == service_root() + kTags);
  CHECK(r.header("location") == service_root() + item_path(kTags, id_of(doc)));
}

TEST_CASE("a child category has urls.up naming its parent") {
  const long long parent = make_term(kCategories, unique("up_parent"));
  const HttpResponse r = create_term(kCategories, "{\"name\": " + quoted(unique("up_child")) +
                                                      ", \"parent\": " + std::to_string(parent) + "}");
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  const rapidjson::Document doc = r.json();
  CHECK(doc["parent"].GetInt64() == parent);
  CHECK(keys_of(doc["urls"]) == std::vector<std::string>{"self", "collection", "up"});
  CHECK(string_at(doc, {"urls", "up"}) == service_root() + item_path(kCategories, parent));
}

TEST_CASE("GET of an unknown id or of the other taxonomy is 404 rest_term_invalid") {
  const long long category = make_term(kCategories, unique("cross_cat"));
  const long long tag = make_term(kTags, unique("cross_tag"));
  CHECK(error_mismatch(get(item_path(kTags, category)), 404, "rest_term_invalid") == "");
  CHECK(error_mismatch(get(item_path(kCategories, tag)), 404, "rest_term_invalid") == "");
  CHECK(error_mismatch(get(item_path(kCategories, 999999999)), 404, "rest_term_invalid") == "");
  CHECK(error_mismatch(
            request("PATCH", item_path(kTags, category), "{}", {admin(), "Content-Type: application/json"}),
            404, "rest_term_invalid") == "");
  CHECK(error_mismatch(del(item_path(kCategories, tag), {admin()}), 404, "rest_term_invalid") == "");
  CHECK(get(item_path(kTags, tag)).status == 200);
}

TEST_CASE("a generated slug that is taken gets -2, -3") {
  const std::string base = unique("dup_slug");
  const long long p1 = make_term(kCategories, unique("slug_parent"));
  const long long p2 = make_term(kCategories, unique("slug_parent"));
  const long long a = make_term(kCategories, base);
  const long long b = make_term(kCategories, base, "\"parent\": " + std::to_string(p1));
  const long long c = make_term(kCategories, base, "\"parent\": " + std::to_string(p2));
  const std::string slug = string_at(get(item_path(kCategories, a)).json(), {"slug"});
  CHECK(!slug.empty());
  CHECK(string_at(get(item_path(kCategories, b)).json(), {"slug"}) == slug + "-2");
  CHECK(string_at(get(item_path(kCategories, c)).json(), {"slug"}) == slug + "-3");
  // Slugs are unique per taxonomy: a tag may reuse the category's slug.
  const long long t = make_term(kTags, base);
  CHECK(string_at(get(item_path(kTags, t)).json(), {"slug"}) == slug);
}

TEST_CASE("the same name at the same level is 409 term_exists with data.term_id") {
  const std::string name = unique("same_name");
  for (const char* collection : {kCategories, kTags}) {
    CAPTURE(collection);
    const long long first = make_term(collection, name);
    for (const std::string& again : {name, std::string(" ") + name + " ", [&] {
                                       std::string upper = name;
                                       for (char& ch : upper)
                                         ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
                                       return upper;
                                     }()}) {
      CAPTURE(again);
      const HttpResponse r = create_term(collection, "{\"name\": " + quoted(again) + "}");
      CHECK(error_mismatch(r, 409, "term_exists") == "");
      const rapidjson::Document doc = r.json();
      const rapidjson::Value* term_id = find(doc, {"data", "term_id"});
      REQUIRE(term_id != nullptr);
      CHECK(term_id->GetInt64() == first);
    }
  }
}

TEST_CASE("the same category name under another parent is allowed") {
  const std::string name = unique("level_name");
  const long long top = make_term(kCategories, name);
  const long long child = make_term(kCategories, name, "\"parent\": " + std::to_string(top));
  CHECK(child != top);
}

TEST_CASE("an explicit slug that is taken is 409 term_exists naming its holder") {
  const long long holder =
      make_term(kCategories, unique("slug_holder"), "\"slug\": " + quoted(unique("taken-slug")));
  const std::string slug = string_at(get(item_path(kCategories, holder)).json(), {"slug"});
  CHECK(slug.rfind("taken-slug", 0) == 0);
  const HttpResponse r =
      create_term(kCategories, "{\"name\": " + quoted(unique("other")) + ", \"slug\": " + quoted(slug) + "}");
  CHECK(error_mismatch(r, 409, "term_exists") == "");
  CHECK(r.json()["data"]["term_id"].GetInt64() == holder);
}

TEST_CASE("an explicit slug is normalized") {
  const std::string tail = unique("x");
  const long long id = make_term(kTags, unique("norm"), "\"slug\": " + quoted("Hello World " + tail));
  const std::string slug = string_at(get(item_path(kTags, id)).json(), {"slug"});
  CHECK(slug.rfind("hello-world-x", 0) == 0);
  CHECK(slug.find(' ') == std::string::npos);
}

TEST_CASE("invalid create input is 400 and creates nothing") {
  struct Case {
    const char* collection;
    std::string body;
    const char* code;
    const char* param;
  };
  const std::string marker = unique("bad_create");
  const Case cases[] = {
      {kCategories, "{}", "rest_missing_callback_param", "name"},
      {kCategories, R"({"description": "x"})", "rest_missing_callback_param", "name"},
      {kCategories, R"({"name": ""})", "rest_invalid_param", "name"},
      {kCategories, R"({"name": "   "})", "rest_invalid_param", "name"},
      {kCategories, R"({"name": 5})", "rest_invalid_param", "name"},
      {kCategories, "{\"name\": " + quoted(std::string(201, 'n')) + "}", "rest_invalid_param", "name"},
      {kCategories, "{\"name\": " + quoted(marker) + R"(, "slug": ""})", "rest_invalid_param", "slug"},
      {kCategories, "{\"name\": " + quoted(marker) + R"(, "slug": "!!!"})", "rest_invalid_param", "slug"},
      {kCategories, "{\"name\": " + quoted(marker) + R"(, "description": 3})", "rest_invalid_param",
       "description"},
      {kCategories,
       "{\"name\": " + quoted(marker) + ", \"description\": " + quoted(std::string(70000, 'd')) + "}",
       "rest_invalid_param", "description"},
      {kCategories, "{\"name\": " + quoted(marker) + R"(, "parent": 999999999})", "rest_invalid_param",
       "parent"},
      {kCategories, "{\"name\": " + quoted(marker) + R"(, "parent": -1})", "rest_invalid_param", "parent"},
      {kCategories, "{\"name\": " + quoted(marker) + R"(, "parent": "x"})", "rest_invalid_param", "parent"},
      {kTags, "{}", "rest_missing_callback_param", "name"},
      {kTags, R"({"name": ""})", "rest_invalid_param", "name"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.collection);
    CAPTURE(c.body);
    const HttpResponse r = create_term(c.collection, c.body);
    CHECK(error_mismatch(r, 400, c.code) == "");
    const rapidjson::Document doc = r.json();
    const rapidjson::Value* params = find(doc, {"data", "params"});
    REQUIRE(params != nullptr);
    if (params->IsObject())
      CHECK(params->HasMember(c.param));
    else
      CHECK(strings_at(doc, {"data", "params"}) == std::vector<std::string>{c.param});
  }
  for (const char* collection : {kCategories, kTags}) {
    const HttpResponse list = get(std::string(collection) + "?hide_empty=false&search=" + marker);
    REQUIRE(list.status == 200);
    CHECK(list.json()["total"].GetInt64() == 0);
  }
}

// Tags have no parent input: `parent` is an unknown parameter there, ignored like any other
// (docs/api.md §1), and neither the namespace index nor /doc declares it.
TEST_CASE("a tag ignores parent in a JSON or form body and the query string; no route declares it") {
  const std::string name = unique("tag_parent");
  HttpResponse r = post_json(kTags, "{\"name\": " + quoted(name) + R"(, "parent": 5})", {admin()});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  const long long id = r.json()["id"].GetInt64();
  CHECK(r.json()["parent"].GetInt64() == 0);
  r = post_form(kTags, "name=" + unique("tag_form") + "&parent=0", {admin()});
  CHECK_MESSAGE(r.status == 201, describe(r));
  r = post_json(std::string(kTags) + "?parent=3", "{\"name\": " + quoted(unique("tag_query")) + "}",
                {admin()});
  CHECK_MESSAGE(r.status == 201, describe(r));
  r = patch_json(item_path(kTags, id), R"({"parent": 7, "description": "patched"})", {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(r.json()["parent"].GetInt64() == 0);
  CHECK(string_at(r.json(), {"description"}) == "patched");

  // The namespace index: categories' writes declare parent, tags' none.
  const rapidjson::Document index = get("/cal/events/v1").json();
  const rapidjson::Value* routes = find(index, {"routes"});
  REQUIRE(routes != nullptr);
  int tag_routes = 0;
  int category_parents = 0;
  for (const auto& route : routes->GetObject()) {
    const std::string path = route.name.GetString();
    const bool tags = path.find("/tags") != std::string::npos;
    if (!tags && path.find("/categories") == std::string::npos) continue;
    tag_routes += tags;
    for (const auto& endpoint : route.value["endpoints"].GetArray()) {
      const bool has_parent = endpoint.HasMember("args") && endpoint["args"].HasMember("parent");
      CHECK_MESSAGE(!(tags && has_parent), path);
      category_parents += !tags && has_parent;
    }
  }
  CHECK(tag_routes >= 2);
  CHECK(category_parents >= 3);  // list filter, create, update

  // /doc: no parent among the tags' parameters or request body properties.
  const rapidjson::Document doc = get("/cal/events/v1/doc").json();
  const rapidjson::Value* paths = find(doc, {"paths"});
  REQUIRE(paths != nullptr);
  for (const auto& path : paths->GetObject()) {
    if (std::string(path.name.GetString()).find("/tags") == std::string::npos) continue;
    for (const auto& op : path.value.GetObject()) {
      CAPTURE(path.name.GetString());
      CAPTURE(op.name.GetString());
      if (!op.value.IsObject()) continue;
      if (op.value.HasMember("parameters"))
        for (const auto& p : op.value["parameters"].GetArray())
          CHECK(std::string(p["name"].GetString()) != "parent");
      for (const char* type : {"application/json", "application/x-www-form-urlencoded"})
        CHECK(find(op.value, {"requestBody", "content", type, "schema", "properties", "parent"}) == nullptr);
    }
  }
}

TEST_CASE("an update changes only the fields sent") {
  const long long parent = make_term(kCategories, unique("upd_parent"));
  const std::string name = unique("upd_term");
  const long long id =
      make_term(kCategories, name, "\"description\": \"keep me\", \"parent\": " + std::to_string(parent));
  const std::string slug = string_at(get(item_path(kCategories, id)).json(), {"slug"});

  // Every write method of the item route updates.
  const std::string renamed = unique("renamed");
  HttpResponse r = patch_json(item_path(kCategories, id), "{\"name\": " + quoted(renamed) + "}", {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  rapidjson::Document doc = r.json();
  CHECK(string_at(doc, {"name"}) == renamed);
  CHECK(string_at(doc, {"slug"}) == slug);
  CHECK(string_at(doc, {"description"}) == "keep me");
  CHECK(doc["parent"].GetInt64() == parent);

  r = put_json(item_path(kCategories, id), R"({"description": ""})", {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  doc = r.json();
  CHECK(string_at(doc, {"name"}) == renamed);
  CHECK(string_at(doc, {"description"}) == "");

  const std::string new_slug = unique("new-slug");
  r = post_json(item_path(kCategories, id), "{\"slug\": " + quoted(new_slug) + ", \"parent\": 0}", {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  doc = r.json();
  CHECK(string_at(doc, {"slug"}).rfind("new-slug", 0) == 0);
  CHECK(string_at(doc, {"slug"}) != slug);
  CHECK(doc["parent"].GetInt64() == 0);
  CHECK(find(doc, {"urls", "up"}) == nullptr);

  // An empty update changes nothing; read-only fields are ignored.
  r = patch_json(item_path(kCategories, id), R"({"count": 99, "taxonomy": "post_tag", "id": 1})", {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(r.body == get(item_path(kCategories, id)).body);
  CHECK(r.json()["count"].GetInt64() == 0);
}

TEST_CASE("a rename onto a sibling's name or a taken slug is 409 and changes nothing") {
  const std::string taken = unique("sibling");
  const long long sibling = make_term(kTags, taken);
  const long long id = make_term(kTags, unique("to_rename"));
  const std::string before = get(item_path(kTags, id)).body;
  HttpResponse r = patch_json(item_path(kTags, id), "{\"name\": " + quoted(taken) + "}", {admin()});
  CHECK(error_mismatch(r, 409, "term_exists") == "");
  CHECK(r.json()["data"]["term_id"].GetInt64() == sibling);
  const std::string taken_slug = string_at(get(item_path(kTags, sibling)).json(), {"slug"});
  r = patch_json(item_path(kTags, id), "{\"slug\": " + quoted(taken_slug) + ", \"description\": \"changed\"}",
                 {admin()});
  CHECK(error_mismatch(r, 409, "term_exists") == "");
  CHECK(get(item_path(kTags, id)).body == before);
  // Renaming to its own name (other case) is fine.
  r = patch_json(item_path(kTags, sibling), "{\"name\": " + quoted(taken) + "}", {admin()});
  CHECK_MESSAGE(r.status == 200, describe(r));
}

TEST_CASE("moving a category under a parent with a same-named child is 409") {
  const std::string name = unique("move_clash");
  const long long parent = make_term(kCategories, unique("move_parent"));
  const long long existing = make_term(kCategories, name, "\"parent\": " + std::to_string(parent));
  const long long top = make_term(kCategories, name);
  const HttpResponse r =
      patch_json(item_path(kCategories, top), "{\"parent\": " + std::to_string(parent) + "}", {admin()});
  CHECK(error_mismatch(r, 409, "term_exists") == "");
  CHECK(r.json()["data"]["term_id"].GetInt64() == existing);
}

TEST_CASE("a category's parent may not be itself, a descendant, a tag or unknown") {
  const long long a = make_term(kCategories, unique("cyc_a"));
  const long long b = make_term(kCategories, unique("cyc_b"), "\"parent\": " + std::to_string(a));
  const long long c = make_term(kCategories, unique("cyc_c"), "\"parent\": " + std::to_string(b));
  const long long tag = make_term(kTags, unique("cyc_tag"));
  for (long long bad : {a, b, c, tag, 999999999LL, -5LL}) {
    CAPTURE(bad);
    const HttpResponse r =
        patch_json(item_path(kCategories, a), "{\"parent\": " + std::to_string(bad) + "}", {admin()});
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
    CHECK(r.json()["data"]["params"].HasMember("parent"));
  }
  CHECK(get(item_path(kCategories, a)).json()["parent"].GetInt64() == 0);
  // Moving a grandchild up to the top is fine.
  const HttpResponse ok = patch_json(item_path(kCategories, c), R"({"parent": 0})", {admin()});
  CHECK_MESSAGE(ok.status == 200, describe(ok));
}

}  // namespace
}  // namespace caltest
