// Partial updates of different fields of one record, sent at the same time, must both survive:
// each update locks the record and applies to its latest version (no lost updates).
#include "support/client.h"

#include <doctest/doctest.h>

#include <string>
#include <thread>

namespace {

// Sends two PATCHes of different fields to `path` concurrently, `rounds` times; returns how many
// rounds kept both fields.
int rounds_with_both_fields(const std::string& path, const std::string& field_a, const std::string& field_b,
                            int rounds) {
  const std::string admin = caltest::bearer(caltest::admin_token());
  int kept = 0;
  for (int i = 0; i < rounds; ++i) {
    const std::string a = "a" + std::to_string(i);
    const std::string b = "b" + std::to_string(i);
    std::thread first([&] { caltest::patch_json(path, "{\"" + field_a + "\":\"" + a + "\"}", {admin}); });
    std::thread second([&] { caltest::patch_json(path, "{\"" + field_b + "\":\"" + b + "\"}", {admin}); });
    first.join();
    second.join();
    const auto doc = caltest::get(path + "?context=edit", {admin}).json();
    if (caltest::string_at(doc, {field_a.c_str()}) == a && caltest::string_at(doc, {field_b.c_str()}) == b)
      ++kept;
  }
  return kept;
}

}  // namespace

TEST_CASE("concurrent partial updates of an event keep both changes") {
  const std::string admin = caltest::bearer(caltest::admin_token());
  const auto created =
      caltest::post_json("/cal/events/v1/events",
                         "{\"title\":\"" + caltest::unique("partial") +
                             "\",\"start_date\":\"2030-01-01 10:00\",\"end_date\":\"2030-01-01 11:00\"}",
                         {admin});
  REQUIRE(created.status == 201);
  const std::string path = "/cal/events/v1/events/" + std::to_string(created.json()["id"].GetInt64());
  CHECK(rounds_with_both_fields(path, "description", "excerpt", 20) == 20);
}

TEST_CASE("concurrent partial updates of a venue keep both changes") {
  const std::string admin = caltest::bearer(caltest::admin_token());
  const auto created = caltest::post_json("/cal/events/v1/venues",
                                          "{\"venue\":\"" + caltest::unique("partialv") + "\"}", {admin});
  REQUIRE(created.status == 201);
  const std::string path = "/cal/events/v1/venues/" + std::to_string(created.json()["id"].GetInt64());
  CHECK(rounds_with_both_fields(path, "city", "phone", 20) == 20);
}
