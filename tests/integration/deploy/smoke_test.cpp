// The deployment smoke suite: the same short HTTP conversation (namespace index, create with
// Bearer auth, list, get by slug, delete, body limits) through every way site owners host the
// service. scripts/run-tests.sh starts the deployments on the test stack's database
// (scripts/deploy-stacks.sh) and names their REST roots in CAL_TEST_NGINX_TCP_PREFIX,
// CAL_TEST_APACHE_PROXY, CAL_TEST_APACHE_FCGID and CAL_TEST_APACHE_CGI; CAL_TEST_BASE is the
// stack's own nginx on a unix socket. A deployment whose variable is unset fails its case (it did
// not start, or the binary runs outside run-tests.sh), unless CAL_TEST_NO_DEPLOY=1 says that
// only the stack itself is there: for running integration-tests by hand against `make start`'s
// stack. run-tests.sh never sets it.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "support/client.h"

namespace caltest {
namespace {

// One request to an absolute URL on a connection of its own; a body is sent as JSON, with
// Content-Length, or chunked when `headers` holds "Transfer-Encoding: chunked". Throws when no
// HTTP response arrives.
HttpResponse fetch(const std::string& method, const std::string& url, const std::string& body = {},
                   std::vector<std::string> headers = {}) {
  if (!body.empty()) headers.emplace_back("Content-Type: application/json");
  return send({.url = url, .method = method, .body = body, .headers = std::move(headers)});
}

// "http://127.0.0.1:8080" of "http://127.0.0.1:8080/calendar/api".
std::string origin_of(const std::string& root) { return root.substr(0, root.find('/', root.find("//") + 2)); }

// A JSON body of about `bytes` bytes.
std::string big_body(size_t bytes) { return "{\"title\":\"" + std::string(bytes, 'x') + "\"}"; }

// The smoke suite against the REST root `root` (e.g. "http://127.0.0.1:8080/calendar/api").
void run_smoke(const std::string& root) {
  CAPTURE(root);
  const std::string ns = root + "/cal/events/v1";
  const std::string auth = bearer(admin_token());

  // 1. The namespace index, its links under the deployment's prefix.
  const HttpResponse index = fetch("GET", ns);
  REQUIRE_MESSAGE(index.status == 200, describe(index));
  CHECK(string_at(index.json(), {"_links", "up", "0", "href"}) == root + "/");
  // The language catalogs were deployed with the binary.
  CHECK(fetch("GET", ns + "?_locale=de_DE").header("content-language") == "de-DE");

  // 2. Create with Bearer auth: 201, URLs from the request's scheme/host/port/prefix. Proxy
  // headers are ignored (trust_proxy is off).
  const std::string title = unique("deploysmoke");
  const HttpResponse created = fetch("POST", ns + "/events",
                                     "{\"title\":\"" + title +
                                         "\",\"start_date\":\"2031-03-04 10:00:00\","
                                         "\"end_date\":\"2031-03-04 11:00:00\"}",
                                     {auth, "X-Forwarded-Host: spoofed.example", "X-Forwarded-Proto: https"});
  REQUIRE_MESSAGE(created.status == 201, describe(created));
  const auto event = created.json();
  const auto* id_value = find(event, {"id"});
  REQUIRE((id_value != nullptr && id_value->IsInt64()));
  const std::string id = std::to_string(id_value->GetInt64());
  const std::string slug = string_at(event, {"slug"});
  REQUIRE(!slug.empty());
  const std::string rest_url = ns + "/events/" + id;
  CHECK(string_at(event, {"rest_url"}) == rest_url);
  CHECK(created.header("location") == rest_url);
  CHECK(string_at(event, {"url"}) == origin_of(root) + "/event/" + slug + "/");

  // 3. The list finds it, with a collection URL under the prefix.
  const HttpResponse list =
      fetch("GET", ns + "/events?search=" + title + "&start_date=2031-03-04&end_date=2031-03-05");
  REQUIRE_MESSAGE(list.status == 200, describe(list));
  const auto page = list.json();
  CHECK(string_at(page, {"events", "0", "rest_url"}) == rest_url);
  CHECK(string_at(page, {"rest_url"}).rfind(ns + "/events?", 0) == 0);

  // 4. By slug.
  const HttpResponse by_slug = fetch("GET", ns + "/events/by-slug/" + slug);
  REQUIRE_MESSAGE(by_slug.status == 200, describe(by_slug));
  CHECK(string_at(by_slug.json(), {"rest_url"}) == rest_url);

  // The Authorization header reaches the program: a wrong password is refused, not ignored.
  CHECK(error_mismatch(fetch("GET", ns, {}, {bearer("not-a-password")}), 401, "rest_invalid_credentials") ==
        "");

  // 5. Delete, then it is gone.
  const HttpResponse deleted = fetch("DELETE", rest_url + "?force=true", {}, {auth});
  CHECK_MESSAGE(deleted.status == 200, describe(deleted));
  CHECK(error_mismatch(fetch("GET", rest_url), 404, "rest-event-not-found") == "");

  // Bodies over the service's limit (1 MiB) get its JSON 413, with or without Content-Length,
  // whether the service (1.5 MiB) or the web server (3 MiB) refuses them.
  for (const size_t bytes : {size_t{1536} * 1024, size_t{3} * 1024 * 1024}) {
    for (const bool chunked : {false, true}) {
      CAPTURE(bytes);
      CAPTURE(chunked);
      std::vector<std::string> headers{auth};
      if (chunked) headers.emplace_back("Transfer-Encoding: chunked");
      CHECK(error_mismatch(fetch("POST", ns + "/events", big_body(bytes), headers), 413,
                           "rest_body_too_large") == "");
    }
  }
}

// True when CAL_TEST_NO_DEPLOY=1: the other deployments are deliberately absent.
bool deployments_opted_out() {
  const char* v = std::getenv("CAL_TEST_NO_DEPLOY");
  return v != nullptr && std::string(v) == "1";
}

// The REST root in environment variable `name`; "" (with a note) only when deployments are opted
// out, else a missing root fails the test case.
std::string deployment(const char* name) {
  const char* v = std::getenv(name);
  const std::string root = v != nullptr ? v : "";
  if (root.empty() && deployments_opted_out()) {
    MESSAGE((std::string(name) + " is not set and CAL_TEST_NO_DEPLOY=1: deployment not tested"));
    return "";
  }
  REQUIRE_MESSAGE(
      !root.empty(),
      (std::string(name) + " is not set: this deployment did not start "
                           "(scripts/run-tests.sh starts it; CAL_TEST_NO_DEPLOY=1 skips it on purpose)"));
  return root;
}

TEST_CASE("deployment smoke: nginx -> calendar-fcgi on a unix socket, REST root /api") {
  run_smoke(base_url());
}

TEST_CASE(
    "deployment smoke: nginx -> calendar-fcgi over TCP started by spawn-fcgi, REST root /calendar/api") {
  if (const std::string root = deployment("CAL_TEST_NGINX_TCP_PREFIX"); !root.empty()) run_smoke(root);
}

TEST_CASE("deployment smoke: Apache mod_proxy_fcgi -> the running calendar-fcgi") {
  if (const std::string root = deployment("CAL_TEST_APACHE_PROXY"); !root.empty()) run_smoke(root);
}

TEST_CASE("deployment smoke: Apache mod_fcgid starting calendar-fcgi itself") {
  if (const std::string root = deployment("CAL_TEST_APACHE_FCGID"); !root.empty()) run_smoke(root);
}

TEST_CASE("deployment smoke: Apache plain CGI through .htaccess, one process per request") {
  if (const std::string root = deployment("CAL_TEST_APACHE_CGI"); !root.empty()) run_smoke(root);
}

}  // namespace
}  // namespace caltest
