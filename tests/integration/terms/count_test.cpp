// Integration tests of categories and tags together with events (docs/api.md §3.3, §4.4, §5): `count`
// follows publishing, trashing, deleting and re-tagging; hide_empty and orderby=count use it;
// the post/event filter; terms inside event records; events lose deleted terms.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/client.h"
#include "support/terms.h"

namespace caltest {
namespace {

using namespace terms;

std::string ids_json(std::initializer_list<long long> ids) {
  std::string out = "[";
  for (long long id : ids) out += (out.size() > 1 ? "," : "") + std::to_string(id);
  return out + "]";
}

// PATCHes the event with `json` as the admin, REQUIRE-ing 200.
void update_event(long long event, const std::string& json) {
  const HttpResponse r = patch_json(item_path(kEvents, event), json, {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
}

// The ids of the event's `key` ("categories" or "tags"), as the admin sees them.
std::vector<long long> event_term_ids(long long event, std::string_view key) {
  const HttpResponse r = get(item_path(kEvents, event) + "?context=edit", {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  return ids_in(r.json(), key);
}

TEST_CASE("count follows publishing, trashing, deleting and re-tagging") {
  const long long cat = make_term(kCategories, unique("cnt_cat"));
  const long long tag = make_term(kTags, unique("cnt_tag"));
  const long long published = make_event("publish", ids_json({cat}), ids_json({tag}));
  CHECK(term_count(kCategories, cat) == 1);
  CHECK(term_count(kTags, tag) == 1);

  const long long draft = make_event("draft", ids_json({cat}), "");
  CHECK(term_count(kCategories, cat) == 1);
  update_event(draft, R"({"status": "publish"})");
  CHECK(term_count(kCategories, cat) == 2);
  update_event(published, R"({"status": "draft"})");
  CHECK(term_count(kCategories, cat) == 1);
  CHECK(term_count(kTags, tag) == 0);
  update_event(published, R"({"status": "publish"})");
  CHECK(term_count(kCategories, cat) == 2);
  CHECK(term_count(kTags, tag) == 1);

  // Trash, then delete for good.
  REQUIRE(del(item_path(kEvents, published), {admin()}).status == 200);
  CHECK(term_count(kCategories, cat) == 1);
  CHECK(term_count(kTags, tag) == 0);
  REQUIRE(del(item_path(kEvents, published) + "?force=true", {admin()}).status == 200);
  CHECK(term_count(kCategories, cat) == 1);

  // Re-tagging.
  update_event(draft, R"({"categories": []})");
  CHECK(term_count(kCategories, cat) == 0);
  update_event(draft, "{\"categories\": " + ids_json({cat}) + "}");
  CHECK(term_count(kCategories, cat) == 1);
  update_event(draft, R"({"categories": ""})");
  CHECK(term_count(kCategories, cat) == 0);
}

TEST_CASE("events carry the same term records as the term routes") {
  const long long cat = make_term(kCategories, unique("rec_cat"), R"("description": "inside")");
  const long long tag = make_term(kTags, unique("rec_tag"));
  const long long event = make_event("publish", ids_json({cat}), ids_json({tag}));
  const HttpResponse r = get(item_path(kEvents, event));
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  const rapidjson::Document doc = r.json();
  const rapidjson::Document cat_doc = get(item_path(kCategories, cat)).json();
  const rapidjson::Document tag_doc = get(item_path(kTags, tag)).json();
  const rapidjson::Value* in_event = find(doc, {"categories", "0"});
  REQUIRE(in_event != nullptr);
  CHECK(*in_event == cat_doc);
  in_event = find(doc, {"tags", "0"});
  REQUIRE(in_event != nullptr);
  CHECK(*in_event == tag_doc);
  CHECK(cat_doc["count"].GetInt64() == 1);
}

TEST_CASE("event categories and tags may be names, created when missing") {
  const std::string cat_name = unique("Named Cat");
  const std::string tag_name = unique("named_tag");
  const long long existing = make_term(kTags, unique("named_existing"));
  const long long event =
      make_event("publish", "[" + quoted(cat_name) + "]", quoted(tag_name + ", " + std::to_string(existing)));
  const HttpResponse cats = get(std::string(kCategories) + "?search=Named%20" + cat_name.substr(6));
  REQUIRE_MESSAGE(cats.status == 200, describe(cats));
  const rapidjson::Document cat_doc = cats.json();
  CHECK(names_in(cat_doc, "categories") == std::vector<std::string>{cat_name});
  CHECK(event_term_ids(event, "categories") == ids_in(cat_doc, "categories"));
  std::vector<long long> tags = event_term_ids(event, "tags");
  CHECK(tags.size() == 2);
  CHECK(std::find(tags.begin(), tags.end(), existing) != tags.end());
  // The same name again reuses the term, case-insensitively.
  const long long again = make_event("publish", "[" + quoted(cat_name) + "]", "");
  CHECK(event_term_ids(again, "categories") == ids_in(cat_doc, "categories"));
}

TEST_CASE("an unknown term id in an event is 400") {
  const long long tag = make_term(kTags, unique("wrong_tax"));
  for (const std::string& categories : {std::string("[999999999]"), ids_json({tag}), std::string("[true]")}) {
    CAPTURE(categories);
    const std::string body =
        "{\"title\": \"x\", \"start_date\": \"2031-01-01 10:00\", \"end_date\": "
        "\"2031-01-01 11:00\", \"categories\": " +
        categories + "}";
    CHECK(error_mismatch(post_json(kEvents, body, {admin()}), 400, "rest_invalid_param") == "");
  }
}

TEST_CASE("hide_empty and orderby=count use the published count") {
  const std::string p = unique("byc");
  const long long two = make_term(kCategories, p + " a");
  const long long one = make_term(kCategories, p + " b");
  const long long none = make_term(kCategories, p + " c");
  make_event("publish", ids_json({two, one}), "");
  make_event("publish", ids_json({two}), "");
  make_event("draft", ids_json({none}), "");
  const std::string base = std::string(kCategories) + "?search=" + p;
  CHECK(list_ids(base, "categories") == std::vector<long long>{two, one});
  CHECK(list_ids(base + "&hide_empty=false", "categories") == std::vector<long long>{two, one, none});
  CHECK(list_ids(base + "&hide_empty=false&orderby=count", "categories") ==
        std::vector<long long>{none, one, two});
  CHECK(list_ids(base + "&hide_empty=false&orderby=count&order=desc", "categories") ==
        std::vector<long long>{two, one, none});
  CHECK(list_ids(base + "&orderby=count", "categories") == std::vector<long long>{one, two});
}

TEST_CASE("post and event list the event's terms; event wins") {
  const std::string p = unique("evf");
  const long long c1 = make_term(kCategories, p + " one");
  const long long c2 = make_term(kCategories, p + " two");
  const long long other = make_term(kCategories, p + " other");
  const long long tag = make_term(kTags, p + "_tag");
  const long long draft = make_event("draft", ids_json({c1, c2}), ids_json({tag}));
  const long long published = make_event("publish", ids_json({other, c1}), "");
  const std::string cats = std::string(kCategories) + "?";
  // The draft's terms have count 0 (c1 has 1): shown anyway, unless hide_empty is sent.
  CHECK(list_ids(cats + "event=" + std::to_string(draft), "categories") == std::vector<long long>{c1, c2});
  CHECK(list_ids(cats + "post=" + std::to_string(draft), "categories") == std::vector<long long>{c1, c2});
  CHECK(list_ids(cats + "event=" + std::to_string(draft) + "&hide_empty=true", "categories") ==
        std::vector<long long>{c1});
  CHECK(list_ids(cats + "post=" + std::to_string(draft) + "&event=" + std::to_string(published),
                 "categories") == std::vector<long long>{c1, other});
  CHECK(list_ids(std::string(kTags) + "?event=" + std::to_string(draft), "tags") ==
        std::vector<long long>{tag});
  CHECK(list_ids(std::string(kTags) + "?event=" + std::to_string(published), "tags").empty());

  // A visitor may not look into a draft: 400 as for an unknown event.
  CHECK(error_mismatch(get(cats + "event=" + std::to_string(draft)), 400, "rest_invalid_param") == "");
  const HttpResponse visitor = get(cats + "event=" + std::to_string(published));
  REQUIRE_MESSAGE(visitor.status == 200, describe(visitor));
  CHECK(ids_in(visitor.json(), "categories") == std::vector<long long>{c1, other});

  // A venue id is no event.
  const HttpResponse venue =
      post_json("/cal/events/v1/venues", "{\"venue\": " + quoted(unique("evf_venue")) + "}", {admin()});
  REQUIRE_MESSAGE(venue.status == 201, describe(venue));
  CHECK(error_mismatch(get(cats + "event=" + std::to_string(id_of(venue.json()))), 400,
                       "rest_invalid_param") == "");
}

TEST_CASE("a password-protected event shows its terms only to those who may edit it") {
  const long long cat = make_term(kCategories, unique("pw_cat"));
  const long long event = make_event("publish", ids_json({cat}), "");
  update_event(event, R"({"password": "secret"})");
  const std::string path = std::string(kCategories) + "?event=" + std::to_string(event);
  CHECK(list_ids(path, "categories") == std::vector<long long>{cat});  // the admin
  const HttpResponse visitor = get(path);
  REQUIRE_MESSAGE(visitor.status == 200, describe(visitor));
  CHECK(ids_in(visitor.json(), "categories").empty());
}

TEST_CASE("deleting a term removes it from events and returns its count") {
  const long long cat = make_term(kCategories, unique("gone_cat"));
  const long long keep = make_term(kCategories, unique("kept_cat"));
  const long long tag = make_term(kTags, unique("gone_tag"));
  const long long event = make_event("publish", ids_json({cat, keep}), ids_json({tag}));
  HttpResponse r = del(item_path(kCategories, cat), {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(r.json()["count"].GetInt64() == 1);
  r = del(item_path(kTags, tag), {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(event_term_ids(event, "categories") == std::vector<long long>{keep});
  CHECK(event_term_ids(event, "tags").empty());
  CHECK(term_count(kCategories, keep) == 1);
}

}  // namespace
}  // namespace caltest
