// The request logs' pure parts: the query string of the slow log without secrets, the request id
// taken from X-Request-Id only when it is safe to log, and the JSON access line's fields.
#include "cal/http/request_log.h"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("redacted_query replaces the values of password and token parameters, nothing else") {
  struct Case {
    const char* query;
    const char* expected;
  };
  static const Case kCases[] = {
      {"", ""},
      {"per_page=2", "per_page=2"},
      {"password=hunter2", "password=***"},
      {"a=1&password=x&b=2", "a=1&password=***&b=2"},
      {"TOKEN=abc&search=jazz", "TOKEN=***&search=jazz"},
      {"access_token=abc&_wpnonce=n&key=k", "access_token=***&_wpnonce=***&key=***"},
      {"passwords=1&token", "passwords=1&token"},
      {"&search=a&&", "&search=a&&"},
  };
  for (const Case& c : kCases) {
    CAPTURE(c.query);
    CHECK(cal::redacted_query(c.query) == c.expected);
  }
}

TEST_CASE("request_id_of takes a safe X-Request-Id, else makes a new one per request") {
  struct Case {
    const char* given;
    bool kept;
  };
  static const Case kCases[] = {
      {"abc-123", true},
      {"f3a9c2e1-7b4d-4e8a-9c1f-2d3e4f5a6b7c", true},
      {"node.1:42_x", true},
      {"", false},
      {"has space", false},
      {"quote\"inside", false},
      {"line\nbreak", false},
      {"0123456789012345678901234567890123456789012345678901234567890123456789", false},  // 70 characters
  };
  for (const Case& c : kCases) {
    CAPTURE(c.given);
    cal::Request r;
    if (*c.given) r.headers["x-request-id"] = c.given;
    const std::string id = cal::request_id_of(r);
    CHECK((id == c.given) == c.kept);
    CHECK(!id.empty());
    if (!c.kept) CHECK(cal::request_id_of(r) != id);
  }
}

TEST_CASE("the JSON access line has the fields of docs/operations.md and no header, body or query") {
  cal::Request r;
  r.method = "POST";
  r.path = "/cal/events/v1/events";
  r.query_string = "password=secret";
  r.headers["authorization"] = "Bearer secret-token";
  r.body = "{\"password\":\"secret\"}";
  cal::Response response;
  response.status = 201;
  response.body = "12345";
  response.route = "/cal/events/v1/events";
  response.statements = 7;
  response.cache = "";
  response.caller = 42;
  const std::string line = cal::access_json(r, response, 1234, "id-\"1", "2026-11-26T20:41:37.123Z");
  CHECK(
      line ==
      "{\"time\":\"2026-11-26T20:41:37.123Z\",\"request_id\":\"id-\\\"1\",\"method\":\"POST\","
      "\"route\":\"/cal/events/v1/events\",\"status\":201,\"bytes\":5,\"duration_us\":1234,\"statements\":7,"
      "\"cache\":\"\",\"caller\":42}");
  CHECK(line.find("secret") == std::string::npos);
}
