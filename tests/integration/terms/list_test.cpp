// Integration tests of GET /categories and GET /tags (docs/api.md §4, §4.4): every list parameter
// valid and invalid, ordering, the hierarchy filter, paging and the envelope. Lists are scoped
// with `include` or a unique `search` so other tests' terms cannot interfere.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/client.h"
#include "support/terms.h"

namespace caltest {
namespace {

using namespace terms;

std::string id_list(const std::vector<long long>& ids) {
  std::string out;
  for (long long id : ids) out += (out.empty() ? "" : ",") + std::to_string(id);
  return out;
}

// The names listed at `collection?query`, REQUIRE-ing 200.
std::vector<std::string> list_names(const char* collection, const std::string& query) {
  const HttpResponse r = get(std::string(collection) + "?" + query, {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  return names_in(r.json(), collection == std::string(kCategories) ? "categories" : "tags");
}

TEST_CASE("term lists sort by name case-insensitively and by every orderby") {
  const std::string p = unique("ord");
  const long long b = make_term(kCategories, p + " b", R"("description": "2")");
  const long long a = make_term(kCategories, p + " A", R"("description": "3")");
  const long long c =
      make_term(kCategories, p + " C", "\"description\": \"1\", \"parent\": " + std::to_string(b));
  const std::string scope = "hide_empty=false&include=" + id_list({b, a, c});
  const std::string A = p + " A", B = p + " b", C = p + " C";
  struct Case {
    std::string query;
    std::vector<std::string> names;
  };
  const Case cases[] = {
      {"", {A, B, C}},
      {"orderby=name", {A, B, C}},
      {"orderby=name&order=asc", {A, B, C}},
      {"orderby=name&order=desc", {C, B, A}},
      {"order=DESC", {C, B, A}},
      {"orderby=ID", {B, A, C}},
      {"orderby=id&order=desc", {C, A, B}},
      {"orderby=slug", {A, B, C}},
      {"orderby=slug&order=desc", {C, B, A}},
      {"orderby=description", {C, B, A}},
      {"orderby=description&order=desc", {A, B, C}},
      {"orderby=parent", {B, A, C}},
      {"orderby=parent&order=desc", {C, A, B}},
      {"orderby=count", {B, A, C}},  // all 0: ties by id
  };
  for (const Case& k : cases) {
    CAPTURE(k.query);
    CHECK(list_names(kCategories, scope + "&" + k.query) == k.names);
  }
}

TEST_CASE("tags sort the same way") {
  const std::string p = unique("tord");
  const long long b = make_term(kTags, p + " b");
  const long long a = make_term(kTags, p + " A");
  const long long c = make_term(kTags, p + " C");
  const std::string scope = "hide_empty=false&include=" + id_list({a, b, c});
  CHECK(list_names(kTags, scope) == std::vector<std::string>{p + " A", p + " b", p + " C"});
  CHECK(list_names(kTags, scope + "&orderby=id&order=desc") ==
        std::vector<std::string>{p + " C", p + " A", p + " b"});
}

TEST_CASE("invalid list parameters are 400 rest_invalid_param naming them") {
  const long long tag = make_term(kTags, unique("inv_tag"));
  const long long category = make_term(kCategories, unique("inv_cat"));
  struct Case {
    const char* collection;
    std::string query;
    const char* param;
  };
  const Case cases[] = {
      {kCategories, "orderby=foo", "orderby"},
      {kCategories, "orderby=", "orderby"},
      {kCategories, "orderby=term_order", "orderby"},
      {kTags, "orderby=parent", "orderby"},
      {kCategories, "order=up", "order"},
      {kCategories, "order=", "order"},
      {kCategories, "hide_empty=maybe", "hide_empty"},
      {kCategories, "include=abc", "include"},
      {kCategories, "include=0", "include"},
      {kCategories, "include=999999999", "include"},
      {kCategories, "include=" + std::to_string(tag), "include"},
      {kTags, "include=" + std::to_string(category), "include"},
      {kCategories, "exclude=999999999", "exclude"},
      {kCategories, "exclude=x", "exclude"},
      {kCategories, "parent=999999999", "parent"},
      {kCategories, "parent=-1", "parent"},
      {kCategories, "parent=x", "parent"},
      {kCategories, "parent=" + std::to_string(tag), "parent"},
      {kCategories, "post=999999999", "post"},
      {kCategories, "post=0", "post"},
      {kCategories, "event=999999999", "event"},
      {kTags, "event=abc", "event"},
      {kCategories, "search=", "search"},
      {kCategories, "slug=", "slug"},
      {kCategories, "page=0", "page"},
      {kTags, "per_page=0", "per_page"},
      {kTags, "per_page=x", "per_page"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.collection);
    CAPTURE(c.query);
    const HttpResponse r = get(std::string(c.collection) + "?" + c.query);
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
    const rapidjson::Document doc = r.json();
    const rapidjson::Value* params = find(doc, {"data", "params"});
    REQUIRE(params != nullptr);
    REQUIRE(params->IsObject());
    CHECK(params->HasMember(c.param));
  }
}

TEST_CASE("hide_empty (default true) hides terms no published event carries") {
  const std::string p = unique("hide");
  const long long id = make_term(kCategories, p);
  CHECK(list_ids(std::string(kCategories) + "?search=" + p, "categories").empty());
  CHECK(list_ids(std::string(kCategories) + "?hide_empty=true&search=" + p, "categories").empty());
  CHECK(list_ids(std::string(kCategories) + "?hide_empty=false&search=" + p, "categories") ==
        std::vector<long long>{id});
  CHECK(list_ids(std::string(kCategories) + "?hide_empty=0&search=" + p, "categories") ==
        std::vector<long long>{id});
}

TEST_CASE("include and exclude select by id") {
  const long long a = make_term(kTags, unique("inc"));
  const long long b = make_term(kTags, unique("inc"));
  const long long c = make_term(kTags, unique("inc"));
  const std::string base = std::string(kTags) + "?hide_empty=false&orderby=id&";
  CHECK(list_ids(base + "include=" + id_list({c, a}), "tags") == std::vector<long long>{a, c});
  CHECK(list_ids(base + "include[]=" + std::to_string(b) + "&include[]=" + std::to_string(c), "tags") ==
        std::vector<long long>{b, c});
  CHECK(list_ids(base + "include=" + id_list({a, b, c}) + "&exclude=" + std::to_string(b), "tags") ==
        std::vector<long long>{a, c});
  CHECK(list_ids(base + "include=" + id_list({a, b}) + "&exclude=" + id_list({a, b}), "tags").empty());
}

TEST_CASE("parent selects children; 0 selects the top level") {
  const std::string p = unique("fam");
  const long long root = make_term(kCategories, p + " root");
  const long long child1 = make_term(kCategories, p + " child1", "\"parent\": " + std::to_string(root));
  const long long child2 = make_term(kCategories, p + " child2", "\"parent\": " + std::to_string(root));
  make_term(kCategories, p + " grandchild", "\"parent\": " + std::to_string(child1));
  const std::string base = std::string(kCategories) + "?hide_empty=false&orderby=id&";
  CHECK(list_ids(base + "parent=" + std::to_string(root), "categories") ==
        std::vector<long long>{child1, child2});
  CHECK(list_ids(base + "parent=0&search=" + p, "categories") == std::vector<long long>{root});
  CHECK(list_ids(base + "parent=" + std::to_string(child2), "categories").empty());
  // Tags have no parent parameter: it is ignored there.
  const std::string t = unique("tagparent");
  const long long tag = make_term(kTags, t);
  CHECK(list_ids(std::string(kTags) + "?hide_empty=false&parent=999999999&search=" + t, "tags") ==
        std::vector<long long>{tag});
}

TEST_CASE("slug matches exactly; search matches part of the name or the slug") {
  const std::string p = unique("srch");
  const long long named = make_term(kCategories, p + " Zeta Name", "\"slug\": " + quoted(p + " omega"));
  const long long other = make_term(kCategories, p + " 50%off");
  const long long decoy = make_term(kCategories, p + " 50xoff");
  const std::string slug = string_at(get(item_path(kCategories, named)).json(), {"slug"});
  const std::string base = std::string(kCategories) + "?hide_empty=false&orderby=id&";
  CHECK(list_ids(base + "slug=" + slug, "categories") == std::vector<long long>{named});
  CHECK(list_ids(base + "slug=" + slug.substr(0, slug.size() - 1), "categories").empty());
  const std::string scope = "include=" + id_list({named, other, decoy}) + "&search=";
  CHECK(list_ids(base + scope + "zeta", "categories") == std::vector<long long>{named});
  CHECK(list_ids(base + scope + "ZETA%20NAME", "categories") == std::vector<long long>{named});
  CHECK(list_ids(base + scope + "omega", "categories") == std::vector<long long>{named});
  CHECK(list_ids(base + scope + "50%25o", "categories") == std::vector<long long>{other});
  CHECK(list_ids(base + scope + "nothing-like-it", "categories").empty());
}

TEST_CASE("term lists page with totals, links and headers") {
  const std::string p = unique("page");
  std::vector<long long> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(make_term(kTags, p + "_" + std::to_string(i)));
  const std::string query = "hide_empty=false&search=" + p;
  const std::string collection = service_root() + kTags;

  HttpResponse r = get(std::string(kTags) + "?per_page=2&" + query);
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  rapidjson::Document doc = r.json();
  CHECK(ids_in(doc, "tags") == std::vector<long long>{ids[0], ids[1]});
  CHECK(doc["total"].GetInt64() == 3);
  CHECK(doc["total_pages"].GetInt64() == 2);
  const std::string next = collection + "?page=2&per_page=2&search=" + p + "&hide_empty=false";
  CHECK(string_at(doc, {"rest_url"}) == collection + "?page=1&per_page=2&search=" + p + "&hide_empty=false");
  CHECK(string_at(doc, {"next_rest_url"}) == next);
  CHECK(find(doc, {"previous_rest_url"}) == nullptr);
  CHECK(r.header("x-wp-total") == "3");
  CHECK(r.header("x-wp-totalpages") == "2");
  CHECK(r.header("x-tec-total") == "3");
  CHECK(r.header("x-tec-totalpages") == "2");
  CHECK(r.header("link") == "<" + next + ">; rel=\"next\"");

  r = get(std::string(kTags) + "?per_page=2&page=2&" + query);
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  doc = r.json();
  CHECK(ids_in(doc, "tags") == std::vector<long long>{ids[2]});
  CHECK(find(doc, {"next_rest_url"}) == nullptr);
  CHECK(string_at(doc, {"previous_rest_url"}) ==
        collection + "?page=1&per_page=2&search=" + p + "&hide_empty=false");

  CHECK(error_mismatch(get(std::string(kTags) + "?per_page=2&page=3&" + query), 404,
                       "tag-archive-page-not-found") == "");
  CHECK(error_mismatch(get(std::string(kCategories) + "?page=2&" + query), 404,
                       "category-archive-page-not-found") == "");
  CHECK(error_mismatch(get(std::string(kCategories) + "?page=99&search=" + p), 404,
                       "category-archive-page-not-found") == "");

  // per_page is clamped to the maximum, silently.
  r = get(std::string(kTags) + "?per_page=500&" + query);
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(string_at(r.json(), {"rest_url"}) ==
        collection + "?page=1&per_page=50&search=" + p + "&hide_empty=false");
}

TEST_CASE("an empty first page is 200 with total 0") {
  for (const char* collection : {kCategories, kTags}) {
    CAPTURE(collection);
    const HttpResponse r = get(std::string(collection) + "?search=" + unique("none"));
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    const rapidjson::Document doc = r.json();
    const std::string key = collection == std::string(kCategories) ? "categories" : "tags";
    CHECK(doc[key.c_str()].GetArray().Size() == 0);
    CHECK(doc["total"].GetInt64() == 0);
    CHECK(doc["total_pages"].GetInt64() == 0);
    CHECK(r.header("x-wp-total") == "0");
    CHECK(r.header("link") == "<" + base_url() + "/>; rel=\"https://api.w.org/\"");  // no page link
  }
}

TEST_CASE("a term list page costs the same number of statements for 1 or 12 terms") {
  const std::string p = unique("stmt");
  const long long parent = make_term(kCategories, p + " parent");
  std::vector<long long> ids;
  for (int i = 0; i < 12; ++i)
    ids.push_back(
        make_term(kCategories, p + " " + std::to_string(i), "\"parent\": " + std::to_string(parent)));
  const std::string query =
      std::string(kCategories) + "?hide_empty=false&orderby=count&parent=" + std::to_string(parent) +
      "&include=" + id_list(ids) + "&exclude=" + std::to_string(parent) + "&search=" + p;
  const HttpResponse one = get(query + "&per_page=1", {admin()});
  REQUIRE_MESSAGE(one.status == 200, describe(one));
  REQUIRE_MESSAGE(
      !one.header("x-cal-statements").empty(),
      "X-Cal-Statements missing: scripts/run-tests.sh runs the stack with statement_count_header = true");
  const HttpResponse twelve = get(query + "&per_page=12", {admin()});
  REQUIRE(ids_in(twelve.json(), "categories").size() == 12);
  CHECK(one.header("x-cal-statements") == twelve.header("x-cal-statements"));
  // Authentication, include, exclude and parent checks, then the page with its total.
  CHECK(std::stoi(one.header("x-cal-statements")) <= 6);
}

}  // namespace
}  // namespace caltest
