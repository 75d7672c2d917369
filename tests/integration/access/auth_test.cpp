// Integration tests of authentication and write permission (docs/api.md §1.2, §1.4, §7): application
// passwords as Bearer or Basic, bad credentials, visitors and subscribers on a write route.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "support/client.h"

namespace caltest {
namespace {

constexpr const char* kEvents = "/cal/events/v1/events";

// An authenticated create with an empty body gets past authentication and permission and
// stops at the required fields: 400 rest_missing_callback_param naming the three of them.
void check_reaches_validation(const HttpResponse& r) {
  CHECK(error_mismatch(r, 400, "rest_missing_callback_param") == "");
  std::vector<std::string> params = strings_at(r.json(), {"data", "params"});
  std::sort(params.begin(), params.end());
  CHECK(params == std::vector<std::string>{"end_date", "start_date", "title"});
}

TEST_CASE("a visitor may not write: 401 rest_forbidden") {
  CHECK(error_mismatch(post_json(kEvents, "{}"), 401, "rest_forbidden") == "");
}

TEST_CASE("a visitor's write is refused before its body is read") {
  CHECK(error_mismatch(post_json(kEvents, "{not json"), 401, "rest_forbidden") == "");
  CHECK(error_mismatch(post_json(kEvents, R"({"title":"x"})"), 401, "rest_forbidden") == "");
}

TEST_CASE("a visitor may read") {
  const HttpResponse r = get(kEvents);
  CHECK_MESSAGE(r.status == 200, describe(r));
}

TEST_CASE("a wrong Bearer password is 401 rest_invalid_credentials, even on a read") {
  const std::string wrong = bearer("not-a-password-" + unique("x"));
  CHECK(error_mismatch(post_json(kEvents, "{}", {wrong}), 401, "rest_invalid_credentials") == "");
  CHECK(error_mismatch(get(kEvents, {wrong}), 401, "rest_invalid_credentials") == "");
}

TEST_CASE("a wrong Basic password is 401 rest_invalid_credentials") {
  CHECK(error_mismatch(post_json(kEvents, "{}", {basic("admin", "wrong-password")}), 401,
                       "rest_invalid_credentials") == "");
  CHECK(error_mismatch(get(kEvents, {basic("admin", "wrong-password")}), 401, "rest_invalid_credentials") ==
        "");
}

TEST_CASE("the admin password under another login is 401 rest_invalid_credentials") {
  const HttpResponse r = post_json(kEvents, "{}", {basic(unique("nobody"), admin_token())});
  CHECK(error_mismatch(r, 401, "rest_invalid_credentials") == "");
}

TEST_CASE("a malformed Authorization header is 401 rest_invalid_credentials") {
  const std::string cases[] = {
      "Authorization: Basic !!!not-base64!!!",
      "Authorization: Basic " + base64("admin"),  // no colon
      "Authorization: Basic",
      "Authorization: Bearer",
  };
  for (const std::string& header : cases) {
    CAPTURE(header);
    CHECK(error_mismatch(get(kEvents, {header}), 401, "rest_invalid_credentials") == "");
  }
}

TEST_CASE("the admin password is accepted as Bearer") {
  check_reaches_validation(post_json(kEvents, "{}", {bearer(admin_token())}));
}

TEST_CASE("the admin password is accepted as Basic admin:<password>") {
  check_reaches_validation(post_json(kEvents, "{}", {basic("admin", admin_token())}));
}

TEST_CASE("an authenticated read succeeds") {
  const HttpResponse r = get(kEvents, {bearer(admin_token())});
  CHECK_MESSAGE(r.status == 200, describe(r));
}

TEST_CASE("a subscriber may not write: 403 rest_forbidden") {
  // A complete, valid body: for authenticated callers permission is checked after validation.
  const std::string event = unique("subscriber_event");
  const std::string body =
      R"({"title":")" + event + R"(","start_date":"2030-01-01 10:00:00","end_date":"2030-01-01 11:00:00"})";
  std::string login;
  const std::string password = create_user("sub", "subscriber", &login);
  CHECK(error_mismatch(post_json(kEvents, body, {bearer(password)}), 403, "rest_forbidden") == "");
  CHECK(error_mismatch(post_json(kEvents, body, {basic(login, password)}), 403, "rest_forbidden") == "");
}

TEST_CASE("a subscriber may read") {
  const HttpResponse r = get(kEvents, {bearer(create_user("sub", "subscriber"))});
  CHECK_MESSAGE(r.status == 200, describe(r));
}

TEST_CASE("an author's password is accepted") {
  check_reaches_validation(post_json(kEvents, "{}", {bearer(create_user("author", "author"))}));
}

}  // namespace
}  // namespace caltest
