// Integration tests of authentication hardening (docs/reliability.md): failed authentications throttled per
// login and per client address (429 rest_too_many_requests with Retry-After), valid credentials
// never throttled, no password or Authorization header in any log, nosniff on every response.
// Address-limit tests send from their own loopback address (127.0.0.N), so the failures they pile
// up never touch the address the other tests use.
#include <doctest/doctest.h>

#include <cstdlib>
#include <random>
#include <string>

#include "support/client.h"
#include "support/reliability.h"

namespace caltest {
namespace {

constexpr const char* kEvents = "/cal/events/v1/events";

// A loopback source address no other test uses in this run: 127.0.0.N, N from a random start in
// 2..151 counting up, so each call gets its own (pipeline/hostile_input_test.cpp uses 127.0.0.201).
std::string private_source_address() {
  static int next = 2 + static_cast<int>(std::random_device{}() % 150);
  return "127.0.0." + std::to_string(next++);
}

HttpResponse get_from(const std::string& source, std::vector<std::string> headers) {
  return raw_request({.url = base_url() + kEvents, .headers = std::move(headers), .source_ip = source})
      .response;
}

// "" when `r` is 429 rest_too_many_requests with a Retry-After of 1..60 seconds.
std::string throttled_mismatch(const HttpResponse& r) {
  if (std::string m = error_mismatch(r, 429, "rest_too_many_requests"); !m.empty()) return m;
  const std::string after = r.header("retry-after");
  if (after.empty() || after.find_first_not_of("0123456789") != std::string::npos)
    return "Retry-After: " + after;
  const int seconds = std::stoi(after);
  return seconds >= 1 && seconds <= 60 ? "" : "Retry-After out of range: " + after;
}

// The REST root of the deployment named by the environment variable `name` (run-tests.sh sets
// it; scripts/deploy-stacks.sh), or "" when CAL_TEST_NO_DEPLOY=1 says only the stack is there.
std::string deployment_root(const char* name) {
  const char* v = std::getenv(name);
  if (v != nullptr && *v != '\0') return v;
  const char* none = std::getenv("CAL_TEST_NO_DEPLOY");
  REQUIRE_MESSAGE((none != nullptr && std::string(none) == "1"),
                  name << " is not set (see deploy/smoke_test.cpp)");
  return "";
}

}  // namespace

TEST_CASE(
    "failed logins are counted in the database: every process and deployment shares the counts, CGI mode "
    "included") {
  const std::string cgi = deployment_root("CAL_TEST_APACHE_CGI");
  const std::string tcp = deployment_root("CAL_TEST_NGINX_TCP_PREFIX");
  if (cgi.empty() || tcp.empty()) return;
  const std::string login = unique("everywhere");
  const auto fail_at = [&](const std::string& root, int i) {
    return send({.url = root + kEvents, .headers = {basic(login, "wrong-" + std::to_string(i))}});
  };
  // Five failures through the stack's FastCGI service, five through CGI (a new process each time).
  for (int i = 0; i < 10; ++i) {
    CAPTURE(i);
    CHECK(error_mismatch(fail_at(i < 5 ? base_url() : cgi, i), 401, "rest_invalid_credentials") == "");
  }
  // The eleventh is throttled by a CGI process, and by the FastCGI service behind nginx over TCP.
  CHECK(throttled_mismatch(fail_at(cgi, 10)) == "");
  CHECK(throttled_mismatch(fail_at(tcp, 11)) == "");
  CHECK(throttled_mismatch(fail_at(base_url(), 12)) == "");
}

TEST_CASE(
    "ten failed Basic logins pass as 401, the eleventh is 429 with Retry-After; the right password still "
    "works") {
  std::string login;
  const std::string password = create_user("throttled", "subscriber", &login);
  const std::string source = private_source_address();
  for (int i = 0; i < 10; ++i) {
    CAPTURE(i);
    CHECK(error_mismatch(get_from(source, {basic(login, "wrong-" + std::to_string(i))}), 401,
                         "rest_invalid_credentials") == "");
  }
  CHECK(throttled_mismatch(get_from(source, {basic(login, "wrong-again")})) == "");
  // The login is throttled from every address, the shared one included.
  CHECK(throttled_mismatch(get(kEvents, {basic(login, "wrong-from-elsewhere")})) == "");
  // Valid credentials are never throttled: nobody can lock a user out.
  const HttpResponse ok = get_from(source, {basic(login, password)});
  CHECK_MESSAGE(ok.status == 200, describe(ok));
  CHECK(get(kEvents, {bearer(password)}).status == 200);
  // Another login from the same address is unaffected.
  CHECK(error_mismatch(get_from(source, {basic(unique("other"), "wrong")}), 401,
                       "rest_invalid_credentials") == "");
}

TEST_CASE(
    "one hundred failures from one address throttle every further failure from it, not valid credentials") {
  const std::string source = private_source_address();
  for (int i = 0; i < 100; ++i) {
    CAPTURE(i);
    REQUIRE(error_mismatch(get_from(source, {bearer("not-a-password-" + std::to_string(i))}), 401,
                           "rest_invalid_credentials") == "");
  }
  CHECK(throttled_mismatch(get_from(source, {bearer("still-not-a-password")})) == "");
  CHECK(throttled_mismatch(get_from(source, {basic(unique("fresh"), "wrong")})) == "");
  CHECK(throttled_mismatch(get_from(source, {"Authorization: Basic !!!"})) == "");
  // Valid credentials and visitors from that address still get through.
  CHECK(get_from(source, {bearer(admin_token())}).status == 200);
  CHECK(get_from(source, {}).status == 200);
}

TEST_CASE(
    "a database-independent failure on a write route is throttled too, and 429 is a docs/api.md §2 error") {
  const std::string source = private_source_address();
  std::string login = unique("writer");
  for (int i = 0; i < 10; ++i)
    raw_request({.url = base_url() + kEvents,
                 .method = "POST",
                 .body = "{}",
                 .headers = {"Content-Type: application/json", basic(login, "x")},
                 .source_ip = source});
  const HttpResponse r = raw_request({.url = base_url() + kEvents,
                                      .method = "POST",
                                      .body = "{}",
                                      .headers = {"Content-Type: application/json", basic(login, "x")},
                                      .source_ip = source})
                             .response;
  CHECK(throttled_mismatch(r) == "");
  CHECK(r.header("x-content-type-options") == "nosniff");
}

TEST_CASE("application passwords and Authorization headers never appear in the logs") {
  const std::string dir = test_stack_dir();
  if (dir.empty()) return;  // no stack directory to read logs from (a remote stack)
  const std::string secret = "secret-" + unique("pw");
  std::string login;
  const std::string password = create_user("logged", "author", &login);
  const std::string basic_header = basic(login, secret);
  // Failures, successes, an error inside a write, a 404 and a 405, with credentials each time.
  get(kEvents, {bearer(secret)});
  get(kEvents, {basic_header});
  get(kEvents, {basic(login, password)});
  post_json(kEvents, R"({"title":"x","start_date":"nonsense","end_date":"2025-01-01"})", {bearer(password)});
  get("/cal/events/v1/events/999999999", {bearer(password)});
  request("PUT", kEvents, "{}", {bearer(password), "Content-Type: application/json"});
  get(std::string(kEvents) + "?password=" + secret, {bearer(password)});  // a query value is not a header
  const std::string logs[] = {dir + "/calendar-fcgi.log", dir + "/nginx/error.log", dir + "/mysqld.log"};
  for (const std::string& path : logs) {
    CAPTURE(path);
    const std::string text = read_text_file(path);
    CHECK(text.find(password) == std::string::npos);
    CHECK(text.find(admin_token()) == std::string::npos);
    CHECK(text.find(secret) == std::string::npos);
    CHECK(text.find(basic_header.substr(basic_header.find("Basic ") + 6)) == std::string::npos);
    CHECK(text.find("Authorization") == std::string::npos);
    CHECK(text.find("Bearer ") == std::string::npos);
  }
  // nginx's access log has the request line (with the query) but no header values.
  const std::string access = read_text_file(dir + "/nginx/access.log");
  CHECK(access.find(password) == std::string::npos);
  CHECK(access.find(admin_token()) == std::string::npos);
  CHECK(access.find(basic_header.substr(basic_header.find("Basic ") + 6)) == std::string::npos);
}

TEST_CASE("every response carries X-Content-Type-Options: nosniff") {
  const std::string admin = bearer(admin_token());
  const HttpResponse responses[] = {
      get(kEvents),
      get("/cal/events/v1"),
      get("/cal/events/v1/doc"),
      get("/cal/events/v1/nothing"),
      request("PUT", kEvents),
      options(kEvents),
      head(kEvents),
      get(kEvents, {bearer("wrong")}),
      post_json(kEvents, "{", {admin}),
      post_json(kEvents, "{}", {admin}),
      get("/cal/events/v1/events/999999999"),
      get(std::string(kEvents) + "?page=0"),
      request("POST", kEvents, "x", {admin, "Content-Type: text/plain"}),
      post_json(kEvents, std::string(1100000, ' '), {admin}),
  };
  for (const HttpResponse& r : responses) {
    CAPTURE(describe(r));
    CHECK(r.header("x-content-type-options") == "nosniff");
  }
}

}  // namespace caltest
