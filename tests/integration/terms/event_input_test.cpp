// Integration tests of how events name their terms (docs/api.md §4.1, §5, §7): names resolve to the
// top-level term first, new names need the right to create terms of that taxonomy, and the
// events list's `categories`/`tags` filters accept ids or slugs (a numeric slug too) of the
// right taxonomy only.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "support/client.h"
#include "support/terms.h"

namespace caltest {
namespace {

using namespace terms;

// POST an event with raw JSON `categories` and `tags` values ("" leaves one out) as `auth`.
HttpResponse post_event(const std::string& auth, const std::string& categories, const std::string& tags) {
  std::string body = "{\"title\": " + quoted(unique("input_event")) +
                     ", \"start_date\": \"2031-05-06 10:00:00\", \"end_date\": \"2031-05-06 11:00:00\"";
  if (!categories.empty()) body += ", \"categories\": " + categories;
  if (!tags.empty()) body += ", \"tags\": " + tags;
  return post_json(kEvents, body + "}", {auth});
}

TEST_CASE("an event's term name resolves to the top-level term first") {
  const std::string name = unique("Level Name");
  const long long parent = make_term(kCategories, unique("level_parent"));
  const long long child = make_term(kCategories, name, "\"parent\": " + std::to_string(parent));
  const long long top = make_term(kCategories, name);
  CHECK(child < top);
  const HttpResponse r = post_event(admin(), "[" + quoted(name) + "]", "");
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  CHECK(ids_in(r.json(), "categories") == std::vector<long long>{top});
}

TEST_CASE("new term names in an event need the right to create terms of that taxonomy") {
  struct Case {
    const char* role;
    bool new_category;
    bool new_tag;
  };
  const Case cases[] = {{"editor", true, true}, {"author", true, false}, {"contributor", false, false}};
  const long long known_cat = make_term(kCategories, unique("known_cat"));
  const long long known_tag = make_term(kTags, unique("known_tag"));
  const std::string known_cat_name = string_at(get(item_path(kCategories, known_cat)).json(), {"name"});
  for (const Case& c : cases) {
    CAPTURE(c.role);
    const std::string auth = bearer(create_user("terminput", c.role));
    // Existing terms, by name or id, are open to every role that may write events.
    const HttpResponse known =
        post_event(auth, "[" + quoted(known_cat_name) + "]", "[" + std::to_string(known_tag) + "]");
    CHECK_MESSAGE(known.status == 201, describe(known));

    const std::string cat_name = unique("fresh_cat");
    const HttpResponse cat = post_event(auth, "[" + quoted(cat_name) + "]", "");
    if (c.new_category)
      CHECK_MESSAGE(cat.status == 201, describe(cat));
    else
      CHECK(error_mismatch(cat, 403, "rest_forbidden") == "");

    const std::string tag_name = unique("fresh_tag");
    const HttpResponse tag = post_event(auth, "", "[" + quoted(tag_name) + "]");
    if (c.new_tag)
      CHECK_MESSAGE(tag.status == 201, describe(tag));
    else
      CHECK(error_mismatch(tag, 403, "rest_forbidden") == "");

    // A refused write created nothing.
    if (!c.new_category)
      CHECK(
          list_ids(std::string(kCategories) + "?hide_empty=false&search=" + cat_name, "categories").empty());
    if (!c.new_tag)
      CHECK(list_ids(std::string(kTags) + "?hide_empty=false&search=" + tag_name, "tags").empty());
  }
}

TEST_CASE("the events filters take ids or slugs of their own taxonomy, numeric slugs included") {
  // A slug of digits no term id reaches, different in every run.
  const std::string digits =
      std::to_string(900000000000000ULL + std::hash<std::string>{}(unique("digits")) % 99999999999999ULL);
  const long long numeric = make_term(kCategories, unique("numeric_slug"), "\"slug\": " + quoted(digits));
  const long long tag = make_term(kTags, unique("filter_tag"));
  const HttpResponse created =
      post_event(admin(), "[" + std::to_string(numeric) + "]", "[" + std::to_string(tag) + "]");
  REQUIRE_MESSAGE(created.status == 201, describe(created));
  const long long event = id_of(created.json());
  const std::string base = std::string(kEvents) + "?start_date=2031-05-06&end_date=2031-05-06&per_page=50&";
  auto has_event = [&](const std::string& query) {
    const std::vector<long long> ids = list_ids(base + query, "events");
    return std::find(ids.begin(), ids.end(), event) != ids.end();
  };
  CHECK(has_event("categories=" + digits));  // no category has that id: read as a slug
  CHECK(has_event("categories=" + std::to_string(numeric)));
  CHECK(has_event("tags=" + std::to_string(tag)));
  for (const std::string& bad :
       {"categories=" + std::to_string(tag), "tags=" + std::to_string(numeric), "tags=" + digits}) {
    CAPTURE(bad);
    CHECK(error_mismatch(get(base + bad), 400, "rest_invalid_param") == "");
  }
}

}  // namespace
}  // namespace caltest
