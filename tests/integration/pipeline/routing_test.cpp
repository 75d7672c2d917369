// Integration tests of routing (docs/api.md §1.1) and the namespace index (docs/api.md §8.1), through nginx.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>

#include "support/client.h"

namespace caltest {
namespace {

constexpr const char* kNamespace = "/cal/events/v1";
constexpr const char* kEvents = "/cal/events/v1/events";
constexpr const char* kEventById = "/cal/events/v1/events/(?P<id>\\d+)";
constexpr const char* kJsonType = "application/json; charset=UTF-8";

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// "" when an Allow header lists GET and POST and none of PUT, PATCH, DELETE (the events
// collection's methods; HEAD and OPTIONS may be listed too); else the header.
std::string events_allow_mismatch(const std::string& allow) {
  std::set<std::string> methods;
  size_t start = 0;
  while (start < allow.size()) {
    size_t end = allow.find(',', start);
    if (end == std::string::npos) end = allow.size();
    std::string m = allow.substr(start, end - start);
    m.erase(0, m.find_first_not_of(' '));
    m.erase(m.find_last_not_of(' ') + 1);
    if (!m.empty()) methods.insert(m);
    start = end + 1;
  }
  const bool ok = methods.count("GET") == 1 && methods.count("POST") == 1 && methods.count("PUT") == 0 &&
                  methods.count("PATCH") == 0 && methods.count("DELETE") == 0;
  return ok ? std::string() : "Allow: " + allow;
}

TEST_CASE("an unknown path is 404 rest_no_route") {
  for (const std::string path : {"/cal/events/v1/nothing-here", "/nothing", "/cal/events/v1/events/abc",
                                 "/cal/events/v1/events/1/extra", "/cal/events/v2/events"}) {
    CAPTURE(path);
    CHECK(error_mismatch(get(path), 404, "rest_no_route") == "");
  }
}

TEST_CASE("a known path with an unserved method is 405 with Allow") {
  const HttpResponse r = request("PUT", kEvents, "{}", {"Content-Type: application/json"});
  CHECK(error_mismatch(r, 405, "rest_method_not_allowed") == "");
  CHECK(events_allow_mismatch(r.header("allow")) == "");
}

TEST_CASE("every unserved method on the events collection is 405") {
  for (const std::string method : {"PUT", "PATCH", "DELETE"}) {
    CAPTURE(method);
    const HttpResponse r = request(method, kEvents);
    CHECK(error_mismatch(r, 405, "rest_method_not_allowed") == "");
    CHECK(events_allow_mismatch(r.header("allow")) == "");
  }
}

TEST_CASE("one trailing slash is ignored") {
  const HttpResponse list = get(std::string(kEvents) + "/");
  CHECK_MESSAGE(list.status == 200, describe(list));
  CHECK(find(list.json(), {"events"}) != nullptr);

  const HttpResponse index = get(std::string(kNamespace) + "/");
  CHECK_MESSAGE(index.status == 200, describe(index));
  CHECK(string_at(index.json(), {"namespace"}) == "cal/events/v1");

  CHECK(error_mismatch(request("PUT", std::string(kEvents) + "/"), 405, "rest_method_not_allowed") == "");
}

TEST_CASE("HEAD answers like GET without a body") {
  const HttpResponse g = get(kNamespace);
  const HttpResponse h = head(kNamespace);
  CHECK(h.status == g.status);
  CHECK(h.body.empty());
  for (const std::string name : {"content-type", "allow", "content-language"}) {
    CAPTURE(name);
    CHECK(h.header(name) == g.header(name));
  }
  // Same header names, apart from those that describe the transfer rather than the resource.
  std::set<std::string> gn, hn;
  for (const auto& [name, value] : g.headers) gn.insert(name);
  for (const auto& [name, value] : h.headers) hn.insert(name);
  for (const char* transfer : {"date", "content-length", "transfer-encoding", "connection"}) {
    gn.erase(transfer);
    hn.erase(transfer);
  }
  CHECK(hn == gn);
}

TEST_CASE("HEAD of the events list has the list headers and no body") {
  const HttpResponse h = head(kEvents);
  CHECK(h.status == 200);
  CHECK(h.body.empty());
  CHECK(h.header("content-type") == kJsonType);
  CHECK(h.header("x-wp-total") != "");
}

TEST_CASE("OPTIONS is 200 with Allow and the route's description") {
  const HttpResponse r = options(kEvents);
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(events_allow_mismatch(r.header("allow")) == "");
  const auto doc = r.json();
  CHECK(string_at(doc, {"namespace"}) == "cal/events/v1");
  CHECK(contains(strings_at(doc, {"methods"}), "GET"));
  CHECK(contains(strings_at(doc, {"methods"}), "POST"));
  const rapidjson::Value* endpoints = find(doc, {"endpoints"});
  REQUIRE(endpoints != nullptr);
  REQUIRE(endpoints->IsArray());
  CHECK(endpoints->Size() >= 1);
  CHECK(find(doc, {"endpoints", "0", "args"}) != nullptr);
}

TEST_CASE("X-HTTP-Method-Override on POST is honoured") {
  const HttpResponse put = post_json(kEvents, "{}", {"X-HTTP-Method-Override: PUT"});
  CHECK(error_mismatch(put, 405, "rest_method_not_allowed") == "");

  const HttpResponse as_get = request("POST", kEvents, {}, {"X-HTTP-Method-Override: GET"});
  CHECK_MESSAGE(as_get.status == 200, describe(as_get));
  CHECK(find(as_get.json(), {"events"}) != nullptr);
}

TEST_CASE("?_method= on POST is honoured") {
  const HttpResponse r = post_json(std::string(kEvents) + "?_method=PUT", "{}");
  CHECK(error_mismatch(r, 405, "rest_method_not_allowed") == "");
}

TEST_CASE("responses are JSON in UTF-8") {
  CHECK(get(kNamespace).header("content-type") == kJsonType);
  CHECK(get(kEvents).header("content-type") == kJsonType);
  CHECK(get("/cal/events/v1/nothing-here").header("content-type") == kJsonType);
}

TEST_CASE("the namespace index lists the routes") {
  const HttpResponse r = get(kNamespace);
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  const auto doc = r.json();
  CHECK(string_at(doc, {"namespace"}) == "cal/events/v1");
  for (const char* route : {kEvents, kEventById}) {
    const std::string route_name = route;
    CAPTURE(route_name);
    REQUIRE(find(doc, {"routes", route}) != nullptr);
    CHECK(string_at(doc, {"routes", route, "namespace"}) == "cal/events/v1");
    CHECK(contains(strings_at(doc, {"routes", route, "methods"}), "GET"));
    const rapidjson::Value* endpoints = find(doc, {"routes", route, "endpoints"});
    REQUIRE(endpoints != nullptr);
    REQUIRE(endpoints->IsArray());
    REQUIRE(endpoints->Size() >= 1);
    for (const rapidjson::Value& endpoint : endpoints->GetArray()) {
      CHECK(find(endpoint, {"methods"}) != nullptr);
      const rapidjson::Value* args = find(endpoint, {"args"});
      REQUIRE(args != nullptr);
      CHECK(args->IsObject());
    }
  }
  CHECK(contains(strings_at(doc, {"routes", kEvents, "methods"}), "POST"));
}

TEST_CASE("the namespace index describes each argument") {
  const auto doc = get(kNamespace).json();
  const rapidjson::Value* args = find(doc, {"routes", kEvents, "endpoints", "0", "args"});
  REQUIRE(args != nullptr);
  REQUIRE(args->IsObject());
  CHECK(find(*args, {"page"}) != nullptr);
  CHECK(find(*args, {"per_page"}) != nullptr);
  for (const auto& arg : args->GetObject()) {
    const std::string name(arg.name.GetString(), arg.name.GetStringLength());
    CAPTURE(name);
    CHECK(find(arg.value, {"description"}) != nullptr);
    // One type name, or WordPress's list of them for a parameter of several types.
    const rapidjson::Value* type = find(arg.value, {"type"});
    REQUIRE(type != nullptr);
    CHECK(((type->IsString() && type->GetStringLength() > 0) || (type->IsArray() && type->Size() > 1)));
    const rapidjson::Value* required = find(arg.value, {"required"});
    CHECK((required != nullptr && required->IsBool()));
  }
}

TEST_CASE("the namespace index links up to the REST root") {
  const auto doc = get(kNamespace).json();
  const std::string up = string_at(doc, {"_links", "up", "0", "href"});
  CHECK(up.ends_with("/api/"));
}

TEST_CASE("absolute URLs come from the request's scheme, host, port and prefix") {
  const auto doc = get(kNamespace).json();
  CHECK(string_at(doc, {"_links", "up", "0", "href"}) == base_url() + "/");
}

TEST_CASE("the namespace index refuses another namespace") {
  CHECK(error_mismatch(get(std::string(kNamespace) + "?namespace=other"), 404, "rest_invalid_namespace") ==
        "");
}

TEST_CASE("the namespace index validates context") {
  const HttpResponse bogus = get(std::string(kNamespace) + "?context=bogus");
  CHECK(error_mismatch(bogus, 400, "rest_invalid_param") == "");
  CHECK(find(bogus.json(), {"data", "params", "context"}) != nullptr);

  for (const std::string ok : {"view", "help"}) {
    CAPTURE(ok);
    const HttpResponse r = get(std::string(kNamespace) + "?context=" + ok);
    CHECK_MESSAGE(r.status == 200, describe(r));
  }
}

}  // namespace
}  // namespace caltest
