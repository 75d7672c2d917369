// Integration tests of category and tag deletes and of who may write them (docs/api.md §5, §7):
// permanent delete with re-parenting, the 409 of a clashing re-parent, the role matrix, visitors,
// and description HTML by role.
#include <doctest/doctest.h>

#include <string>
#include <tuple>

#include "support/client.h"
#include "support/terms.h"

namespace caltest {
namespace {

using namespace terms;

TEST_CASE("delete is permanent, returns the term as it was, and re-parents children") {
  const long long grand = make_term(kCategories, unique("del_grand"));
  const std::string name = unique("del_mid");
  const long long mid =
      make_term(kCategories, name, "\"description\": \"gone\", \"parent\": " + std::to_string(grand));
  const long long child1 = make_term(kCategories, unique("del_child"), "\"parent\": " + std::to_string(mid));
  const long long child2 = make_term(kCategories, unique("del_child"), "\"parent\": " + std::to_string(mid));
  const std::string before = get(item_path(kCategories, mid)).body;

  const HttpResponse r = del(item_path(kCategories, mid) + "?force=false", {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(r.body == before);
  CHECK(error_mismatch(get(item_path(kCategories, mid)), 404, "rest_term_invalid") == "");
  CHECK(error_mismatch(del(item_path(kCategories, mid), {admin()}), 404, "rest_term_invalid") == "");
  for (long long child : {child1, child2}) {
    CAPTURE(child);
    CHECK(get(item_path(kCategories, child)).json()["parent"].GetInt64() == grand);
  }
  // The freed name can be used again at that level.
  make_term(kCategories, name, "\"parent\": " + std::to_string(grand));
}

TEST_CASE("a delete that would put two same-named categories side by side is 409 and changes nothing") {
  const std::string name = unique("del_clash");
  const long long doomed = make_term(kCategories, unique("del_doomed"));
  const long long child = make_term(kCategories, name, "\"parent\": " + std::to_string(doomed));
  const long long top = make_term(kCategories, name);
  const HttpResponse r = del(item_path(kCategories, doomed), {admin()});
  CHECK(error_mismatch(r, 409, "term_exists") == "");
  CHECK(r.json()["data"]["term_id"].GetInt64() == top);
  CHECK(get(item_path(kCategories, doomed)).status == 200);
  CHECK(get(item_path(kCategories, child)).json()["parent"].GetInt64() == doomed);
}

TEST_CASE("tags delete permanently too") {
  const long long id = make_term(kTags, unique("del_tag"));
  const HttpResponse r = del(item_path(kTags, id) + "?force=true", {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(id_of(r.json()) == id);
  CHECK(error_mismatch(get(item_path(kTags, id)), 404, "rest_term_invalid") == "");
}

TEST_CASE("categories are writable by authors and above, tags by editors and above") {
  struct RoleCase {
    const char* role;
    bool categories;
    bool tags;
  };
  const RoleCase cases[] = {
      {"administrator", true, true}, {"editor", true, true},       {"author", true, false},
      {"contributor", false, false}, {"subscriber", false, false},
  };
  const long long category = make_term(kCategories, unique("perm_cat"));
  const long long tag = make_term(kTags, unique("perm_tag"));
  for (const RoleCase& c : cases) {
    CAPTURE(c.role);
    const std::string auth = bearer(create_user("termrole", c.role));
    for (const auto& [collection, allowed, existing] :
         {std::tuple{kCategories, c.categories, category}, std::tuple{kTags, c.tags, tag}}) {
      CAPTURE(collection);
      const HttpResponse created =
          create_term(collection, "{\"name\": " + quoted(unique("perm")) + "}", auth);
      const HttpResponse updated =
          patch_json(item_path(collection, existing), R"({"description": "by role"})", {auth});
      if (allowed) {
        CHECK_MESSAGE(created.status == 201, describe(created));
        CHECK_MESSAGE(updated.status == 200, describe(updated));
        const HttpResponse deleted = del(item_path(collection, id_of(created.json())), {auth});
        CHECK_MESSAGE(deleted.status == 200, describe(deleted));
      } else {
        CHECK(error_mismatch(created, 403, "rest_forbidden") == "");
        CHECK(error_mismatch(updated, 403, "rest_forbidden") == "");
        CHECK(error_mismatch(del(item_path(collection, existing), {auth}), 403, "rest_forbidden") == "");
      }
      CHECK(get(item_path(collection, existing), {auth}).status == 200);
    }
  }
}

TEST_CASE("visitors may read terms but not write them") {
  const long long id = make_term(kCategories, unique("visitor_cat"));
  CHECK(get(item_path(kCategories, id)).status == 200);
  CHECK(get(std::string(kCategories) + "?hide_empty=false").status == 200);
  CHECK(error_mismatch(post_json(kCategories, R"({"name": "x"})"), 401, "rest_forbidden") == "");
  CHECK(error_mismatch(post_json(kTags, "{broken"), 401, "rest_forbidden") == "");
  CHECK(error_mismatch(patch_json(item_path(kCategories, id), R"({"name": "x"})"), 401, "rest_forbidden") ==
        "");
  CHECK(error_mismatch(del(item_path(kCategories, 999999999)), 401, "rest_forbidden") == "");
}

TEST_CASE("an author's description HTML is sanitized, an editor's is kept") {
  const std::string html = R"html(<p onclick=\"x()\">Hi<script>alert(1)</script></p>)html";
  const std::string author = bearer(create_user("termhtml", "author"));
  const HttpResponse a = create_term(
      kCategories, "{\"name\": " + quoted(unique("html_a")) + ", \"description\": \"" + html + "\"}", author);
  REQUIRE_MESSAGE(a.status == 201, describe(a));
  const std::string sanitized = string_at(a.json(), {"description"});
  CHECK(sanitized.find("script") == std::string::npos);
  CHECK(sanitized.find("onclick") == std::string::npos);
  CHECK(sanitized.find("Hi") != std::string::npos);
  const HttpResponse e = create_term(
      kCategories, "{\"name\": " + quoted(unique("html_e")) + ", \"description\": \"" + html + "\"}");
  REQUIRE_MESSAGE(e.status == 201, describe(e));
  CHECK(string_at(e.json(), {"description"}) ==
        R"html(<p onclick="x()">Hi<script>alert(1)</script></p>)html");
}

}  // namespace
}  // namespace caltest
