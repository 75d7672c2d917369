// The web calendar (docs/web-calendar.md) through every deployment: each nginx and Apache
// config of the repository serves the static files of `make web` at /calendar/ with types a
// browser accepts (scripts under nosniff need a JavaScript type), /calendar redirects there, and
// the page's default REST root ("api" beside the page) answers. The deployments' REST roots
// come from scripts/run-tests.sh as in deploy/smoke_test.cpp.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "support/client.h"

namespace caltest {
namespace {

HttpResponse fetch_url(const std::string& url) { return send({.url = url}); }

// "http://127.0.0.1:8080" of "http://127.0.0.1:8080/calendar/api".
std::string origin(const std::string& root) { return root.substr(0, root.find('/', root.find("//") + 2)); }

void check_calendar(const std::string& root) {
  const std::string page = origin(root) + "/calendar/";
  CAPTURE(page);
  const HttpResponse index = fetch_url(page);
  REQUIRE_MESSAGE(index.status == 200, describe(index));
  CHECK(index.header("content-type").rfind("text/html", 0) == 0);
  CHECK(index.body.find("<script src=\"js/app.js\"></script>") != std::string::npos);
  CHECK(index.header("x-content-type-options") == "nosniff");

  for (const char* script : {"js/app.js", "vendor/fullcalendar.min.js", "vendor/locales/de.js"}) {
    const HttpResponse js = fetch_url(page + script);
    CAPTURE(script);
    CHECK(js.status == 200);
    CHECK(js.header("content-type").find("javascript") != std::string::npos);
  }
  const HttpResponse css = fetch_url(page + "calendar.css");
  CHECK(css.status == 200);
  CHECK(css.header("content-type").rfind("text/css", 0) == 0);

  const HttpResponse config = fetch_url(page + "calendar-config.json");
  REQUIRE_MESSAGE(config.status == 200, describe(config));
  CHECK(config.header("content-type").find("json") != std::string::npos);
  CHECK(string_at(config.json(), {"restRoot"}) == "api");

  // The page's REST root: "api" relative to the page.
  const HttpResponse api = fetch_url(page + "api/cal/events/v1");
  CHECK_MESSAGE(api.status == 200, describe(api));

  const HttpResponse bare = fetch_url(origin(root) + "/calendar");
  CHECK(bare.status == 301);
  const std::string location = bare.header("location");
  CHECK(location.size() >= 10);
  CHECK(location.substr(location.size() - 10) == "/calendar/");
}

// The REST root in environment variable `name`; a missing one fails the case unless
// CAL_TEST_NO_DEPLOY=1 (hand runs against one stack) says the deployments are absent.
std::string root_of(const char* name) {
  const char* v = std::getenv(name);
  const char* opt_out = std::getenv("CAL_TEST_NO_DEPLOY");
  if ((v == nullptr || *v == '\0') && opt_out != nullptr && std::string(opt_out) == "1") return "";
  const std::string missing = std::string(name) + " is not set: this deployment did not start";
  REQUIRE_MESSAGE(v != nullptr, missing);
  return v;
}

TEST_CASE("web calendar served: nginx on a unix socket (the dev stack), /calendar/") {
  check_calendar(base_url());
}

TEST_CASE("web calendar served: every other nginx and Apache deployment, /calendar/") {
  for (const char* name : {"CAL_TEST_NGINX_TCP_PREFIX", "CAL_TEST_APACHE_PROXY", "CAL_TEST_APACHE_FCGID",
                           "CAL_TEST_APACHE_CGI"}) {
    const std::string deployment = name;
    CAPTURE(deployment);
    if (const std::string root = root_of(name); !root.empty()) check_calendar(root);
  }
}

}  // namespace
}  // namespace caltest
