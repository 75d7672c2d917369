// WordPress discovery: the REST root index GET {root}/ (what WPAPI.discover and other clients
// read), the `Link: <{root}/>; rel="https://api.w.org/"` header on every answer, and
// `?rest_route=` as an alternative to PATH_INFO for hosts without pretty URLs.
#include <doctest/doctest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "support/client.h"

namespace caltest {
namespace {

constexpr const char* kEvents = "/cal/events/v1/events";

std::string root_link() { return "<" + base_url() + "/>; rel=\"https://api.w.org/\""; }

// Whether one of the response's Link headers is the discovery link.
bool has_root_link(const HttpResponse& r) {
  for (const auto& [name, value] : r.headers)
    if (name == "link" && value == root_link()) return true;
  return false;
}

TEST_CASE("discovery: GET {root}/ is the REST root index in WordPress's shape") {
  for (const std::string path : {"/", ""}) {
    CAPTURE(path);
    const HttpResponse r = get(path);
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    const rapidjson::Document d = r.json();
    CHECK(!string_at(d, {"name"}).empty());
    CHECK(!string_at(d, {"description"}).empty());
    const std::string site = base_url().substr(0, base_url().rfind("/api"));
    CHECK(string_at(d, {"url"}) == site);
    CHECK(string_at(d, {"home"}) == site);
    CHECK(strings_at(d, {"namespaces"}) == std::vector<std::string>{"cal/events/v1"});
    REQUIRE(find(d, {"authentication"}) != nullptr);
    CHECK(find(d, {"authentication"})->IsObject());
    // Every route of the namespace index, plus the root itself.
    const rapidjson::Document ns = get("/cal/events/v1").json();
    std::set<std::string> in_root, in_ns;
    for (const auto& route : d["routes"].GetObject()) in_root.insert(route.name.GetString());
    for (const auto& route : ns["routes"].GetObject()) in_ns.insert(route.name.GetString());
    CHECK(in_ns.count("/") == 0);
    in_ns.insert("/");
    CHECK(in_root == in_ns);
    CHECK(strings_at(d, {"routes", "/cal/events/v1/events", "methods"}) ==
          std::vector<std::string>{"GET", "POST"});
    CHECK(strings_at(d, {"routes", "/", "methods"}) == std::vector<std::string>{"GET"});
    CHECK(string_at(d, {"routes", "/", "_links", "self", "0", "href"}) == base_url() + "/");
    CHECK(string_at(d, {"routes", "/cal/events/v1", "namespace"}) == "cal/events/v1");
  }
  // OPTIONS describes the root route as any other.
  const HttpResponse o = options("/");
  CHECK(o.status == 200);
  CHECK(o.header("allow") == "GET");
}

TEST_CASE("discovery: the namespace index's up link leads to the root index") {
  const rapidjson::Document ns = get("/cal/events/v1").json();
  const std::string up = string_at(ns, {"_links", "up", "0", "href"});
  REQUIRE(up == base_url() + "/");
  const HttpResponse r = send({.url = up});
  CHECK_MESSAGE(r.status == 200, describe(r));
  CHECK(strings_at(r.json(), {"namespaces"}) == std::vector<std::string>{"cal/events/v1"});
}

TEST_CASE("discovery: every answer carries Link rel=\"https://api.w.org/\"") {
  CHECK(has_root_link(get("/")));
  CHECK(has_root_link(get("/cal/events/v1")));
  CHECK(has_root_link(head(kEvents)));
  CHECK(has_root_link(options(kEvents)));
  CHECK(has_root_link(get("/cal/events/v1/nowhere")));                                      // 404
  CHECK(has_root_link(request("PUT", kEvents, "{}", {"Content-Type: application/json"})));  // 405
  CHECK(has_root_link(post_json(kEvents, "{}")));                                           // 401
  // A list page keeps its page links first; the discovery link comes after.
  const HttpResponse page =
      get(std::string(kEvents) + "?per_page=1&start_date=2000-01-01&end_date=2100-01-01");
  REQUIRE(page.status == 200);
  CHECK(has_root_link(page));
  if (std::atoi(page.header("x-wp-totalpages").c_str()) > 1)
    CHECK(page.header("link").find("rel=\"next\"") != std::string::npos);
  // Cached answers too (the second is served from the response cache).
  const std::string url = std::string(kEvents) + "?search=" + unique("discocache");
  CHECK(has_root_link(get(url)));
  const HttpResponse cached = get(url);
  CHECK(cached.header("x-cal-statements") == "0");
  CHECK(has_root_link(cached));
}

TEST_CASE("discovery: ?rest_route= routes like PATH_INFO") {
  const HttpResponse pretty =
      get(std::string(kEvents) + "?per_page=2&start_date=2000-01-01&end_date=2100-01-01");
  REQUIRE(pretty.status == 200);
  const HttpResponse plain =
      get("/?rest_route=/cal/events/v1/events&per_page=2&start_date=2000-01-01&end_date=2100-01-01");
  REQUIRE_MESSAGE(plain.status == 200, describe(plain));
  CHECK(plain.body == pretty.body);
  CHECK(plain.header("x-wp-total") == pretty.header("x-wp-total"));
  CHECK(plain.header("link") == pretty.header("link"));
  // Without the trailing slash of the root, percent-encoded, and on an item.
  const HttpResponse encoded =
      get("?rest_route=%2Fcal%2Fevents%2Fv1%2Fevents&per_page=2&start_date=2000-01-01&end_date=2100-01-01");
  CHECK(encoded.body == pretty.body);
  CHECK(get("/?rest_route=/cal/events/v1").json().HasMember("routes"));
  const HttpResponse missing = get("/?rest_route=/cal/events/v1/events/0");
  CHECK(missing.status == 404);
  CHECK(missing.body == get(std::string(kEvents) + "/0").body);
  CHECK(error_mismatch(get("/?rest_route=/cal/events/v1/nowhere"), 404, "rest_no_route") == "");
  // Writes too: the method and body are the request's.
  const std::string title = unique("restroute");
  const HttpResponse created = post_json(
      "/?rest_route=/cal/events/v1/events",
      "{\"title\":\"" + title + "\",\"start_date\":\"2031-05-01 10:00\",\"end_date\":\"2031-05-01 11:00\"}",
      {bearer(admin_token())});
  CHECK_MESSAGE(created.status == 201, describe(created));
  CHECK(string_at(created.json(), {"title"}) == title);
  // An empty rest_route is the root index; on any other path rest_route is an ignored parameter.
  CHECK(get("/?rest_route=").json().HasMember("namespaces"));
  const HttpResponse ignored =
      get(std::string(kEvents) +
          "?per_page=2&start_date=2000-01-01&end_date=2100-01-01&rest_route=/cal/events/v1");
  CHECK(ignored.body ==
        get(std::string(kEvents) + "?per_page=2&start_date=2000-01-01&end_date=2100-01-01").body);
}

}  // namespace
}  // namespace caltest
