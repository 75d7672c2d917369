// _fields and _envelope reshaping of response bodies.
#include "cal/api/pipeline/response_shape.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

std::string filtered(std::string body, const std::vector<std::string>& fields, const char* list_key = "") {
  cal::filter_fields(body, fields, list_key);
  return body;
}

}  // namespace

TEST_CASE("_fields lists: comma lists, arrays, blanks dropped") {
  rapidjson::Document d;
  d.Parse(R"({"a":" id, venue.city ,,","b":["id","title,slug",3],"c":5})");
  CHECK(cal::field_list(d["a"]) == std::vector<std::string>{"id", "venue.city"});
  CHECK(cal::field_list(d["b"]) == std::vector<std::string>{"id", "title", "slug"});
  CHECK(cal::field_list(d["c"]).empty());
}

TEST_CASE("_fields keeps named fields, nested paths, arrays element-wise, the records of a list") {
  const std::string rec =
      R"({"id":1,"title":"T","venue":{"id":2,"city":"Lyon","zip":"1"},"organizer":[{"id":3,"x":1},{"id":4}],"n":5})";
  CHECK(filtered(rec, {"title", "id"}) == R"({"id":1,"title":"T"})");
  CHECK(filtered(rec, {"venue.city"}) == R"({"venue":{"city":"Lyon"}})");
  CHECK(filtered(rec, {"venue.city", "venue"}) == R"({"venue":{"id":2,"city":"Lyon","zip":"1"}})");
  CHECK(filtered(rec, {"organizer.id"}) == R"({"organizer":[{"id":3},{"id":4}]})");
  CHECK(filtered(rec, {"n.deeper", "nothing"}) == R"({"n":5})");
  CHECK(filtered(rec, {"nothing"}) == "{}");
  const std::string list = "{\"events\":[" + rec + "," + rec + "],\"total\":2,\"rest_url\":\"u\"}";
  CHECK(filtered(list, {"id"}, "events") == R"({"events":[{"id":1},{"id":1}],"total":2,"rest_url":"u"})");
  CHECK(filtered(list, {"total"}) == R"({"total":2})");  // not a list route: the body is the record
  CHECK(filtered("[" + rec + "]", {"id"}) == R"([{"id":1}])");
  CHECK(filtered("not json", {"id"}) == "not json");
}

TEST_CASE("_envelope: status and headers in a 200 body") {
  cal::Response r;
  r.status = 404;
  r.body = R"({"code":"x"})";
  r.set_header("Content-Type", "application/json; charset=UTF-8");
  r.set_header("X-WP-Total", "3");
  cal::envelope(r);
  CHECK(r.status == 200);
  CHECK(r.body == R"({"body":{"code":"x"},"status":404,"headers":{"X-WP-Total":"3"}})");
  REQUIRE(r.headers.size() == 1);
  CHECK(r.headers[0].first == "Content-Type");
  cal::Response empty;
  empty.status = 204;
  cal::envelope(empty);
  CHECK(empty.body == R"({"body":null,"status":204,"headers":{}})");
}
