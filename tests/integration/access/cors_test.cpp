// CORS ([cors] origins): the headers of every rule over HTTP against the test stack, whose config
// lists https://app.example (scripts/run-tests.sh), and "*" through calendar-fcgi started as
// plain CGI with --cors.origins. The browser itself is in access/cors_browser_test.cpp.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "support/client.h"
#include "support/commands.h"

namespace caltest {
namespace {

constexpr const char* kListed = "https://app.example";
constexpr const char* kUnlisted = "https://elsewhere.example";
constexpr const char* kEvents = "/cal/events/v1/events";

// The names of the response's Access-Control-* headers.
std::vector<std::string> cors_headers(const HttpResponse& r) {
  std::vector<std::string> names;
  for (const auto& [name, value] : r.headers)
    if (name.rfind("access-control-", 0) == 0) names.push_back(name);
  return names;
}

bool vary_has_origin(const HttpResponse& r) {
  for (const auto& [name, value] : r.headers)
    if (name == "vary" && value.find("Origin") != std::string::npos) return true;
  return false;
}

// The comma-separated methods of the route with this namespace-index key, from the index (the
// route table).
std::string route_methods(const std::string& key) {
  const rapidjson::Document index = get("/cal/events/v1").json();
  std::string out;
  for (const std::string& m : strings_at(index, {"routes", key, "methods"}))
    out += (out.empty() ? "" : ", ") + m;
  return out;
}

void check_listed(const HttpResponse& r, const std::string& origin = kListed) {
  CHECK(r.header("access-control-allow-origin") == origin);
  CHECK(r.header("access-control-allow-credentials") == "true");
  CHECK(r.header("access-control-expose-headers") ==
        "X-WP-Total, X-WP-TotalPages, X-TEC-Total, X-TEC-TotalPages, Link, ETag, Location, Retry-After, "
        "Content-Language");
  CHECK(vary_has_origin(r));
}

// calendar-fcgi as plain CGI (beside CAL_TEST_CTL's calendarctl, with its --config) for one
// request of `env` ("NAME=value"), with extra `options`; returns its output (with its standard
// error when `with_stderr`).
std::string run_cgi(const std::vector<std::string>& env, const std::string& options,
                    bool with_stderr = false) {
  std::string command = "env -i REQUEST_METHOD=GET SCRIPT_NAME=/api HTTP_HOST=example.org SERVER_PORT=80";
  for (const std::string& e : env) command += " '" + e + "'";
  command +=
      " " + service_command() + " " + options + " </dev/null " + (with_stderr ? "2>&1" : "2>/dev/null");
  return run(command).out;
}

TEST_CASE("cors: a listed origin may read the answer and its headers, with credentials") {
  const HttpResponse plain = get(std::string(kEvents) + "?per_page=1");
  const HttpResponse r = get(std::string(kEvents) + "?per_page=1", {std::string("Origin: ") + kListed});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  check_listed(r);
  CHECK(r.body == plain.body);
  // Errors too: a page can read why it failed.
  const HttpResponse missing = get(std::string(kEvents) + "/0", {std::string("Origin: ") + kListed});
  CHECK(missing.status == 404);
  check_listed(missing);
}

TEST_CASE("cors: an unlisted origin gets no CORS header, and the request is handled as usual") {
  const HttpResponse plain = get(std::string(kEvents) + "?per_page=1");
  const HttpResponse r = get(std::string(kEvents) + "?per_page=1", {std::string("Origin: ") + kUnlisted});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(cors_headers(r).empty());
  CHECK(r.body == plain.body);
  CHECK(cors_headers(plain).empty());
  // A write from an unlisted origin still happens (only the browser would hide the answer).
  const std::string title = unique("corsunlisted");
  const HttpResponse created = post_json(
      kEvents,
      "{\"title\":\"" + title + "\",\"start_date\":\"2031-05-01 10:00\",\"end_date\":\"2031-05-01 11:00\"}",
      {bearer(admin_token()), std::string("Origin: ") + kUnlisted});
  CHECK_MESSAGE(created.status == 201, describe(created));
  CHECK(cors_headers(created).empty());
}

TEST_CASE("cors: a preflight on a collection route answers 204 with the route's methods") {
  const HttpResponse r =
      options(kEvents, {std::string("Origin: ") + kListed, "Access-Control-Request-Method: POST",
                        "Access-Control-Request-Headers: authorization, content-type"});
  CHECK_MESSAGE(r.status == 204, describe(r));
  CHECK(r.body.empty());
  check_listed(r);
  CHECK(r.header("access-control-allow-methods") == route_methods("/cal/events/v1/events"));
  CHECK(r.header("access-control-allow-methods") == "GET, POST");
  CHECK(r.header("access-control-allow-headers") ==
        "Authorization, Content-Type, If-Match, If-None-Match, X-HTTP-Method-Override, X-WP-Nonce");
  CHECK(r.header("access-control-max-age") == "600");
  // From an unlisted origin the same request is a plain OPTIONS: the route's description.
  const HttpResponse other =
      options(kEvents, {std::string("Origin: ") + kUnlisted, "Access-Control-Request-Method: POST"});
  CHECK(other.status == 200);
  CHECK(cors_headers(other).empty());
  CHECK(string_at(other.json(), {"namespace"}) == "cal/events/v1");
  // Without Access-Control-Request-Method it is no preflight either.
  const HttpResponse no_method = options(kEvents, {std::string("Origin: ") + kListed});
  CHECK(no_method.status == 200);
  CHECK(no_method.header("access-control-allow-methods") == "");
}

TEST_CASE("cors: a preflight on an item route lists that route's methods") {
  const HttpResponse r = options(std::string(kEvents) + "/12345",
                                 {std::string("Origin: ") + kListed, "Access-Control-Request-Method: PATCH"});
  CHECK_MESSAGE(r.status == 204, describe(r));
  check_listed(r);
  const std::string methods = route_methods("/cal/events/v1/events/(?P<id>\\d+)");
  CHECK(methods.find("PATCH") != std::string::npos);
  CHECK(methods.find("DELETE") != std::string::npos);
  CHECK(r.header("access-control-allow-methods") == methods);
  const HttpResponse tags = options(
      "/cal/events/v1/tags/1", {std::string("Origin: ") + kListed, "Access-Control-Request-Method: DELETE"});
  CHECK(tags.header("access-control-allow-methods") == route_methods("/cal/events/v1/tags/(?P<id>\\d+)"));
  // A path that names no route has no preflight: 404.
  const HttpResponse none = options(
      "/cal/events/v1/nowhere", {std::string("Origin: ") + kListed, "Access-Control-Request-Method: GET"});
  CHECK(none.status == 404);
}

TEST_CASE("cors: a cached answer never carries another origin's headers") {
  // A fresh URL: the first request computes it, the others are served from the response cache.
  const std::string url = std::string(kEvents) + "?per_page=1&search=" + unique("corscache");
  const HttpResponse first = get(url, {std::string("Origin: ") + kListed});
  REQUIRE_MESSAGE(first.status == 200, describe(first));
  check_listed(first);
  const HttpResponse other = get(url, {std::string("Origin: ") + kUnlisted});
  CHECK(other.header("x-cal-statements") == "0");  // from the cache
  CHECK(cors_headers(other).empty());
  const HttpResponse none = get(url);
  CHECK(none.header("x-cal-statements") == "0");
  CHECK(cors_headers(none).empty());
  const HttpResponse again = get(url, {std::string("Origin: ") + kListed});
  CHECK(again.header("x-cal-statements") == "0");
  check_listed(again);
  // And the other way round: computed for no origin, then asked by the listed one.
  const std::string url2 = std::string(kEvents) + "?per_page=1&search=" + unique("corscache");
  CHECK(cors_headers(get(url2, {std::string("Origin: ") + kUnlisted})).empty());
  const HttpResponse listed = get(url2, {std::string("Origin: ") + kListed});
  CHECK(listed.header("x-cal-statements") == "0");
  check_listed(listed);
  // One entity: the ETag does not depend on the origin, and If-None-Match works across them.
  CHECK(first.header("etag") == none.header("etag"));
  const HttpResponse revalidated =
      get(url, {std::string("Origin: ") + kListed, "If-None-Match: " + none.header("etag")});
  CHECK(revalidated.status == 304);
  check_listed(revalidated);
}

TEST_CASE("cors: * lets any origin read without credentials; listed origins keep theirs") {
  const std::string star = "'--cors.origins=*'";
  const std::string read = run_cgi(
      {"PATH_INFO=/cal/events/v1/events", "QUERY_STRING=per_page=1", "HTTP_ORIGIN=https://any.example"},
      star);
  CHECK_MESSAGE(read.find("Status: 200") == 0, read.substr(0, 400));
  CHECK(read.find("\r\nAccess-Control-Allow-Origin: *\r\n") != std::string::npos);
  CHECK(read.find("Access-Control-Allow-Credentials") == std::string::npos);
  CHECK(read.find("\r\nAccess-Control-Expose-Headers: X-WP-Total,") != std::string::npos);
  CHECK(read.find("\r\nVary: Accept, Accept-Language, Origin\r\n") != std::string::npos);
  // The preflight offers reads only, and no Authorization header.
  const std::string pre =
      run_cgi({"REQUEST_METHOD=OPTIONS", "PATH_INFO=/cal/events/v1/events", "HTTP_ORIGIN=https://any.example",
               "HTTP_ACCESS_CONTROL_REQUEST_METHOD=POST"},
              star);
  CHECK_MESSAGE(pre.find("Status: 204") == 0, pre.substr(0, 400));
  CHECK(pre.find("\r\nAccess-Control-Allow-Methods: GET\r\n") != std::string::npos);
  CHECK(pre.find("\r\nAccess-Control-Allow-Headers: Content-Type,") != std::string::npos);
  CHECK(pre.find("Authorization") == std::string::npos);
  // A listed origin beside * keeps its credentials and every method.
  const std::string both = "'--cors.origins=https://a.example, *'";
  const std::string listed =
      run_cgi({"REQUEST_METHOD=OPTIONS", "PATH_INFO=/cal/events/v1/events", "HTTP_ORIGIN=https://a.example",
               "HTTP_ACCESS_CONTROL_REQUEST_METHOD=POST"},
              both);
  CHECK(listed.find("\r\nAccess-Control-Allow-Origin: https://a.example\r\n") != std::string::npos);
  CHECK(listed.find("\r\nAccess-Control-Allow-Credentials: true\r\n") != std::string::npos);
  CHECK(listed.find("\r\nAccess-Control-Allow-Methods: GET, POST\r\n") != std::string::npos);
  // Without [cors] origins: no CORS header and no Vary on Origin.
  const std::string off =
      run_cgi({"PATH_INFO=/cal/events/v1/events", "HTTP_ORIGIN=https://a.example"}, "'--cors.origins= '");
  CHECK(off.find("Access-Control-") == std::string::npos);
  CHECK(off.find("\r\nVary: Accept, Accept-Language\r\n") != std::string::npos);
}

TEST_CASE("cors: an entry of [cors] origins that is no origin stops the service at start") {
  for (const char* bad : {"https://a.example/", "https://a.example/path", "a.example", "ftp://a.example"}) {
    CAPTURE(bad);
    const std::string out =
        run_cgi({"PATH_INFO=/cal/events/v1"}, std::string("'--cors.origins=") + bad + "'", true);
    CHECK(out.find("cors.origins") != std::string::npos);
    CHECK(out.find("Status: 200") == std::string::npos);
  }
}

}  // namespace
}  // namespace caltest
