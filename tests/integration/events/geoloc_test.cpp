// Integration tests of the geolocation extension on the event list (docs/api.md §4.3). With [geoloc]
// enabled = false (the default) every filtering geoloc parameter is 400 and geoloc=false a no-op;
// with it enabled, venues' coordinates filter by presence and by distance (geofence_km, default
// 40). CAL_TEST_GEOLOC (on|off) names the stack's setting and so the half that runs, the other
// one skipped; scripts/run-tests.sh runs the test suite "geoloc-on" against a second stack.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;
using Ids = std::vector<long long>;

TEST_CASE("geolocation parameters while the extension is off" * doctest::test_suite("geoloc-off") *
          doctest::skip(geoloc_on())) {
  REQUIRE(geoloc_mismatch() == "");
  const std::string word = unique("geooff");
  const long long id = create_id(word, "+3 days 10:00", "+3 days 11:00");
  for (const char* query : {"geoloc=true", "geoloc=1", "geoloc_lat=48.8", "geoloc_lng=2.3",
                            "geoloc_lat=48.8&geoloc_lng=2.3", "geoloc=false&geoloc_lat=1"}) {
    CAPTURE(query);
    const HttpResponse r = get(std::string(kEvents) + "?search=" + word + "&" + query);
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
    const rapidjson::Document doc = r.json();  // kept: `params` points into it
    const rapidjson::Value* params = find(doc, {"data", "params"});
    REQUIRE(params != nullptr);
    REQUIRE(params->IsObject());
    REQUIRE(params->MemberCount() >= 1);
    const std::string message = params->MemberBegin()->value.GetString();
    CHECK(message.find("not enabled") != std::string::npos);
  }
  CHECK(list_ids("search=" + word + "&geoloc=false") == Ids{id});
}

TEST_CASE("geolocation filters while the extension is on" * doctest::test_suite("geoloc-on") *
          doctest::skip(!geoloc_on())) {
  REQUIRE(geoloc_mismatch() == "");
  const std::string word = unique("geoon");
  auto at = [&](const std::string& name, const std::string& venue) {
    return create_id(word + " " + name, "+3 days 10:00", "+3 days 11:00",
                     venue.empty() ? "" : "\"venue\":" + venue);
  };
  const long long paris =
      at("paris", "{\"venue\":\"Paris " + word + "\",\"geo_lat\":48.8566,\"geo_lng\":2.3522}");
  const long long versailles =
      at("versailles", "{\"venue\":\"Versailles " + word + "\",\"geo_lat\":48.8049,\"geo_lng\":2.1204}");
  const long long berlin =
      at("berlin", "{\"venue\":\"Berlin " + word + "\",\"geo_lat\":52.52,\"geo_lng\":13.405}");
  const long long nowhere = at("nowhere", "{\"venue\":\"Nowhere " + word + "\"}");
  const long long novenue = at("novenue", "");
  const std::string s = "search=" + word;
  CHECK(list_ids(s) == Ids{paris, versailles, berlin, nowhere, novenue});
  CHECK(list_ids(s + "&geoloc=false") == Ids{paris, versailles, berlin, nowhere, novenue});
  CHECK(list_ids(s + "&geoloc=true") == Ids{paris, versailles, berlin});
  CHECK(list_ids(s + "&geoloc_lat=48.85&geoloc_lng=2.35") == Ids{paris, versailles});
  CHECK(list_ids(s + "&geoloc_lat=52.5&geoloc_lng=13.4&geoloc=true") == Ids{berlin});
  CHECK(list_ids(s + "&geoloc_lat=0&geoloc_lng=0").empty());
  CHECK(error_mismatch(get(std::string(kEvents) + "?" + s + "&geoloc_lat=48.85"), 400,
                       "rest_invalid_param") == "");
  CHECK(error_mismatch(get(std::string(kEvents) + "?" + s + "&geoloc_lng=2.35"), 400, "rest_invalid_param") ==
        "");
}

}  // namespace
}  // namespace caltest
