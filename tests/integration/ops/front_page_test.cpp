// The site root of the shipped web server configs (nginx/calendar.conf on the test stack,
// nginx/calendar-tcp.conf, apache/calendar-proxy-fcgi.conf and calendar-fcgid.conf on the
// deployments): the front page's Link header names the REST root as WordPress clients discover
// it, and /?rest_route=/cal/events/v1/... at the site root answers as the same route below the
// REST root (plain-permalink clients). wpapi's WPAPI.discover (tests/wpapi, npm) finds the API
// from each site root.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "support/client.h"
#include "support/commands.h"

namespace caltest {
namespace {

// The REST roots under test: the stack's and, when deployed, nginx over TCP's and Apache's with
// mod_proxy_fcgi and mod_fcgid (the CGI deployment's .htaccess cannot reach the site root).
std::vector<std::string> rest_roots() {
  std::vector<std::string> roots = {base_url()};
  for (const char* name : {"CAL_TEST_NGINX_TCP_PREFIX", "CAL_TEST_APACHE_PROXY", "CAL_TEST_APACHE_FCGID"})
    if (const char* root = std::getenv(name); root && *root) roots.push_back(root);
  return roots;
}

// http://127.0.0.1:PORT: the site root of a REST root.
std::string site_of(const std::string& rest_root) { return rest_root.substr(0, rest_root.find('/', 7)); }

}  // namespace

TEST_CASE("the front page's Link names the REST root, which answers the root index") {
  for (const std::string& rest_root : rest_roots()) {
    CAPTURE(rest_root);
    for (const char* method : {"GET", "HEAD"}) {
      CAPTURE(method);
      const HttpResponse front = send({.url = site_of(rest_root) + "/", .method = method});
      // Apache's test site has no front page of its own: only the header is the config's.
      if (rest_root == base_url()) CHECK(front.status == 200);
      CHECK(front.status < 500);
      CHECK(front.header("link") == "<" + rest_root + "/>; rel=\"https://api.w.org/\"");
    }
    // Following it as WPAPI.discover does: the root index lists the namespace.
    const HttpResponse root = send({.url = rest_root + "/"});
    REQUIRE(root.status == 200);
    CHECK(root.body.find("\"cal/events/v1\"") != std::string::npos);
  }
}

TEST_CASE("/?rest_route= at the site root answers as the route below the REST root") {
  struct Case {
    const char* rest_route;
    const char* path;
  };
  static const Case kCases[] = {
      {"/cal/events/v1/events&per_page=1", "/cal/events/v1/events?per_page=1"},
      {"/cal/events/v1", "/cal/events/v1"},
      {"/cal/events/v1/events/999999999", "/cal/events/v1/events/999999999"},
      {"/cal/events/v1/nowhere", "/cal/events/v1/nowhere"},
  };
  for (const std::string& rest_root : rest_roots())
    for (const Case& c : kCases) {
      CAPTURE(rest_root);
      CAPTURE(std::string(c.rest_route));
      const HttpResponse plain = send({.url = site_of(rest_root) + "/?rest_route=" + c.rest_route});
      const HttpResponse pretty = send({.url = rest_root + c.path});
      CHECK(plain.status == pretty.status);
      CHECK(plain.header("content-type") == pretty.header("content-type"));
      CHECK(plain.header("x-wp-total") == pretty.header("x-wp-total"));
    }
  const HttpResponse list = send({.url = site_of(base_url()) + "/?rest_route=/cal/events/v1/events"});
  CHECK_MESSAGE(list.status == 200, describe(list));
  CHECK_MESSAGE(list.body.rfind("{\"events\":[", 0) == 0, describe(list));
}

TEST_CASE("wpapi's WPAPI.discover(site root) finds the REST root and calls the events route through it") {
  // tests/wpapi beside the build directory holding this binary (as ical/feed_test.cpp finds tests/ical).
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe");
  std::filesystem::path dir = exe.parent_path().parent_path() / "tests" / "wpapi";
  if (!std::filesystem::exists(dir / "discover.mjs"))
    dir = std::filesystem::current_path() / "tests" / "wpapi";
  REQUIRE_MESSAGE(std::filesystem::exists(dir / "node_modules" / "wpapi"),
                  dir.string() << "/node_modules is missing: run scripts/install-npm-tools.sh");
  for (const std::string& rest_root : rest_roots()) {
    CAPTURE(rest_root);
    // wpapi refuses a front page that answers 4xx, header or not: Apache's test site has no page
    // of its own at "/" (a real site has its front page there), so only roots with one are tried.
    if (send({.url = site_of(rest_root) + "/"}).status != 200) {
      CHECK(rest_root != base_url());
      continue;
    }
    const Run r = run("node '" + (dir / "discover.mjs").string() + "' '" + site_of(rest_root) + "/' 2>&1");
    CHECK_MESSAGE(r.exit_code == 0, r.out);
    CHECK_MESSAGE(r.out.find("\"endpoint\":\"" + rest_root + "/\"") != std::string::npos, r.out);
    CHECK_MESSAGE(r.out.find("\"events\":") != std::string::npos, r.out);
  }
}

}  // namespace caltest
