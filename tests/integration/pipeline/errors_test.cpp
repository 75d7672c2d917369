// Integration tests of request-level errors (docs/api.md §1.3, §2): bad JSON bodies, body size limit,
// list parameter validation, and the one error shape every error response has.
#include <doctest/doctest.h>

#include <string>

#include "support/client.h"

namespace caltest {
namespace {

constexpr const char* kEvents = "/cal/events/v1/events";

TEST_CASE("malformed JSON is 400 rest_invalid_json") {
  for (const std::string body : {"{not json", R"({"title": )", R"({"title":"x",})", "[1, 2"}) {
    CAPTURE(body);
    CHECK(error_mismatch(post_json(kEvents, body, {bearer(admin_token())}), 400, "rest_invalid_json") == "");
  }
}

TEST_CASE("invalid UTF-8 in a JSON body is 400 rest_invalid_json") {
  const std::string body =
      "{\"title\":\"bad \xff\xfe bytes\",\"start_date\":\"2030-01-01 10:00\","
      "\"end_date\":\"2030-01-01 11:00\"}";
  CHECK(error_mismatch(post_json(kEvents, body, {bearer(admin_token())}), 400, "rest_invalid_json") == "");
}

TEST_CASE("invalid UTF-8 in a query value is 400 rest_invalid_param") {
  CHECK(error_mismatch(get(std::string(kEvents) + "?search=%FF%FE"), 400, "rest_invalid_param") == "");
}

TEST_CASE("a body over 1 MiB is 413 rest_body_too_large") {
  const std::string body = "{\"title\":\"" + std::string(1024 * 1024 + 100, 'a') + "\"}";
  CHECK(error_mismatch(post_json(kEvents, body, {bearer(admin_token())}), 413, "rest_body_too_large") == "");
}

TEST_CASE("a body the web server refuses gets the same JSON 413") {
  const std::string body = "{\"title\":\"" + std::string(3 * 1024 * 1024, 'a') + "\"}";
  CHECK(error_mismatch(post_json(kEvents, body, {bearer(admin_token())}), 413, "rest_body_too_large") == "");
}

TEST_CASE("the service still answers after a refused body") {
  const std::string body = "{\"title\":\"" + std::string(1024 * 1024 + 100, 'a') + "\"}";
  (void)post_json(kEvents, body, {bearer(admin_token())});
  const HttpResponse r = get(kEvents);
  CHECK_MESSAGE(r.status == 200, describe(r));
}

TEST_CASE("page=0 is 400 rest_invalid_param naming page") {
  const HttpResponse r = get(std::string(kEvents) + "?page=0");
  CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
  CHECK(string_at(r.json(), {"data", "params", "page"}) != "");
}

TEST_CASE("all invalid parameters are reported in one 400") {
  const HttpResponse r = get(std::string(kEvents) + "?page=abc&per_page=-1");
  CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
  const auto doc = r.json();
  CHECK(string_at(doc, {"data", "params", "page"}) != "");
  CHECK(string_at(doc, {"data", "params", "per_page"}) != "");
  const std::string message = string_at(doc, {"message"});
  CHECK(message.find("page") != std::string::npos);
  CHECK(message.find("per_page") != std::string::npos);
}

TEST_CASE("integer parameters accept decimal strings only") {
  for (const std::string bad : {"page=1.5", "page=5x", "page=", "per_page=0"}) {
    CAPTURE(bad);
    CHECK(error_mismatch(get(std::string(kEvents) + "?" + bad), 400, "rest_invalid_param") == "");
  }
}

TEST_CASE("per_page above the maximum is clamped, not refused") {
  // 51 events sharing a word: one more than the maximum page size (50).
  const std::string word = unique("clamp");
  for (int i = 0; i < 51; ++i) {
    const std::string body = "{\"title\":\"" + word + " " + std::to_string(i) +
                             "\",\"start_date\":\"+3 days 10:00\",\"end_date\":\"+3 days 11:00\"}";
    const HttpResponse created = post_json(kEvents, body, {bearer(admin_token())});
    REQUIRE_MESSAGE(created.status == 201, describe(created));
  }
  const HttpResponse r = get(std::string(kEvents) + "?search=" + word + "&per_page=1000");
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  const auto doc = r.json();
  const rapidjson::Value* events = find(doc, {"events"});
  REQUIRE(events != nullptr);
  REQUIRE(events->IsArray());
  CHECK(events->Size() == 50);
  CHECK(r.header("x-wp-total") == "51");
  CHECK(r.header("x-wp-totalpages") == "2");
  CHECK(string_at(doc, {"rest_url"}).find("per_page=50") != std::string::npos);
  CHECK(string_at(doc, {"rest_url"}).find("per_page=1000") == std::string::npos);
  CHECK(string_at(doc, {"next_rest_url"}).find("page=2") != std::string::npos);
}

TEST_CASE("every error has exactly code, message and data.status equal to the HTTP status") {
  struct Case {
    std::string what;
    HttpResponse response;
    long status;
    const char* code;
  };
  const std::string admin = bearer(admin_token());
  const Case cases[] = {
      {"unknown route", get("/cal/events/v1/nothing-here"), 404, "rest_no_route"},
      {"unserved method", request("PUT", kEvents), 405, "rest_method_not_allowed"},
      {"visitor write", post_json(kEvents, "{}"), 401, "rest_forbidden"},
      {"bad credentials", get(kEvents, {bearer("wrong")}), 401, "rest_invalid_credentials"},
      {"missing fields", post_json(kEvents, "{}", {admin}), 400, "rest_missing_callback_param"},
      {"bad JSON", post_json(kEvents, "{", {admin}), 400, "rest_invalid_json"},
      {"bad parameter", get(std::string(kEvents) + "?page=0"), 400, "rest_invalid_param"},
      {"other namespace", get("/cal/events/v1?namespace=x"), 404, "rest_invalid_namespace"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    CHECK(error_mismatch(c.response, c.status, c.code) == "");
  }
}

}  // namespace
}  // namespace caltest
