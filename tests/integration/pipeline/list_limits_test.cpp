// The list limits of docs/api.md §1.3: every list-valued input takes at most its documented number
// of items. At the limit the request is served; one past it answers 400 rest_invalid_param naming
// the parameter and the limit, before anything is written; the root index and /doc state each
// limit as maxItems.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "support/client.h"

namespace caltest {
namespace {

constexpr const char* kNs = "/cal/events/v1";

std::string admin() { return bearer(admin_token()); }

std::string path(std::string_view rest) { return std::string(kNs) + std::string(rest); }

long long create(std::string_view collection, const std::string& json) {
  const HttpResponse r = post_json(path(collection), json, {admin()});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  return r.json()["id"].GetInt64();
}

// `item` `count` times, joined by `separator`.
std::string repeated(const std::string& item, std::size_t count, const std::string& separator = ",") {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += (i ? separator : "") + item;
  return out;
}

// "" when `r` is the 400 of a list past its limit: rest_invalid_param whose data.params names
// `param` with a message stating `limit`.
std::string over_limit_mismatch(const HttpResponse& r, const std::string& param, std::size_t limit) {
  if (std::string m = error_mismatch(r, 400, "rest_invalid_param"); !m.empty()) return m;
  const std::string message = string_at(r.json(), {"data", "params", param});
  if (message.find(std::to_string(limit)) == std::string::npos)
    return "data.params." + param + " does not state the limit: " + describe(r);
  return "";
}

// The number of tags whose name or slug contains `text` ("": all tags).
std::string tags_matching(const std::string& text) {
  const HttpResponse r =
      get(path("/tags?hide_empty=false") + (text.empty() ? "" : "&search=" + text), {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  return r.header("x-wp-total");
}

std::string event_json(const std::string& title, const std::string& member) {
  return "{\"title\":\"" + title +
         "\",\"start_date\":\"2031-03-01 10:00:00\",\"end_date\":\"2031-03-01 11:00:00\"," + member + "}";
}

// The JSON array of `count` strings `prefix`_i.
std::string names(const std::string& prefix, std::size_t count) {
  std::string out = "[";
  for (std::size_t i = 0; i < count; ++i) out += (i ? ",\"" : "\"") + prefix + "_" + std::to_string(i) + "\"";
  return out + "]";
}

TEST_CASE("list limits: an event takes at most 100 tags and categories, refused before any write") {
  for (const std::string param : {"tags", "categories"}) {
    CAPTURE(param);
    const std::string prefix = unique("limit" + param.substr(0, 3));
    const std::string title = unique("limitev");
    // One past: nothing is created, neither the event nor a term.
    const HttpResponse over =
        post_json(path("/events"), event_json(title, "\"" + param + "\":" + names(prefix, 101)), {admin()});
    CHECK(over_limit_mismatch(over, param, 100) == "");
    CHECK(get(path("/events?search=") + title, {admin()}).header("x-wp-total") == "0");
    if (param == "tags") CHECK(tags_matching(prefix) == "0");
    // At the limit: served, every term linked.
    const HttpResponse at =
        post_json(path("/events"), event_json(title, "\"" + param + "\":" + names(prefix, 100)), {admin()});
    REQUIRE_MESSAGE(at.status == 201, describe(at));
    CHECK(at.json()[param.c_str()].Size() == 100);
  }
  // A comma list and a form body count the same way.
  const std::string prefix = unique("limitform");
  std::string over_list;
  for (int i = 0; i < 101; ++i) over_list += (i ? "," : "") + prefix + "_" + std::to_string(i);
  CHECK(over_limit_mismatch(
            post_form(path("/events"), "title=x&start_date=2031-03-01&end_date=2031-03-01&tags=" + over_list,
                      {admin()}),
            "tags", 100) == "");
  std::string form_items;
  for (int i = 0; i < 101; ++i)
    form_items += "&tags[" + std::to_string(i) + "]=" + prefix + "_" + std::to_string(i);
  CHECK(over_limit_mismatch(
            post_form(path("/events"), "title=x&start_date=2031-03-01&end_date=2031-03-01" + form_items,
                      {admin()}),
            "tags", 100) == "");
  CHECK(tags_matching(prefix) == "0");
}

TEST_CASE("list limits: 60,000 new tag names answer 400 at once, creating nothing") {
  // Short names, so that the body stays under max_body (1 MiB) and reaches the validator.
  const std::string before = tags_matching("");
  const std::string title = unique("limitbulk");
  std::string tags = "[";
  for (int i = 0; i < 60000; ++i) tags += (i ? ",\"t" : "\"t") + std::to_string(i) + "\"";
  tags += "]";
  std::chrono::milliseconds took{};
  const HttpResponse r = send({.url = base_url() + path("/events"),
                               .method = "POST",
                               .body = event_json(title, "\"tags\":" + tags),
                               .headers = {"Content-Type: application/json", admin()}},
                              &took);
  CHECK(over_limit_mismatch(r, "tags", 100) == "");
  CHECK(took < std::chrono::seconds(3));
  CHECK(tags_matching("") == before);
  CHECK(get(path("/events?search=") + title, {admin()}).header("x-wp-total") == "0");
}

TEST_CASE("list limits: an event takes at most 100 organizers, refused before any write") {
  const std::string prefix = unique("limitorg");
  const std::string title = unique("limitorged");
  auto organizers = [&](std::size_t n) {
    std::string out = "[";
    for (std::size_t i = 0; i < n; ++i)
      out += std::string(i ? "," : "") + "{\"organizer\":\"" + prefix + " " + std::to_string(i) + "\"}";
    return out + "]";
  };
  CHECK(over_limit_mismatch(
            post_json(path("/events"), event_json(title, "\"organizer\":" + organizers(101)), {admin()}),
            "organizer", 100) == "");
  CHECK(get(path("/organizers?search=") + prefix, {admin()}).header("x-wp-total") == "0");
  const HttpResponse at =
      post_json(path("/events"), event_json(title, "\"organizer\":" + organizers(100)), {admin()});
  REQUIRE_MESSAGE(at.status == 201, describe(at));
  CHECK(at.json()["organizer"].Size() == 100);
}

TEST_CASE("list limits: list filters take at most 1,000 ids or slugs and 100 statuses") {
  const long long venue = create("/venues", "{\"venue\":\"" + unique("Limit venue") + "\"}");
  const long long organizer = create("/organizers", "{\"organizer\":\"" + unique("Limit org") + "\"}");
  const long long category = create("/categories", "{\"name\":\"" + unique("Limit cat") + "\"}");
  const long long tag = create("/tags", "{\"name\":\"" + unique("Limit tag") + "\"}");
  struct Case {
    std::string route, param, item;
    std::size_t limit;
  };
  const std::vector<Case> cases = {
      {"/events", "include", "1", 1000},
      {"/events", "venue", std::to_string(venue), 1000},
      {"/events", "organizer", std::to_string(organizer), 1000},
      {"/events", "categories", std::to_string(category), 1000},
      {"/events", "tags", std::to_string(tag), 1000},
      {"/events", "status", "publish", 100},
      {"/venues", "status", "publish", 100},
      {"/organizers", "status", "publish", 100},
      {"/categories", "include", std::to_string(category), 1000},
      {"/categories", "exclude", std::to_string(category), 1000},
      {"/tags", "include", std::to_string(tag), 1000},
      {"/tags", "exclude", std::to_string(tag), 1000},
      {"/changes", "kinds", "event", 100},
  };
  for (const Case& c : cases) {
    CAPTURE(c.route);
    CAPTURE(c.param);
    const std::string url = path(c.route) + "?" + c.param + "=";
    const HttpResponse at = get(url + repeated(c.item, c.limit), {admin()});
    CHECK_MESSAGE(at.status == 200, describe(at));
    CHECK(over_limit_mismatch(get(url + repeated(c.item, c.limit + 1), {admin()}), c.param, c.limit) == "");
    // The a[]= form counts the same (where the URL stays within nginx's 8 KB request line).
    if (c.limit * (c.param.size() + c.item.size() + 4) > 7000) continue;
    const std::string brackets =
        path(c.route) + "?" + c.param + "[]=" + repeated(c.item, c.limit + 1, "&" + c.param + "[]=");
    CHECK(over_limit_mismatch(get(brackets, {admin()}), c.param, c.limit) == "");
  }
}

TEST_CASE("list limits: the root index and /doc state every maximum") {
  const rapidjson::Document index = get(kNs).json();
  const rapidjson::Document doc = get(path("/doc")).json();
  struct Case {
    std::string route, method, param;
    int limit;
  };
  const std::vector<Case> cases = {
      {"/events", "POST", "tags", 100},        {"/events", "POST", "categories", 100},
      {"/events", "POST", "organizer", 100},   {"/events", "GET", "include", 1000},
      {"/events", "GET", "categories", 1000},  {"/events", "GET", "tags", 1000},
      {"/events", "GET", "venue", 1000},       {"/events", "GET", "organizer", 1000},
      {"/events", "GET", "status", 100},       {"/venues", "GET", "status", 100},
      {"/organizers", "GET", "status", 100},   {"/categories", "GET", "include", 1000},
      {"/categories", "GET", "exclude", 1000}, {"/tags", "GET", "include", 1000},
      {"/tags", "GET", "exclude", 1000},
  };
  for (const Case& c : cases) {
    CAPTURE(c.route);
    CAPTURE(c.method);
    CAPTURE(c.param);
    // Root index: the endpoint of the route that has this method.
    const rapidjson::Value* endpoints = find(index, {"routes", path(c.route), "endpoints"});
    REQUIRE(endpoints != nullptr);
    const rapidjson::Value* arg = nullptr;
    for (const auto& e : endpoints->GetArray())
      for (const auto& m : e["methods"].GetArray())
        if (c.method == m.GetString()) arg = find(e, {"args", c.param});
    REQUIRE(arg != nullptr);
    const rapidjson::Value* max = find(*arg, {"maxItems"});
    REQUIRE(max != nullptr);
    CHECK(max->GetInt() == c.limit);
    // OpenAPI: the array form of the parameter's schema.
    const std::string method = c.method == "GET" ? "get" : "post";
    const rapidjson::Value* op = find(doc, {"paths", c.route, method});
    REQUIRE(op != nullptr);
    const rapidjson::Value* schema = nullptr;
    if (method == "get") {
      for (const auto& p : (*op)["parameters"].GetArray())
        if (c.param == p["name"].GetString()) schema = find(p, {"schema"});
    } else {
      schema = find(*op, {"requestBody", "content", "application/json", "schema", "properties", c.param});
    }
    REQUIRE(schema != nullptr);
    const rapidjson::Value* array = schema;
    if (schema->HasMember("oneOf"))
      for (const auto& a : (*schema)["oneOf"].GetArray())
        if (std::string("array") == a["type"].GetString()) array = &a;
    CHECK(string_at(*array, {"type"}) == "array");
    const rapidjson::Value* doc_max = find(*array, {"maxItems"});
    REQUIRE(doc_max != nullptr);
    CHECK(doc_max->GetInt() == c.limit);
  }
}

}  // namespace
}  // namespace caltest
