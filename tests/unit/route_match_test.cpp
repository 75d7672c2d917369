// Route matching against the real route table, and the index's regex keys.
#include "cal/api/pipeline/routes.h"

#include <doctest/doctest.h>

#include <string>

namespace {

struct MatchCase {
  const char* path;
  const char* pattern;  // nullptr: no route
  const char* param;    // "name=value" of the first path parameter, or ""
};

const MatchCase kMatchCases[] = {
    {"/cal/events/v1", "", ""},
    {"/cal/events/v1/", "", ""},
    {"/cal/events/v1/doc", "/doc", ""},
    {"/cal/events/v1/events", "/events", ""},
    {"/cal/events/v1/events/", "/events", ""},
    {"/cal/events/v1/events/12", "/events/{id}", "id=12"},
    {"/cal/events/v1/events/12/", "/events/{id}", "id=12"},
    {"/cal/events/v1/events/by-slug/my-party", "/events/by-slug/{slug}", "slug=my-party"},
    {"/cal/events/v1/events/by-slug/caf%C3%A9", "/events/by-slug/{slug}", "slug=caf\xC3\xA9"},
    {"/cal/events/v1/venues/3", "/venues/{id}", "id=3"},
    {"/cal/events/v1/organizers/by-slug/x", "/organizers/by-slug/{slug}", "slug=x"},
    {"/cal/events/v1/categories/9", "/categories/{id}", "id=9"},
    {"/cal/events/v1/tags", "/tags", ""},
    {"/cal/events/v1/events/abc", nullptr, ""},
    {"/cal/events/v1/events/-1", nullptr, ""},
    {"/cal/events/v1/tags/by-slug/x", nullptr, ""},
    {"/cal/events/v1/events//", nullptr, ""},
    {"/cal/events/v1/eventsx", nullptr, ""},
    {"/cal/events/v2/events", nullptr, ""},
    {"/other", nullptr, ""},
    {"/cal", nullptr, ""},
};

}  // namespace

TEST_CASE("the REST root itself (\"\" or \"/\") is the root index route, and only it") {
  for (const char* path : {"", "/"}) {
    CAPTURE(std::string(path));
    const auto m = cal::match_route(cal::route_table(), path);
    REQUIRE(m.has_value());
    CHECK(m->route->at_rest_root);
    CHECK(cal::route_key(*m->route) == "/");
  }
  CHECK_FALSE(cal::match_route(cal::route_table(), "/cal/events/v1")->route->at_rest_root);
  CHECK_FALSE(cal::match_route(cal::route_table(), "//").has_value());
}

TEST_CASE("paths match the route table") {
  for (const auto& c : kMatchCases) {
    CAPTURE(std::string(c.path));
    const auto m = cal::match_route(cal::route_table(), c.path);
    if (!c.pattern) {
      CHECK_FALSE(m.has_value());
      continue;
    }
    REQUIRE(m.has_value());
    CHECK(std::string(m->route->pattern) == c.pattern);
    if (*c.param) {
      REQUIRE(!m->path_params.empty());
      CHECK(m->path_params[0].first + "=" + m->path_params[0].second == c.param);
    }
  }
}

TEST_CASE("allowed methods and index keys come from the table") {
  const auto m = cal::match_route(cal::route_table(), "/cal/events/v1/events");
  REQUIRE(m);
  const auto allow = m->route->allowed_methods();
  CHECK(allow == std::vector<std::string>{"GET", "POST"});
  CHECK(m->route->endpoint_for("HEAD") == m->route->endpoint_for("GET"));
  CHECK(m->route->endpoint_for("PUT") == nullptr);
  CHECK(cal::route_regex("/events/{id}") == "/cal/events/v1/events/(?P<id>\\d+)");
  CHECK(cal::route_regex("/events/by-slug/{slug}") == "/cal/events/v1/events/by-slug/(?P<slug>[^/]+)");
  CHECK(cal::route_regex("") == "/cal/events/v1");
  CHECK(cal::route_is_static("/events"));
  CHECK_FALSE(cal::route_is_static("/events/{id}"));
}

TEST_CASE("every endpoint of the table has a handler and documented parameters") {
  for (const auto& route : cal::route_table()) {
    CAPTURE(std::string(route.pattern));
    for (const auto& e : route.endpoints) {
      CHECK(static_cast<bool>(e.handler));
      CHECK(!e.methods.empty());
      for (const auto& p : e.params) CHECK(!p.description.empty());
    }
  }
}
