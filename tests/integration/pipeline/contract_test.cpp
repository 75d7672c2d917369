// Integration tests of contract rules found broken by black-box testing, kept so they stay fixed:
// `cost` as an array of prices (docs/api.md §3.1), path id 0 naming no record (docs/api.md §1.1, §2), every
// per-field failure gathered into one 400 before anything is written (docs/api.md §1.3), and an empty
// value of a list parameter refused on every list route.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

constexpr const char* kNs = "/cal/events/v1";

// The names in data.params of a 400 rest_invalid_param.
std::set<std::string> invalid_names(const HttpResponse& r) {
  std::set<std::string> names;
  const rapidjson::Document doc = r.json();
  const rapidjson::Value* params = find(doc, {"data", "params"});
  if (params && params->IsObject())
    for (const auto& m : params->GetObject()) names.emplace(m.name.GetString(), m.name.GetStringLength());
  return names;
}

// The `total` of a list answered with 200 (REQUIREd).
long long total_of(const std::string& path) {
  const HttpResponse r = get(path, {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  return int_at(r.json(), {"total"});
}

// --- 1. cost as an array of prices -------------------------------------------------------

TEST_CASE("cost sent as a JSON array of prices is shown as min – max with sorted values") {
  const rapidjson::Document doc = create(
      event_body(unique("Cost Array"), "2031-03-01 10:00", "2031-03-01 11:00", R"("cost":["30$","0$",20])"));
  CHECK(string_at(doc, {"cost"}) == "Free – 30$");
  CHECK(strings_at(doc, {"cost_details", "values"}) == std::vector<std::string>{"0", "20", "30"});
  CHECK(string_at(doc, {"cost_details", "currency_symbol"}) == "$");
  CHECK(string_at(doc, {"cost_details", "currency_position"}) == "postfix");
}

TEST_CASE("cost[]= in a form body is an array of prices") {
  const std::string form = "title=" + unique("cost_form") +
                           "&start_date=2031-03-02%2010%3A00&end_date=2031-03-02%2011%3A00"
                           "&cost%5B%5D=0%24&cost%5B%5D=20%24&cost%5B%5D=30%24";
  const HttpResponse r = post_form(kEvents, form, {admin()});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  const rapidjson::Document doc = r.json();
  CHECK(string_at(doc, {"cost"}) == "Free – 30$");
  CHECK(strings_at(doc, {"cost_details", "values"}) == std::vector<std::string>{"0", "20", "30"});
}

TEST_CASE("cost arrays holding anything but texts and numbers are refused") {
  for (const std::string cost : {R"([{"a":1}])", R"([true])", R"([["1"]])", R"({"a":"1"})"}) {
    CAPTURE(cost);
    const HttpResponse r = post_json(
        kEvents, event_body(unique("Cost Bad"), "2031-03-03 10:00", "2031-03-03 11:00", "\"cost\":" + cost),
        {admin()});
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
    CHECK(invalid_names(r) == std::set<std::string>{"cost"});
  }
}

// --- 2. id 0 -----------------------------------------------------------------------------

struct ZeroIdCase {
  const char* collection;
  const char* not_found;
  const char* update_body;
};

const ZeroIdCase kZeroIdCases[] = {
    {"/events", "rest-event-not-found", R"({"title":"x"})"},
    {"/venues", "rest-venue-not-found", R"({"venue":"x"})"},
    {"/organizers", "rest-organizer-not-found", R"({"organizer":"x"})"},
    {"/categories", "rest_term_invalid", R"({"name":"x"})"},
    {"/tags", "rest_term_invalid", R"({"name":"x"})"},
};

TEST_CASE("path id 0 names no record: 404 on every method, 401 first for visitors on writes") {
  for (const ZeroIdCase& c : kZeroIdCases) {
    const std::string path = std::string(kNs) + c.collection + "/0";
    CAPTURE(path);
    CHECK(error_mismatch(get(path), 404, c.not_found) == "");
    CHECK(error_mismatch(get(path, {admin()}), 404, c.not_found) == "");
    for (const char* method : {"POST", "PUT", "PATCH"}) {
      CAPTURE(method);
      CHECK(error_mismatch(request(method, path, c.update_body, {admin(), "Content-Type: application/json"}),
                           404, c.not_found) == "");
      CHECK(error_mismatch(request(method, path, c.update_body, {"Content-Type: application/json"}), 401,
                           "rest_forbidden") == "");
    }
    CHECK(error_mismatch(del(path, {admin()}), 404, c.not_found) == "");
    CHECK(error_mismatch(del(path + "?force=true", {admin()}), 404, c.not_found) == "");
    CHECK(error_mismatch(del(path), 401, "rest_forbidden") == "");
  }
}

// --- 3. every per-field failure in one 400, nothing written --------------------------------

struct GatherCase {
  const char* what;
  const char* collection;
  std::string body;
  std::set<std::string> bad;
};

TEST_CASE("every invalid field of a write is named in one 400") {
  const std::string big_zip(70, '9');
  const GatherCase cases[] = {
      {"event: title, timezone, website",
       "/events",
       R"({"title":7,"timezone":"Nowhere/Land","website":"not a url","start_date":"2031-04-01 10:00","end_date":"2031-04-01 11:00"})",
       {"title", "timezone", "website"}},
      {"event: ids that must exist, image, cost, author",
       "/events",
       R"({"title":"x","start_date":"someday","end_date":"2031-04-01 11:00",)"
       R"("categories":[999999991],"tags":[999999992],"venue":999999993,"organizer":[999999994],)"
       R"("image":"not an image","cost":[null],"author":999999995})",
       {"categories", "tags", "venue", "organizer", "image", "cost", "author", "start_date"}},
      {"venue: website, show_map, zip, image",
       "/venues",
       R"({"venue":"x","website":"not a url","show_map":{"a":1},"zip":")" + big_zip +
           R"(","image":999999996})",
       {"website", "show_map", "zip", "image"}},
      {"organizer: email, website, image",
       "/organizers",
       R"({"organizer":"x","email":"nope","website":"/relative","image":"ftp://x.example/a.png"})",
       {"email", "website", "image"}},
      {"category: parent, slug, description type",
       "/categories",
       R"({"name":"x","parent":999999997,"slug":"---","description":5})",
       {"parent", "slug", "description"}},
      {"tag: name, slug (parent is no tag input: ignored)",
       "/tags",
       R"({"name":"   ","slug":"!!!","parent":0})",
       {"name", "slug"}},
  };
  for (const GatherCase& c : cases) {
    CAPTURE(c.what);
    const HttpResponse r = post_json(std::string(kNs) + c.collection, c.body, {admin()});
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
    CHECK(invalid_names(r) == c.bad);
  }
}

TEST_CASE("a write refused for one bad field creates none of the records its valid fields name") {
  const std::string title = unique("gather_event");
  const std::string venue = unique("gather_venue");
  const std::string organizer = unique("gather_organizer");
  const std::string tag = unique("gathertag");
  const std::string category = unique("gathercat");
  const HttpResponse r =
      post_json(kEvents,
                event_body(title, "2031-04-02 10:00", "2031-04-02 11:00",
                           "\"venue\":{\"venue\":" + quoted(venue) +
                               "},\"organizer\":[{\"organizer\":" + quoted(organizer) + "}],\"tags\":[" +
                               quoted(tag) + "],\"categories\":" + quoted(category) +
                               ",\"timezone\":\"Nowhere/Land\",\"website\":\"not a url\""),
                {admin()});
  CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
  CHECK(invalid_names(r) == std::set<std::string>{"timezone", "website"});
  CHECK(total_of(std::string(kEvents) +
                 "?starts_after=1900-01-01&status=publish,draft,pending,future,private&search=" + title) ==
        0);
  CHECK(total_of(std::string(kNs) + "/venues?search=" + venue) == 0);
  CHECK(total_of(std::string(kNs) + "/organizers?search=" + organizer) == 0);
  CHECK(total_of(std::string(kNs) + "/tags?hide_empty=false&search=" + tag) == 0);
  CHECK(total_of(std::string(kNs) + "/categories?hide_empty=false&search=" + category) == 0);

  // The same request with valid fields creates all of them: the searches above can find them.
  const HttpResponse ok =
      post_json(kEvents,
                event_body(title, "2031-04-02 10:00", "2031-04-02 11:00",
                           "\"venue\":{\"venue\":" + quoted(venue) +
                               "},\"organizer\":[{\"organizer\":" + quoted(organizer) + "}],\"tags\":[" +
                               quoted(tag) + "],\"categories\":" + quoted(category)),
                {admin()});
  REQUIRE_MESSAGE(ok.status == 201, describe(ok));
  CHECK(total_of(std::string(kEvents) + "?starts_after=1900-01-01&search=" + title) == 1);
  CHECK(total_of(std::string(kNs) + "/venues?search=" + venue) == 1);
  CHECK(total_of(std::string(kNs) + "/organizers?search=" + organizer) == 1);
  CHECK(total_of(std::string(kNs) + "/tags?hide_empty=false&search=" + tag) == 1);
  CHECK(total_of(std::string(kNs) + "/categories?hide_empty=false&search=" + category) == 1);
}

TEST_CASE("every invalid filter of a list is named in one 400") {
  const GatherCase cases[] = {
      {"events",
       "/events",
       "?categories=999999991&tags=no-such-tag-slug-x&venue=999999993&organizer=999999994&post_parent="
       "999999995&page=0",
       {"categories", "tags", "venue", "organizer", "post_parent", "page"}},
      {"venues", "/venues", "?event=999999995&page=0", {"event", "page"}},
      {"organizers", "/organizers", "?event=999999995&has_events=maybe", {"event", "has_events"}},
      {"categories",
       "/categories",
       "?include=999999991&exclude=999999992&parent=999999993&post=999999995&order=up",
       {"include", "exclude", "parent", "post", "order"}},
      {"tags", "/tags", "?include=999999991&event=999999995&orderby=parent", {"include", "event", "orderby"}},
  };
  for (const GatherCase& c : cases) {
    CAPTURE(c.what);
    const HttpResponse r = get(std::string(kNs) + c.collection + c.body);
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
    CHECK(invalid_names(r) == c.bad);
  }
}

// --- 4. an empty value of a list parameter ------------------------------------------------

struct ListParam {
  const char* collection;
  const char* param;
};

// Every list route × every list parameter it declares (checked against the namespace index below).
const ListParam kListParams[] = {
    {"/events", "categories"},  {"/events", "tags"},        {"/events", "venue"},  {"/events", "organizer"},
    {"/events", "status"},      {"/events", "include"},     {"/venues", "status"}, {"/organizers", "status"},
    {"/categories", "include"}, {"/categories", "exclude"}, {"/tags", "include"},  {"/tags", "exclude"},
};

TEST_CASE("an empty value of any list parameter is 400 naming it, for visitors and editors alike") {
  for (const ListParam& p : kListParams) {
    for (const std::string value : {"", "%20"}) {
      const std::string path = std::string(kNs) + p.collection + "?" + p.param + "=" + value;
      CAPTURE(path);
      for (const std::vector<std::string>& auth :
           {std::vector<std::string>{}, std::vector<std::string>{admin()}}) {
        const HttpResponse r = get(path, auth);
        CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
        CHECK(invalid_names(r) == std::set<std::string>{p.param});
      }
    }
  }
}

TEST_CASE("the empty-value table covers every list parameter the namespace index declares") {
  const HttpResponse r = get(kNs);
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  const rapidjson::Document doc = r.json();
  const rapidjson::Value* routes = find(doc, {"routes"});
  REQUIRE(routes != nullptr);
  REQUIRE(routes->IsObject());
  std::set<std::string> declared;
  for (const char* collection : {"/events", "/venues", "/organizers", "/categories", "/tags"}) {
    const std::string key = std::string(kNs) + collection;
    const rapidjson::Value* route = find(*routes, {key});
    REQUIRE_MESSAGE(route != nullptr, key);
    const rapidjson::Value* endpoints = find(*route, {"endpoints"});
    REQUIRE(endpoints != nullptr);
    REQUIRE(endpoints->IsArray());
    for (const auto& e : endpoints->GetArray()) {
      if (strings_at(e, {"methods"}) != std::vector<std::string>{"GET"}) continue;
      const rapidjson::Value* args = find(e, {"args"});
      REQUIRE(args != nullptr);
      for (const auto& a : args->GetObject()) {
        // "array", or a list of types with "array" among them (a status or a list of them).
        const std::vector<std::string> types = a.value["type"].IsArray()
                                                   ? strings_at(a.value, {"type"})
                                                   : std::vector<std::string>{string_at(a.value, {"type"})};
        if (std::find(types.begin(), types.end(), "array") != types.end())
          declared.insert(std::string(collection) + " " + a.name.GetString());
      }
    }
  }
  std::set<std::string> tabled;
  for (const ListParam& p : kListParams) tabled.insert(std::string(p.collection) + " " + p.param);
  REQUIRE_FALSE(declared.empty());
  CHECK(declared == tabled);
}

}  // namespace
}  // namespace caltest
