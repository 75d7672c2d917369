// Integration tests of the venue record (docs/api.md §3.2): keys and types, stateprovince derivation,
// show_map input, geolocation input, json_ld, website validation and the venue search fields.
#include <doctest/doctest.h>

#include <cctype>
#include <string>
#include <vector>

#include "support/linked.h"

namespace caltest {
namespace {

const LinkedResource& kRes = kVenueResource;

std::vector<std::string> keys_of(const rapidjson::Value& object) {
  std::vector<std::string> keys;
  for (const auto& m : object.GetObject()) keys.emplace_back(m.name.GetString(), m.name.GetStringLength());
  return keys;
}

const std::vector<std::string> kVenueKeys = {"id",
                                             "global_id",
                                             "global_id_lineage",
                                             "author",
                                             "status",
                                             "date",
                                             "date_utc",
                                             "modified",
                                             "modified_utc",
                                             "url",
                                             "rest_url",
                                             "venue",
                                             "description",
                                             "excerpt",
                                             "slug",
                                             "image",
                                             "address",
                                             "city",
                                             "country",
                                             "province",
                                             "state",
                                             "zip",
                                             "phone",
                                             "website",
                                             "stateprovince",
                                             "show_map",
                                             "show_map_link",
                                             "geo_lat",
                                             "geo_lng"};

TEST_CASE("a created venue has every key in order, typed, and a Location") {
  const std::string name = unique("Venue Keys");
  const HttpResponse r =
      post_json(kRes.collection, "{\"venue\":" + json_string(name) + "}", {bearer(admin_token())});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  const rapidjson::Document doc = r.json();
  CHECK(keys_of(doc) == kVenueKeys);
  const long long id = id_of(doc);
  CHECK(r.header("location") == base_url() + item_path(kRes, id));
  CHECK(string_at(doc, {"rest_url"}) == base_url() + item_path(kRes, id));
  CHECK(string_at(doc, {"venue"}) == name);
  CHECK(string_at(doc, {"status"}) == "publish");
  CHECK(doc["author"].IsInt64());
  CHECK(string_at(doc, {"global_id_lineage", "0"}) == string_at(doc, {"global_id"}));
  CHECK(string_at(doc, {"url"}).find("/venue/" + string_at(doc, {"slug"}) + "/") != std::string::npos);
  for (const char* key : {"description", "excerpt", "address", "city", "country", "province", "state", "zip",
                          "phone", "website", "stateprovince"}) {
    CAPTURE(key);
    CHECK(string_at(doc, {key}) == "");
    CHECK(doc[key].IsString());
  }
  CHECK(doc["image"].IsFalse());
  CHECK(doc["show_map"].IsTrue());
  CHECK(doc["show_map_link"].IsTrue());
  CHECK(doc["geo_lat"].IsNull());
  CHECK(doc["geo_lng"].IsNull());
}

TEST_CASE("the venue fields are stored and returned as sent") {
  const std::string name = unique("Venue Fields");
  const rapidjson::Document doc = create_record(
      kRes, name,
      R"("description":"<b>Big</b> hall","address":"1 Main St","city":"Springfield","country":"Germany",)"
      R"("province":"Bavaria","state":"XX","zip":"80331","phone":"+49 89 1","website":"https://hall.example.org/x")",
      bearer(admin_token()));
  CHECK(string_at(doc, {"description"}) == "<b>Big</b> hall");
  CHECK(string_at(doc, {"address"}) == "1 Main St");
  CHECK(string_at(doc, {"city"}) == "Springfield");
  CHECK(string_at(doc, {"country"}) == "Germany");
  CHECK(string_at(doc, {"province"}) == "Bavaria");
  CHECK(string_at(doc, {"state"}) == "XX");
  CHECK(string_at(doc, {"zip"}) == "80331");
  CHECK(string_at(doc, {"phone"}) == "+49 89 1");
  CHECK(string_at(doc, {"website"}) == "https://hall.example.org/x");
  // Read back by id: the same values.
  const HttpResponse g = get(item_path(kRes, id_of(doc)));
  REQUIRE_MESSAGE(g.status == 200, describe(g));
  CHECK(string_at(g.json(), {"city"}) == "Springfield");
}

struct StateCase {
  const char* fields;
  const char* expected;
};

const StateCase kStateCases[] = {
    {R"("country":"US","state":"NY","province":"P")", "NY"},
    {R"("country":"United States","state":"CA","province":"P")", "CA"},
    {R"("country":"united states","state":"TX")", "TX"},
    {R"("state":"WA","province":"P")", "WA"},
    {R"("country":"","state":"OR","province":"P")", "OR"},
    {R"("country":"Canada","state":"S","province":"Ontario")", "Ontario"},
    {R"("country":"Canada","province":"Quebec")", "Quebec"},
    {R"("country":"US","state":"NY","stateprovince":"New York State")", "New York State"},
    {R"("country":"Canada","province":"BC","stateprovince":"")", ""},
};

TEST_CASE("stateprovince is derived on create unless sent") {
  for (const StateCase& c : kStateCases) {
    const std::string fields = c.fields;
    CAPTURE(fields);
    const rapidjson::Document doc =
        create_record(kRes, unique("Venue State"), c.fields, bearer(admin_token()));
    CHECK(string_at(doc, {"stateprovince"}) == c.expected);
  }
}

TEST_CASE("stateprovince is recomputed by an update that does not send it") {
  const long long id = create_record_id(kRes, unique("Venue Recompute"),
                                        R"("country":"US","state":"NY","province":"Ontario")");
  const std::string path = item_path(kRes, id);
  const std::string auth = bearer(admin_token());
  HttpResponse r = post_json(path, R"({"country":"Canada"})", {auth});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(string_at(r.json(), {"stateprovince"}) == "Ontario");
  r = post_json(path, R"({"stateprovince":"Kept"})", {auth});
  CHECK(string_at(r.json(), {"stateprovince"}) == "Kept");
  r = post_json(path, R"({"country":"US"})", {auth});
  CHECK(string_at(r.json(), {"stateprovince"}) == "NY");
  r = post_json(path, R"({"city":"Buffalo"})", {auth});
  CHECK(string_at(r.json(), {"stateprovince"}) == "NY");
  CHECK(string_at(r.json(), {"country"}) == "US");
}

struct FlagCase {
  const char* value;  // JSON value
  bool expected;
};

const FlagCase kFlagCases[] = {
    {"true", true},       {"false", false}, {"\"1\"", true},    {"\"0\"", false},  {"\"yes\"", true},
    {"\"YES\"", true},    {"\"on\"", true}, {"\"True\"", true}, {"\"no\"", false}, {"\"off\"", false},
    {"\"maybe\"", false}, {"\"\"", false},  {"1", true},        {"0", false},
};

TEST_CASE("show_map and show_map_link read strings as truthy") {
  for (const FlagCase& c : kFlagCases) {
    const std::string value = c.value;
    CAPTURE(value);
    const std::string fields = std::string("\"show_map\":") + c.value + ",\"show_map_link\":" + c.value;
    const rapidjson::Document doc = create_record(kRes, unique("Venue Flag"), fields, bearer(admin_token()));
    CHECK(doc["show_map"].IsBool());
    CHECK(doc["show_map"].GetBool() == c.expected);
    CHECK(doc["show_map_link"].GetBool() == c.expected);
  }
}

TEST_CASE("show_map keeps its value when an update does not send it") {
  const long long id = create_record_id(kRes, unique("Venue Flag Keep"), R"("show_map":"no")");
  const HttpResponse r = post_json(item_path(kRes, id), R"({"city":"X"})", {bearer(admin_token())});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(r.json()["show_map"].IsFalse());
  CHECK(r.json()["show_map_link"].IsTrue());
}

TEST_CASE("show_map of another JSON type is 400") {
  const HttpResponse r = post_json(
      kRes.collection, "{\"venue\":" + json_string(unique("Venue Bad Flag")) + ",\"show_map\":{\"a\":1}}",
      {bearer(admin_token())});
  CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
}

// The geolocation halves: CAL_TEST_GEOLOC (on|off) names the stack's [geoloc] enabled and so the
// half that runs, the other one skipped; scripts/run-tests.sh runs the test suite "geoloc-on"
// against a second stack.
TEST_CASE("geo_lat and geo_lng are ignored without the geolocation extension" *
          doctest::test_suite("geoloc-off") * doctest::skip(geoloc_on())) {
  REQUIRE(geoloc_mismatch() == "");
  const rapidjson::Document doc =
      create_record(kRes, unique("Venue Geo"), R"("geo_lat":48.1,"geo_lng":"-11.5")", bearer(admin_token()));
  CHECK(doc["geo_lat"].IsNull());
  CHECK(doc["geo_lng"].IsNull());
}

TEST_CASE("geo_lat and geo_lng are stored with the geolocation extension" * doctest::test_suite("geoloc-on") *
          doctest::skip(!geoloc_on())) {
  REQUIRE(geoloc_mismatch() == "");
  const rapidjson::Document doc =
      create_record(kRes, unique("Venue Geo"), R"("geo_lat":48.1,"geo_lng":"-11.5")", bearer(admin_token()));
  REQUIRE(doc["geo_lat"].IsNumber());
  REQUIRE(doc["geo_lng"].IsNumber());
  CHECK(doc["geo_lat"].GetDouble() == 48.1);
  CHECK(doc["geo_lng"].GetDouble() == -11.5);
  // Kept by updates that do not send them, shown in json_ld.
  const long long id = id_of(doc);
  const HttpResponse r =
      post_json(item_path(kRes, id), R"({"city":"Geo City","geo_lng":11.75})", {bearer(admin_token())});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(r.json()["geo_lat"].GetDouble() == 48.1);
  CHECK(r.json()["geo_lng"].GetDouble() == 11.75);
  const rapidjson::Document single = get(item_path(kRes, id)).json();
  CHECK(string_at(single, {"json_ld", "geo", "@type"}) == "GeoCoordinates");
  // Out of range: 400.
  CHECK(error_mismatch(post_json(item_path(kRes, id), R"({"geo_lat":91})", {bearer(admin_token())}), 400,
                       "rest_invalid_param") == "");
}

TEST_CASE("a venue website must be an absolute http(s) URL; \"\" clears it") {
  for (const char* bad : {"example.org", "ftp://example.org/", "/relative", "javascript:alert(1)"}) {
    CAPTURE(bad);
    const HttpResponse r = post_json(
        kRes.collection,
        "{\"venue\":" + json_string(unique("Venue Bad Url")) + ",\"website\":" + json_string(bad) + "}",
        {bearer(admin_token())});
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
    CHECK(string_at(r.json(), {"data", "params", "website"}) != "");
  }
  const long long id = create_record_id(kRes, unique("Venue Url"), R"("website":"http://a.example.org/")");
  const HttpResponse r = post_json(item_path(kRes, id), R"({"website":""})", {bearer(admin_token())});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(string_at(r.json(), {"website"}) == "");
}

TEST_CASE("an invalid update changes nothing") {
  const long long id = create_record_id(kRes, unique("Venue Atomic"), R"("city":"Before")");
  const HttpResponse r =
      post_json(item_path(kRes, id), R"({"city":"After","website":"nope"})", {bearer(admin_token())});
  CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
  CHECK(string_at(get(item_path(kRes, id)).json(), {"city"}) == "Before");
}

TEST_CASE("a text longer than its column is 400, not 500") {
  const HttpResponse r = post_json(kRes.collection,
                                   "{\"venue\":" + json_string(unique("Venue Long")) +
                                       ",\"zip\":" + json_string(std::string(65, '1')) + "}",
                                   {bearer(admin_token())});
  CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
  CHECK(string_at(r.json(), {"data", "params", "zip"}) != "");
}

TEST_CASE("a single venue GET has a schema.org Place json_ld; lists and writes do not") {
  const std::string name = unique("VenueLd");
  const rapidjson::Document created = create_record(
      kRes, name,
      R"("description":"<p>Nice <b>place</b></p>","address":"5 Elm St","city":"Boston","country":"US","state":"MA",)"
      R"("zip":"02101","phone":"555-1","website":"https://elm.example.org/")",
      bearer(admin_token()));
  CHECK(find(created, {"json_ld"}) == nullptr);
  const long long id = id_of(created);
  for (const std::string& path : {item_path(kRes, id), slug_path(kRes, string_at(created, {"slug"}))}) {
    CAPTURE(path);
    const HttpResponse r = get(path);
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    const rapidjson::Document doc = r.json();
    CHECK(keys_of(doc).back() == "json_ld");
    CHECK(string_at(doc, {"json_ld", "@type"}) == "Place");
    CHECK(string_at(doc, {"json_ld", "@context"}) == "http://schema.org");
    CHECK(string_at(doc, {"json_ld", "name"}) == name);
    CHECK(string_at(doc, {"json_ld", "description"}) == "Nice place");
    CHECK(string_at(doc, {"json_ld", "url"}) == string_at(doc, {"url"}));
    CHECK(string_at(doc, {"json_ld", "telephone"}) == "555-1");
    CHECK(string_at(doc, {"json_ld", "sameAs"}) == "https://elm.example.org/");
    CHECK(string_at(doc, {"json_ld", "address", "@type"}) == "PostalAddress");
    CHECK(string_at(doc, {"json_ld", "address", "streetAddress"}) == "5 Elm St");
    CHECK(string_at(doc, {"json_ld", "address", "addressLocality"}) == "Boston");
    CHECK(string_at(doc, {"json_ld", "address", "addressRegion"}) == "MA");
    CHECK(string_at(doc, {"json_ld", "address", "postalCode"}) == "02101");
    CHECK(string_at(doc, {"json_ld", "address", "addressCountry"}) == "US");
  }
  const HttpResponse list = get(std::string(kRes.collection) + "?search=" + name);
  REQUIRE_MESSAGE(list.status == 200, describe(list));
  const rapidjson::Document doc = list.json();
  REQUIRE(doc["venues"].Size() == 1);
  CHECK(find(doc, {"venues", "0", "json_ld"}) == nullptr);
  const HttpResponse updated =
      post_json(item_path(kRes, id), R"({"city":"Cambridge"})", {bearer(admin_token())});
  CHECK(find(updated.json(), {"json_ld"}) == nullptr);
}

TEST_CASE("venue search looks in name, description and every address field, not country") {
  for (const std::string field :
       {"venue", "description", "address", "city", "province", "state", "stateprovince", "zip", "phone"}) {
    CAPTURE(field);
    const std::string word = unique("vs");
    std::string name = unique("Venue Search");
    std::string more;
    if (field == "venue")
      name += " " + word;
    else
      more = json_string(field) + ":" + json_string("x " + word + " y");
    const long long id = create_record_id(kRes, name, more);
    CHECK(list_ids(kRes, std::string(kRes.collection) + "?search=" + word) == std::vector<long long>{id});
    // Case does not matter.
    std::string upper = word;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    CHECK(list_ids(kRes, std::string(kRes.collection) + "?search=" + upper) == std::vector<long long>{id});
  }
  const std::string word = unique("vcountry");
  CHECK(create_record_id(kRes, unique("Venue Country"), "\"country\":" + json_string(word)) != 0);
  CHECK(list_ids(kRes, std::string(kRes.collection) + "?search=" + word).empty());
}

}  // namespace
}  // namespace caltest
