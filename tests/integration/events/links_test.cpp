// Integration tests of an event's links on writes (docs/api.md §5, §3.4): inline venue and organizer
// data creating or reusing records, organizers in the given order, unlinking with 0/""/[]/null,
// omitted links kept, categories and tags by id or name (missing names created), and images by
// URL (reused) or id.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

TEST_CASE("update: unlinking venue, organizers and terms; omitted links are kept") {
  const std::string word = unique("unlink");
  const rapidjson::Document created =
      create(event_body(word, "2041-07-10 09:00", "2041-07-10 10:00",
                        "\"venue\":{\"venue\":\"UV " + word + "\"},\"organizer\":[{\"organizer\":\"UO1 " +
                            word + "\"},{\"organizer\":\"UO2 " + word + "\"}],\"categories\":\"uc " + word +
                            "\",\"tags\":[\"ut " + word + "\"]"));
  const long long id = id_of(created);
  const long long venue = int_at(created, {"venue", "id"});
  const long long o1 = int_at(created, {"organizer", "0", "id"});
  const long long o2 = int_at(created, {"organizer", "1", "id"});
  REQUIRE(venue > 0);
  REQUIRE(array_size(created, {"categories"}) == 1);

  rapidjson::Document e = post_json(path_of(id), R"({"title":"still linked"})", {admin()}).json();
  CHECK(int_at(e, {"venue", "id"}) == venue);
  CHECK(array_size(e, {"organizer"}) == 2);
  CHECK(array_size(e, {"categories"}) == 1);
  CHECK(array_size(e, {"tags"}) == 1);

  // Organizer order as given; reordering by ids.
  e = post_json(path_of(id),
                "{\"organizer\":[" + std::to_string(o2) + ",{\"id\":" + std::to_string(o1) + "}]}", {admin()})
          .json();
  CHECK(int_at(e, {"organizer", "0", "id"}) == o2);
  CHECK(int_at(e, {"organizer", "1", "id"}) == o1);
  e = post_json(path_of(id), "{\"organizer\":" + std::to_string(o1) + "}", {admin()}).json();
  REQUIRE(array_size(e, {"organizer"}) == 1);
  CHECK(int_at(e, {"organizer", "0", "id"}) == o1);

  for (const char* none : {"0", "\"\"", "[]", "null"}) {
    CAPTURE(none);
    e = post_json(path_of(id), "{\"venue\":" + std::to_string(venue) + "}", {admin()}).json();
    CHECK(int_at(e, {"venue", "id"}) == venue);
    e = post_json(path_of(id), std::string("{\"venue\":") + none + "}", {admin()}).json();
    CHECK(array_size(e, {"venue"}) == 0);
  }
  e = post_json(path_of(id), "{\"venue\":{\"id\":" + std::to_string(venue) + "}}", {admin()}).json();
  CHECK(int_at(e, {"venue", "id"}) == venue);
  e = post_json(path_of(id), R"({"organizer":[]})", {admin()}).json();
  CHECK(array_size(e, {"organizer"}) == 0);
  e = post_json(path_of(id), R"({"categories":"","tags":[]})", {admin()}).json();
  CHECK(array_size(e, {"categories"}) == 0);
  CHECK(array_size(e, {"tags"}) == 0);
  CHECK(int_at(e, {"venue", "id"}) == venue);
}

TEST_CASE("inline venue and organizer data reuse matching records") {
  const std::string word = unique("reuse");
  const std::string data = "\"venue\":{\"venue\":\"RV " + word +
                           "\",\"city\":\"Oslo\"},\"organizer\":[{\"organizer\":\"RO " + word + "\"}]";
  const rapidjson::Document a = create(event_body(word + " a", "2041-07-10 09:00", "2041-07-10 10:00", data));
  const rapidjson::Document b = create(event_body(word + " b", "2041-07-10 09:00", "2041-07-10 10:00", data));
  CHECK(int_at(a, {"venue", "id"}) == int_at(b, {"venue", "id"}));
  CHECK(int_at(a, {"organizer", "0", "id"}) == int_at(b, {"organizer", "0", "id"}));
  const rapidjson::Document c =
      create(event_body(word + " c", "2041-07-10 09:00", "2041-07-10 10:00",
                        "\"venue\":{\"venue\":\"rv " + word + "\",\"city\":\"Bergen\"}"));
  CHECK(int_at(c, {"venue", "id"}) != int_at(a, {"venue", "id"}));
}

TEST_CASE("categories and tags by id or name; missing names are created") {
  const std::string word = unique("termin");
  const rapidjson::Document a =
      create(event_body(word + " a", "2041-07-10 09:00", "2041-07-10 10:00",
                        "\"categories\":\"n1 " + word + ", n2 " + word + "\",\"tags\":\"t " + word + "\""));
  REQUIRE(array_size(a, {"categories"}) == 2);
  const long long n1 = int_at(a, {"categories", "0", "id"});
  const long long t = int_at(a, {"tags", "0", "id"});
  const rapidjson::Document b = create(event_body(
      word + " b", "2041-07-10 09:00", "2041-07-10 10:00",
      "\"categories\":[" + std::to_string(n1) + ",\"n1 " + word + "\"],\"tags\":" + std::to_string(t)));
  REQUIRE(array_size(b, {"categories"}) == 1);
  CHECK(int_at(b, {"categories", "0", "id"}) == n1);
  CHECK(int_at(b, {"tags", "0", "id"}) == t);
  // A tag id is no category.
  CHECK(error_mismatch(post_json(kEvents,
                                 event_body(word + " c", "2041-07-10 09:00", "2041-07-10 10:00",
                                            "\"categories\":[" + std::to_string(t) + "]"),
                                 {admin()}),
                       400, "rest_invalid_param") == "");
}

TEST_CASE("an image given by URL is reused for the same URL, and may be given by id") {
  const std::string url = "https://img.example.org/" + unique("img") + ".png";
  const rapidjson::Document a =
      create(event_body(unique("img"), "2041-07-10 09:00", "2041-07-10 10:00", "\"image\":" + quoted(url)));
  const long long image_id = int_at(a, {"image", "id"});
  REQUIRE(image_id > 0);
  CHECK(string_at(a, {"image", "extension"}) == "png");
  const rapidjson::Document b =
      create(event_body(unique("img"), "2041-07-10 09:00", "2041-07-10 10:00", "\"image\":" + quoted(url)));
  CHECK(int_at(b, {"image", "id"}) == image_id);
  const rapidjson::Document c = create(event_body(unique("img"), "2041-07-10 09:00", "2041-07-10 10:00",
                                                  "\"image\":" + std::to_string(image_id)));
  CHECK(int_at(c, {"image", "id"}) == image_id);
  CHECK(string_at(c, {"image", "url"}) == url);
}

}  // namespace
}  // namespace caltest
