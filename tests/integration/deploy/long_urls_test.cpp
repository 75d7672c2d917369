// Large but legal requests through every shipped deployment: for each list route, the longest
// URL the deployment accepts (nginx and Apache take request lines up to about 8 KB) answers 200
// or 4xx, never 5xx, with all its headers, which stay within the 4 KB FastCGI header buffer
// (docs/deploying.md). The URLs carry long canonical filters (ids, statuses) and page through
// several pages, so that the answer has a Link header, plus a parameter the service ignores to
// reach the limit. CAL_TEST_BASE is the stack's nginx; the other deployments as in smoke_test.cpp.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "support/client.h"

namespace caltest {
namespace {

constexpr const char* kNs = "/cal/events/v1";

std::string admin() { return bearer(admin_token()); }

long long create(const std::string& collection, const std::string& json) {
  const HttpResponse r = post_json(std::string(kNs) + collection, json, {admin()});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  return r.json()["id"].GetInt64();
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ",") + i;
  return out;
}

// A list route and a query with long canonical filters that still match several records.
struct Probe {
  std::string route;
  std::string query;
};

std::vector<Probe> probes() {
  const std::string tag = unique("longurl");
  std::vector<std::string> events, categories, tags;
  // Three or more records in each list (four terms, one of them excluded): page 2 has both rels.
  for (int i = 0; i < 4; ++i) {
    const std::string n = std::to_string(i);
    if (i < 3)
      events.push_back(std::to_string(create(
          "/events", "{\"title\":\"" + tag + n + "\",\"status\":\"publish\",\"start_date\":\"2032-05-0" +
                         std::to_string(i + 1) + " 10:00:00\",\"end_date\":\"2032-05-0" +
                         std::to_string(i + 1) + " 11:00:00\"}")));
    categories.push_back(std::to_string(create("/categories", "{\"name\":\"" + tag + "c" + n + "\"}")));
    tags.push_back(std::to_string(create("/tags", "{\"name\":\"" + tag + "t" + n + "\"}")));
    create("/venues", "{\"venue\":\"" + tag + "v" + n + "\"}");
    create("/organizers", "{\"organizer\":\"" + tag + "o" + n + "\"}");
  }
  // 1,000 event ids (the include limit), three of them real, the others seven digits long.
  std::vector<std::string> include = events;
  for (int i = 0; include.size() < 1000; ++i) include.push_back(std::to_string(9000000 + i));
  // Terms: leave one of them out, named 1,000 times (the exclude limit).
  std::vector<std::string> exclude_category(1000, categories[0]), exclude_tag(1000, tags[0]);
  std::vector<std::string> statuses(50, "publish");
  return {
      {"/events", "per_page=1&page=2&include=" + joined(include)},
      {"/venues", "per_page=1&page=2&status=" + joined(statuses)},
      {"/organizers", "per_page=1&page=2&status=" + joined(statuses)},
      {"/categories", "per_page=1&page=2&hide_empty=false&exclude=" + joined(exclude_category)},
      {"/tags", "per_page=1&page=2&hide_empty=false&exclude=" + joined(exclude_tag)},
  };
}

HttpResponse fetch(const std::string& url) { return send({.url = url, .headers = {admin()}}); }

// The bytes the answer's headers take on the wire.
std::size_t header_bytes(const HttpResponse& r) {
  std::size_t n = 0;
  for (const auto& [name, value] : r.headers) n += name.size() + value.size() + 4;
  return n;
}

// Checks the longest URL of `root` + probe (padded) that the deployment accepts; returns its length.
std::size_t check_longest(const std::string& root, const Probe& probe) {
  const std::string url = root + kNs + probe.route + "?" + probe.query;
  CAPTURE(url.size());
  // The request line holds the path and query only; pad with a parameter the service ignores.
  auto padded = [&](std::size_t pad) { return url + "&pad=" + std::string(pad, 'x'); };
  std::size_t low = 0, high = 9000;  // low is accepted (checked below), high is not
  const HttpResponse base = fetch(padded(0));
  REQUIRE_MESSAGE(base.status != 414, describe(base));
  while (high - low > 1) {
    const std::size_t mid = (low + high) / 2;
    if (fetch(padded(mid)).status == 414)
      high = mid;
    else
      low = mid;
  }
  const std::string longest = padded(low);
  const HttpResponse r = fetch(longest);
  CAPTURE(longest.size());
  CHECK_MESSAGE(r.status < 500, describe(r));
  CHECK_MESSAGE(r.status == 200, describe(r));  // every filter of the probe is valid
  CHECK(r.header("content-type").find("application/json") == 0);
  CHECK(r.header("x-wp-total") != "");
  CHECK(r.header("x-wp-totalpages") != "");
  CHECK(header_bytes(r) < 4096);
  // Page 2 of at least three: both rels in the body; in Link as far as the bound allows.
  const rapidjson::Document body = r.json();
  CHECK(string_at(body, {"next_rest_url"}) != "");
  CHECK(string_at(body, {"previous_rest_url"}) != "");
  CHECK(r.header("link").size() <= 2048);
  if (probe.query.size() < 600) {
    CHECK(r.header("link").find("rel=\"next\"") != std::string::npos);
    CHECK(r.header("link").find("rel=\"prev\"") != std::string::npos);
  }
  CHECK(r.header("link").find("pad=") == std::string::npos);  // canonical parameters only
  CHECK(r.header("link").find("%2C") == std::string::npos);   // commas as sent
  MESSAGE(root << probe.route << ": longest accepted URL " << longest.size() << " bytes, HTTP " << r.status);
  return longest.size();
}

// The REST root of a deployment named by `variable`, or "" (with a message) when it is absent and
// CAL_TEST_NO_DEPLOY=1 says so; a failure otherwise.
std::string deployment(const char* variable) {
  const char* v = std::getenv(variable);
  if (v && *v) return v;
  const char* opt_out = std::getenv("CAL_TEST_NO_DEPLOY");
  if (opt_out && std::string(opt_out) == "1") {
    MESSAGE((std::string(variable) + " is not set and CAL_TEST_NO_DEPLOY=1: deployment not tested"));
    return "";
  }
  FAIL_CHECK((std::string(variable) + " is not set (scripts/run-tests.sh starts the deployment)"));
  return "";
}

TEST_CASE("long urls: the longest URL each deployment accepts answers with all its headers") {
  const std::vector<Probe> all = probes();
  std::vector<std::pair<std::string, std::string>> roots = {{"nginx (stack)", base_url()}};
  for (const char* variable :
       {"CAL_TEST_NGINX_TCP_PREFIX", "CAL_TEST_APACHE_PROXY", "CAL_TEST_APACHE_FCGID", "CAL_TEST_APACHE_CGI"})
    if (const std::string root = deployment(variable); !root.empty()) roots.emplace_back(variable, root);
  for (const auto& [name, root] : roots) {
    CAPTURE(name);
    for (const Probe& probe : all) {
      CAPTURE(probe.route);
      CHECK(check_longest(root, probe) > 7000);
    }
  }
}

TEST_CASE("long urls: the issue's 699 ids answer 200 through nginx, with a bounded Link") {
  std::vector<std::string> ids;
  for (int i = 1; i <= 699; ++i) ids.push_back(std::to_string(i));
  const HttpResponse r = get(std::string(kNs) + "/events?per_page=1&include=" + joined(ids), {admin()});
  CHECK_MESSAGE(r.status == 200, describe(r));
  CHECK(r.header("link").size() <= 2048);
  CHECK(header_bytes(r) < 4096);
}

}  // namespace
}  // namespace caltest
