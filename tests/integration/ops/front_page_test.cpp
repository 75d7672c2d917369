// The site root of the dev and test stack's nginx (nginx/calendar.conf): the front page's Link
// header names the REST root as WordPress clients discover it, and /?rest_route=/cal/events/v1/...
// at the site root answers as the same route below the REST root (plain-permalink clients).
#include <doctest/doctest.h>

#include <string>

#include "support/client.h"

namespace caltest {
namespace {

// http://127.0.0.1:PORT (the REST root without its /api).
std::string site_root() { return base_url().substr(0, base_url().rfind("/api")); }

}  // namespace

TEST_CASE("the front page's Link names the REST root, which answers the root index") {
  for (const char* method : {"GET", "HEAD"}) {
    CAPTURE(method);
    const HttpResponse front = send({.url = site_root() + "/", .method = method});
    CHECK(front.status == 200);
    CHECK(front.header("link") == "<" + base_url() + "/>; rel=\"https://api.w.org/\"");
  }
  // Following it as WPAPI.discover does: the root index lists the namespace.
  const HttpResponse root = send({.url = base_url() + "/"});
  REQUIRE(root.status == 200);
  CHECK(root.body.find("\"cal/events/v1\"") != std::string::npos);
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
  for (const Case& c : kCases) {
    CAPTURE(std::string(c.rest_route));
    const HttpResponse plain = send({.url = site_root() + "/?rest_route=" + c.rest_route});
    const HttpResponse pretty = send({.url = base_url() + c.path});
    CHECK(plain.status == pretty.status);
    CHECK(plain.header("content-type") == pretty.header("content-type"));
    CHECK(plain.header("x-wp-total") == pretty.header("x-wp-total"));
  }
  const HttpResponse list = send({.url = site_root() + "/?rest_route=/cal/events/v1/events"});
  CHECK_MESSAGE(list.status == 200, describe(list));
  CHECK_MESSAGE(list.body.rfind("{\"events\":[", 0) == 0, describe(list));
}

}  // namespace caltest
