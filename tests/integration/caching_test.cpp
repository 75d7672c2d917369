// Conditional GET: strong ETags, 304 on a match, never a stale 304 after a write, and the
// Cache-Control split between visitors and authenticated callers.
#include "client.h"

#include <doctest/doctest.h>

#include <string>

namespace {

const std::string kIndex = "/cal/events/v1";

}  // namespace

TEST_CASE("a 200 GET carries a strong ETag and If-None-Match with it gives 304 without a body") {
  const auto first = caltest::get(kIndex);
  REQUIRE(first.status == 200);
  const std::string etag = first.header("etag");
  REQUIRE(etag.size() > 2);
  CHECK(etag.front() == '"');
  CHECK(first.header("cache-control") == "no-cache");
  const auto again = caltest::get(kIndex, {"If-None-Match: " + etag});
  CHECK(again.status == 304);
  CHECK(again.body.empty());
  CHECK(again.header("etag") == etag);
  CHECK(caltest::get(kIndex, {"If-None-Match: \"something-else\""}).status == 200);
}

TEST_CASE("authenticated responses are private and not stored") {
  const auto r = caltest::get(kIndex, {caltest::bearer(caltest::admin_token())});
  CHECK(r.status == 200);
  CHECK(r.header("cache-control") == "private, no-store");
}

TEST_CASE("errors carry no ETag") {
  const auto r = caltest::get("/cal/events/v1/nowhere");
  CHECK(r.status == 404);
  CHECK(r.header("etag").empty());
}

TEST_CASE("a write that changes a record changes its ETag: no stale 304") {
  const std::string admin = caltest::bearer(caltest::admin_token());
  const auto created = caltest::post_json("/cal/events/v1/tags", "{\"name\":\"" + caltest::unique("etag") + "\"}", {admin});
  REQUIRE(created.status == 201);
  const std::string path = "/cal/events/v1/tags/" + std::to_string(created.json()["id"].GetInt64());
  const auto before = caltest::get(path);
  REQUIRE(before.status == 200);
  const std::string etag = before.header("etag");
  REQUIRE(caltest::get(path, {"If-None-Match: " + etag}).status == 304);
  REQUIRE(caltest::post_json(path, "{\"description\":\"changed\"}", {admin}).status == 200);
  const auto after = caltest::get(path, {"If-None-Match: " + etag});
  CHECK(after.status == 200);
  CHECK(after.header("etag") != etag);
  CHECK(caltest::string_at(after.json(), {"description"}) == "changed");
}
