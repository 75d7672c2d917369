// Integration tests of the venue and organizer lists (docs/api.md §4, §4.2), each run for both
// resources: paging, clamping, the 404 past the end, totals and headers, rest_url, name order,
// search with every word and correct totals, and status visibility by role.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/linked.h"

namespace caltest {
namespace {

std::string list_url(const LinkedResource& res, const std::string& query) {
  return std::string(res.collection) + "?" + query;
}

std::vector<std::string> keys_of(const rapidjson::Value& object) {
  std::vector<std::string> keys;
  for (const auto& m : object.GetObject()) keys.emplace_back(m.name.GetString(), m.name.GetStringLength());
  return keys;
}

TEST_CASE("linked lists page in name order with totals, headers and rest_url") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string word = unique("lpage");
    const long long c = create_record_id(res, word + " c");
    const long long a = create_record_id(res, word + " A");
    const long long b = create_record_id(res, word + " b");
    const std::string ns_list = base_url() + res.collection;

    HttpResponse r = get(list_url(res, "search=" + word + "&per_page=2"));
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    rapidjson::Document doc = r.json();
    CHECK(keys_of(doc) ==
          std::vector<std::string>{res.list_key, "rest_url", "next_rest_url", "total", "total_pages"});
    CHECK(doc[res.list_key].Size() == 2);
    CHECK(id_of(doc[res.list_key][0]) == a);
    CHECK(id_of(doc[res.list_key][1]) == b);
    CHECK(doc["total"].GetInt64() == 3);
    CHECK(doc["total_pages"].GetInt64() == 2);
    CHECK(string_at(doc, {"rest_url"}) == ns_list + "?page=1&per_page=2&search=" + word);
    CHECK(string_at(doc, {"next_rest_url"}) == ns_list + "?page=2&per_page=2&search=" + word);
    CHECK(r.header("x-wp-total") == "3");
    CHECK(r.header("x-wp-totalpages") == "2");
    CHECK(r.header("x-tec-total") == "3");
    CHECK(r.header("x-tec-totalpages") == "2");
    CHECK(r.header("link") == "<" + ns_list + "?page=2&per_page=2&search=" + word + ">; rel=\"next\"");

    r = get(list_url(res, "search=" + word + "&per_page=2&page=2"));
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    doc = r.json();
    CHECK(keys_of(doc) ==
          std::vector<std::string>{res.list_key, "rest_url", "previous_rest_url", "total", "total_pages"});
    CHECK(doc[res.list_key].Size() == 1);
    CHECK(id_of(doc[res.list_key][0]) == c);
    CHECK(string_at(doc, {"previous_rest_url"}) == ns_list + "?page=1&per_page=2&search=" + word);
    CHECK(r.header("link") == "<" + ns_list + "?page=1&per_page=2&search=" + word + ">; rel=\"prev\"");

    CHECK(error_mismatch(get(list_url(res, "search=" + word + "&per_page=2&page=3")), 404,
                         std::string(res.kind) + "-archive-page-not-found") == "");
  }
}

TEST_CASE("linked lists: per_page is clamped to 50, default 10, empty page 1 is 200") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    HttpResponse r = get(list_url(res, "per_page=1000"));
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(string_at(r.json(), {"rest_url"}).find("per_page=50") != std::string::npos);
    CHECK(r.json()[res.list_key].Size() <= 50);
    r = get(res.collection);
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(string_at(r.json(), {"rest_url"}) == base_url() + res.collection + "?page=1&per_page=10");
    CHECK(r.json()[res.list_key].Size() <= 10);

    const std::string nothing = unique("nothing");
    r = get(list_url(res, "search=" + nothing));
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    const rapidjson::Document doc = r.json();
    CHECK(doc[res.list_key].Size() == 0);
    CHECK(doc["total"].GetInt64() == 0);
    CHECK(doc["total_pages"].GetInt64() == 0);
    CHECK(find(doc, {"next_rest_url"}) == nullptr);
    CHECK(find(doc, {"previous_rest_url"}) == nullptr);
    CHECK(r.header("x-wp-total") == "0");
    CHECK(error_mismatch(get(list_url(res, "search=" + nothing + "&page=2")), 404,
                         std::string(res.kind) + "-archive-page-not-found") == "");
  }
}

TEST_CASE("linked lists refuse bad paging and filter values") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    for (const char* bad : {"page=0", "per_page=0", "page=x", "search=", "event=0", "event=abc",
                            "has_events=maybe", "only_with_upcoming=2", "status=bogus"}) {
      CAPTURE(bad);
      CHECK(error_mismatch(get(list_url(res, bad)), 400, "rest_invalid_param") == "");
    }
    // An event id that names no event.
    const HttpResponse r = get(list_url(res, "event=999999999"));
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
    CHECK(string_at(r.json(), {"data", "params", "event"}) != "");
  }
}

TEST_CASE("linked lists: rest_url keeps every parameter, URL-encoded") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const HttpResponse r =
        get(list_url(res, "search=a%20b%26c&has_events=false&only_with_upcoming=false&status=publish"));
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    const std::string url = string_at(r.json(), {"rest_url"});
    CHECK(url.find("search=a%20b%26c") != std::string::npos);
    CHECK(url.find("has_events=false") != std::string::npos);
    CHECK(url.find("only_with_upcoming=false") != std::string::npos);
    CHECK(url.find("status=publish") != std::string::npos);
    CHECK(url.find("page=1") != std::string::npos);
  }
}

TEST_CASE("linked lists order equal names by id") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string word = unique("ltie");
    // Same name, different descriptions: two records (no dedupe), listed by id.
    const long long first = create_record_id(res, word, R"("description":"one")");
    const long long second = create_record_id(res, word, R"("description":"two")");
    CHECK(first != second);
    CHECK(list_ids(res, list_url(res, "search=" + word)) == std::vector<long long>{first, second});
  }
}

TEST_CASE("linked list search needs every word and counts only matches") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string alpha = unique("alpha");
    const std::string beta = unique("beta");
    const long long both = create_record_id(res, alpha + " " + beta);
    const long long one = create_record_id(res, alpha + " only");
    const long long other =
        create_record_id(res, unique("Other"), "\"description\":" + json_string("about " + beta));
    CHECK(list_ids(res, list_url(res, "search=" + alpha)) == std::vector<long long>{both, one});
    CHECK(list_ids(res, list_url(res, "search=" + beta)) == std::vector<long long>{both, other});
    const HttpResponse r = get(list_url(res, "per_page=1&search=" + alpha + "%20" + beta));
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    const rapidjson::Document doc = r.json();
    CHECK(doc["total"].GetInt64() == 1);
    CHECK(doc["total_pages"].GetInt64() == 1);
    CHECK(id_of(doc[res.list_key][0]) == both);
    // Pattern characters are literal.
    CHECK(list_ids(res, list_url(res, "search=" + alpha + "%25")).empty());
  }
}

TEST_CASE("linked lists show statuses by role") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string w = unique("lvis");
    const std::string admin = bearer(admin_token());
    const long long published = create_record_id(res, w + " a published");
    const long long draft = create_record_id(res, w + " b draft", R"("status":"draft")");
    const long long own =
        id_of(create_record(res, w + " c contributor", "", role_user("contributor").auth()));
    const long long trashed = create_record_id(res, w + " d trashed");
    REQUIRE(del(item_path(res, trashed), {admin}).status == 200);
    const std::string q = list_url(res, "search=" + w);

    CHECK(list_ids(res, q) == std::vector<long long>{published});
    CHECK(list_ids(res, q, {role_user("subscriber").auth()}) == std::vector<long long>{published});
    CHECK(list_ids(res, q, {role_user("author").auth()}) == std::vector<long long>{published});
    CHECK(list_ids(res, q, {role_user("contributor").auth()}) == std::vector<long long>{published, own});
    CHECK(list_ids(res, q + "&status=draft", {role_user("contributor").auth()}) ==
          std::vector<long long>{own});
    CHECK(list_ids(res, q + "&status=trash", {role_user("contributor").auth()}).empty());
    CHECK(list_ids(res, q, {role_user("editor").auth()}) == std::vector<long long>{published, draft, own});
    CHECK(list_ids(res, q + "&status=draft", {role_user("editor").auth()}) ==
          std::vector<long long>{draft, own});
    CHECK(list_ids(res, q + "&status=trash", {admin}) == std::vector<long long>{trashed});
    CHECK(list_ids(res, q + "&status=publish,trash", {admin}) == std::vector<long long>{published, trashed});
    CHECK(list_ids(res, q + "&status=publish") == std::vector<long long>{published});
    CHECK(error_mismatch(get(q + "&status=draft"), 400, "rest_invalid_param") == "");
  }
}

}  // namespace
}  // namespace caltest
