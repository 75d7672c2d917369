// Venue and organizer detail fields (cal/api/linked/linked_fields.h) and their schema.org data
// (cal/api/linked/linked_records.h): stateprovince derivation, truthy flags, geolocation storage only
// with the extension on, validation, the dedupe comparison, and json_ld.
#include "cal/api/linked/linked_fields.h"
#include "cal/api/linked/linked_records.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/routes.h"
#include "cal/http/input.h"

#include <doctest/doctest.h>

#include <functional>
#include <stdexcept>
#include <string>

namespace {

struct StateCase {
  const char* country;
  const char* state;
  const char* province;
  const char* expected;
};

const StateCase kStateCases[] = {
    {"", "NY", "Ontario", "NY"},
    {"US", "NY", "Ontario", "NY"},
    {"us", "NY", "", "NY"},
    {"United States", "CA", "x", "CA"},
    {" united states ", "CA", "x", "CA"},
    {"Canada", "NY", "Ontario", "Ontario"},
    {"Germany", "", "Bavaria", "Bavaria"},
    {"USA", "TX", "p", "p"},
    {"Canada", "S", "", ""},
};

TEST_CASE("stateprovince is the state in the US (or no country), else the province") {
  for (const StateCase& c : kStateCases) {
    CAPTURE(c.country);
    CAPTURE(c.state);
    CAPTURE(c.province);
    CHECK(cal::derive_stateprovince(c.country, c.state, c.province) == c.expected);
  }
}

// The declared parameters of POST on a collection, as the router validates them.
const std::vector<cal::ParamSpec>& specs(std::string_view collection) {
  for (const cal::Route& route : cal::route_table())
    if (route.pattern == collection) return route.endpoint_for("POST")->params;
  throw std::runtime_error("no route");
}

// Validated parameters of a JSON body (kept alive with it).
struct Body {
  rapidjson::Document doc;
  cal::Params params;
  Body(std::string_view collection, const std::string& json) {
    REQUIRE(cal::parse_json_body(json, doc) == cal::JsonBodyError::kNone);
    cal::ParamSources sources;
    sources.body = &doc;
    params = cal::validate_params(specs(collection), sources, cal::Locale{});
  }
};

struct VenueCase {
  const char* json;
  bool geoloc;
  const char* stateprovince;
  bool show_map;
  bool show_map_link;
  bool has_geo;
};

const VenueCase kVenueCases[] = {
    {R"({"venue":"v"})", false, "", true, true, false},
    {R"({"venue":"v","country":"US","state":"NY","province":"P"})", false, "NY", true, true, false},
    {R"({"venue":"v","country":"France","state":"S","province":"IDF"})", false, "IDF", true, true, false},
    {R"({"venue":"v","country":"France","province":"IDF","stateprovince":"Paris"})", false, "Paris", true,
     true, false},
    {R"({"venue":"v","show_map":"yes","show_map_link":"off"})", false, "", true, false, false},
    {R"({"venue":"v","show_map":false,"show_map_link":"ON"})", false, "", false, true, false},
    {R"({"venue":"v","show_map":"nonsense","show_map_link":"1"})", false, "", false, true, false},
    {R"({"venue":"v","geo_lat":48.5,"geo_lng":"-11.25"})", false, "", true, true, false},
    {R"({"venue":"v","geo_lat":48.5,"geo_lng":"-11.25"})", true, "", true, true, true},
};

TEST_CASE("venue detail fields: derivation, flags and geolocation") {
  for (const VenueCase& c : kVenueCases) {
    CAPTURE(c.json);
    CAPTURE(c.geoloc);
    Body body("/venues", c.json);
    cal::VenueDetails d;
    cal::apply_venue_params(body.params, c.geoloc, d);
    CHECK(d.stateprovince == c.stateprovince);
    CHECK(d.show_map == c.show_map);
    CHECK(d.show_map_link == c.show_map_link);
    CHECK(d.geo_lat.has_value() == c.has_geo);
    CHECK(d.geo_lng.has_value() == c.has_geo);
    if (c.has_geo) {
      CHECK(*d.geo_lat == 48.5);
      CHECK(*d.geo_lng == -11.25);
    }
  }
}

TEST_CASE("venue updates keep unsent fields and recompute stateprovince") {
  cal::VenueDetails d;
  d.country = "US";
  d.state = "NY";
  d.province = "Ontario";
  d.stateprovince = "NY";
  d.show_map = false;
  d.city = "Buffalo";
  Body body("/venues", R"({"venue":"v","country":"Canada"})");
  cal::apply_venue_params(body.params, false, d);
  CHECK(d.stateprovince == "Ontario");
  CHECK(d.city == "Buffalo");
  CHECK_FALSE(d.show_map);
}

struct InvalidCase {
  const char* collection;
  const char* json;
  std::vector<const char*> bad_params;
};

const InvalidCase kInvalidCases[] = {
    {"/venues", R"({"venue":"v","website":"example.org"})", {"website"}},
    {"/venues", R"({"venue":"v","website":"ftp://example.org/"})", {"website"}},
    {"/venues",
     R"({"venue":"v","zip":"12345678901234567890123456789012345678901234567890123456789012345"})",
     {"zip"}},
    {"/venues",
     R"({"venue":"v","website":"x","zip":"12345678901234567890123456789012345678901234567890123456789012345"})",
     {"website", "zip"}},
    {"/organizers", R"({"organizer":"o","email":"nope"})", {"email"}},
    {"/organizers", R"({"organizer":"o","website":"/relative"})", {"website"}},
    {"/organizers", R"({"organizer":"o","website":"/relative","email":"nope"})", {"website", "email"}},
};

// The detail fields' rules run in the validator (check_linked_text): one 400 naming each.
TEST_CASE("invalid detail fields are one 400 naming each") {
  for (const InvalidCase& c : kInvalidCases) {
    CAPTURE(c.json);
    rapidjson::Document doc;
    REQUIRE(cal::parse_json_body(c.json, doc) == cal::JsonBodyError::kNone);
    cal::ParamSources sources;
    sources.body = &doc;
    try {
      cal::validate_params(specs(c.collection), sources, cal::Locale{});
      FAIL("no error");
    } catch (const cal::ApiError& e) {
      CHECK(e.status == 400);
      CHECK(e.code == "rest_invalid_param");
      CHECK(e.param_messages.size() == c.bad_params.size());
      for (const char* name : c.bad_params) CHECK(e.param_messages.count(name) == 1);
    }
  }
}

TEST_CASE("empty detail fields clear, valid ones are kept as sent") {
  Body body("/organizers",
            R"j({"organizer":"o","email":"","website":"https://x.example.org/a?b=c","phone":"+1 (555)"})j");
  cal::OrganizerDetails d{"old", "https://old.example.org/", "old@example.org"};
  cal::apply_organizer_params(body.params, d);
  CHECK(d.email == "");
  CHECK(d.website == "https://x.example.org/a?b=c");
  CHECK(d.phone == "+1 (555)");
}

struct MatchCase {
  const char* json;
  bool matches;
};

const MatchCase kMatchCases[] = {
    {R"({"venue":"v"})", true},
    {R"({"venue":"v","city":"Paris"})", true},
    {R"({"venue":"v","city":"paris"})", false},
    {R"({"venue":"v","city":"Paris","zip":""})", true},
    {R"({"venue":"v","zip":"75001"})", false},
    {R"({"venue":"v","show_map":"yes"})", true},
    {R"({"venue":"v","show_map":"no"})", false},
    {R"({"venue":"v","geo_lat":1})", true},  // geolocation off: not compared
};

TEST_CASE("the dedupe comparison looks only at the fields sent") {
  cal::VenueDetails stored;
  stored.city = "Paris";
  stored.country = "France";
  for (const MatchCase& c : kMatchCases) {
    CAPTURE(c.json);
    Body body("/venues", c.json);
    cal::VenueDetails wanted;
    cal::apply_venue_params(body.params, false, wanted);
    CHECK(cal::venue_params_match(body.params, false, wanted, stored) == c.matches);
  }
  Body org("/organizers", R"({"organizer":"o","email":"a@example.org"})");
  cal::OrganizerDetails wanted;
  cal::apply_organizer_params(org.params, wanted);
  CHECK(cal::organizer_params_match(org.params, wanted, cal::OrganizerDetails{"1", "", "a@example.org"}));
  CHECK_FALSE(
      cal::organizer_params_match(org.params, wanted, cal::OrganizerDetails{"1", "", "b@example.org"}));
}

// A context good enough for the writers (no database use).
struct WriterContext {
  cal::Request request;
  cal::Params params;
  cal::Caller caller;
  cal::Db db{cal::DatabaseConfig{}};
  cal::Config config;
  cal::Locale locale;
  cal::RequestContext ctx{
      request, params, caller, db, config, locale, "https://site.example", "https://site.example/api", {}};
};

std::string written(const std::function<void(cal::JsonWriter&)>& write) {
  cal::JsonBuffer buffer;
  cal::JsonWriter w(buffer);
  write(w);
  return buffer.GetString();
}

TEST_CASE("a venue's json_ld is a Place with a PostalAddress and, with coordinates, geo") {
  WriterContext wc;
  cal::Venue v;
  v.post.title = "Hall";
  v.post.slug = "hall";
  v.post.content = "<p>Big\n <b>hall</b></p>";
  v.details.address = "1 Main St";
  v.details.city = "Springfield";
  v.details.stateprovince = "IL";
  v.details.phone = "555";
  v.details.geo_lat = 1.5;
  v.details.geo_lng = -2.5;
  const std::string json = written([&](cal::JsonWriter& w) { cal::write_venue_json_ld(w, wc.ctx, v, {}); });
  CHECK(
      json ==
      R"({"@context":"http://schema.org","@type":"Place","name":"Hall","description":"Big hall",)"
      R"("url":"https://site.example/venue/hall/","address":{"@type":"PostalAddress","streetAddress":"1 Main St",)"
      R"("addressLocality":"Springfield","addressRegion":"IL"},"geo":{"@type":"GeoCoordinates","latitude":1.5,)"
      R"("longitude":-2.5},"telephone":"555"})");
}

TEST_CASE("an organizer's json_ld is an Organization with email, telephone and url") {
  WriterContext wc;
  cal::Organizer o;
  o.post.title = "Org";
  o.post.slug = "org";
  o.post.image_id = 9;
  o.details = {"555", "https://org.example/", "a@org.example"};
  const std::vector<cal::Image> images = {{9, "https://img.example/o.png"}};
  std::string json = written([&](cal::JsonWriter& w) { cal::write_organizer_json_ld(w, wc.ctx, o, images); });
  CHECK(
      json ==
      R"({"@context":"http://schema.org","@type":"Organization","name":"Org","image":"https://img.example/o.png",)"
      R"("url":"https://org.example/","telephone":"555","email":"a@org.example","sameAs":"https://org.example/"})");
  o.details = {};
  json = written([&](cal::JsonWriter& w) { cal::write_organizer_json_ld(w, wc.ctx, o, {}); });
  CHECK(
      json ==
      R"({"@context":"http://schema.org","@type":"Organization","name":"Org","url":"https://site.example/organizer/org/"})");
}

}  // namespace
