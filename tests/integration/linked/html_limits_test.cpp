// HTML from authors and contributors is sanitized within a parse budget: longer texts are
// refused with 400 instead of being silently shortened; editors' HTML is stored as sent.
#include "support/client.h"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("an author's description beyond the HTML budget is refused and nothing is created") {
  const std::string author = caltest::bearer(caltest::create_user("htmlauthor", "author"));
  const std::string name = caltest::unique("bigvenue");
  const std::string big(130 * 1024, 'x');
  const auto r =
      caltest::post_json("/cal/events/v1/venues",
                         "{\"venue\":\"" + name + "\",\"description\":\"<p>" + big + "</p>\"}", {author});
  CHECK(caltest::error_mismatch(r, 400, "rest_invalid_param") == "");
  CHECK(caltest::find(r.json(), {"data", "params", "description"}) != nullptr);
  const auto list = caltest::get("/cal/events/v1/venues?search=" + name, {author});
  CHECK(list.json()["total"].GetInt64() == 0);
}

TEST_CASE("an editor's long HTML description is stored whole") {
  const std::string editor = caltest::bearer(caltest::create_user("htmleditor", "editor"));
  const std::string big = "<p>" + std::string(130 * 1024, 'y') + "</p>";
  const auto r = caltest::post_json(
      "/cal/events/v1/organizers",
      "{\"organizer\":\"" + caltest::unique("bigorg") + "\",\"description\":\"" + big + "\"}", {editor});
  REQUIRE(r.status == 201);
  CHECK(caltest::string_at(r.json(), {"description"}) == big);
}
