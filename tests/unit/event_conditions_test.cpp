// Unit tests for cal/api/events/event_conditions.h: search word parsing and LIKE escaping, the date
// window as SQL, and the geolocation SQL (bounding box on the venue_details_geo index plus the
// exact sphere distance), whose SQL text never contains a value.
#include "cal/api/events/event_conditions.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : "|") + w;
  return out;
}

double number(const cal::SqlValue& v) { return std::get<double>(v); }

}  // namespace

TEST_CASE("parse_search_words splits on white space and reads -word as exclusion") {
  struct Case {
    const char* text;
    const char* required;
    const char* excluded;
  };
  static const Case kCases[] = {
      {"jazz", "jazz", ""},
      {"jazz night", "jazz|night", ""},
      {"  jazz   night  ", "jazz|night", ""},
      {"jazz\tnight\n", "jazz|night", ""},
      {"jazz -rock", "jazz", "rock"},
      {"-rock", "", "rock"},
      {"-rock -pop", "", "rock|pop"},
      {"jazz - rock", "jazz|rock", ""},
      {"--rock", "", "-rock"},
      {"rock-n-roll", "rock-n-roll", ""},
      {"Jazz JAZZ", "Jazz|JAZZ", ""},
      {"100%", "100%", ""},
      {"", "", ""},
      {"   ", "", ""},
      {"caf\xc3\xa9 -th\xc3\xa9", "caf\xc3\xa9", "th\xc3\xa9"},
  };
  for (const Case& c : kCases) {
    CAPTURE(c.text);
    const cal::SearchWords w = cal::parse_search_words(c.text);
    CHECK(joined(w.required) == c.required);
    CHECK(joined(w.excluded) == c.excluded);
  }
}

TEST_CASE("like_contains escapes the LIKE wildcards and the escape character") {
  struct Case {
    const char* word;
    const char* pattern;
  };
  static const Case kCases[] = {
      {"jazz", "%jazz%"},
      {"100%", "%100\\%%"},
      {"a_b", "%a\\_b%"},
      {"back\\slash", "%back\\\\slash%"},
      {"", "%%"},
      {"'quote\"", "%'quote\"%"},
  };
  for (const Case& c : kCases) {
    CAPTURE(c.word);
    CHECK(cal::like_contains(c.word) == c.pattern);
  }
}

TEST_CASE("search_condition: three columns per word, NOT for exclusions, values bound") {
  const cal::SqlCondition c = cal::search_condition(cal::parse_search_words("jazz -rock"));
  CHECK(c.sql ==
        " AND (p.title LIKE ? OR p.content LIKE ? OR p.excerpt LIKE ?)"
        " AND NOT (p.title LIKE ? OR p.content LIKE ? OR p.excerpt LIKE ?)");
  REQUIRE(c.args.size() == 6);
  CHECK(std::get<std::string>(c.args[0]) == "%jazz%");
  CHECK(std::get<std::string>(c.args[5]) == "%rock%");
  CHECK(cal::search_condition(cal::parse_search_words("  ")).sql.empty());
}

TEST_CASE("date_window_condition: one bound per filter, as UTC text") {
  cal::EventDateWindow w;
  CHECK(cal::date_window_condition(w).sql.empty());
  const auto at = [](const char* text) { return cal::from_utc_date_time(*cal::parse_sql_date_time(text)); };
  w.start_min = at("2025-06-01 00:00:00");
  w.end_max = at("2025-06-30 23:59:59");
  w.start_before = at("2025-06-20 00:00:00");
  w.start_after = at("2025-06-02 23:59:59");
  w.end_before = at("2025-06-25 00:00:00");
  w.end_after = at("2025-06-03 23:59:59");
  const cal::SqlCondition c = cal::date_window_condition(w);
  CHECK(c.sql ==
        " AND d.start_utc >= ? AND d.start_utc > ? AND d.start_utc < ?"
        " AND d.end_utc <= ? AND d.end_utc > ? AND d.end_utc < ?");
  const std::vector<std::string> expected = {"2025-06-01 00:00:00", "2025-06-02 23:59:59", "2025-06-20 00:00:00",
                                             "2025-06-30 23:59:59", "2025-06-03 23:59:59", "2025-06-25 00:00:00"};
  REQUIRE(c.args.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(std::get<std::string>(c.args[i]) == expected[i]);
  }
}

TEST_CASE("has_geolocation_condition needs both coordinates") {
  const cal::SqlCondition c = cal::has_geolocation_condition();
  CHECK(c.sql == " AND vd.geo_lat IS NOT NULL AND vd.geo_lng IS NOT NULL");
  CHECK(c.args.empty());
}

TEST_CASE("geofence_condition: bounding box, then the sphere distance") {
  struct Case {
    const char* name;
    double lat, lng, km;
    bool lng_box;  // whether the longitude prefilter is present
  };
  static const Case kCases[] = {
      {"Paris, 40 km", 48.8566, 2.3522, 40, true},
      {"the equator", 0, 0, 40, true},
      {"southern hemisphere", -33.87, 151.21, 10, true},
      {"near the north pole: no longitude box", 89.9, 10, 40, false},
      {"near the south pole: no longitude box", -89.95, 10, 40, false},
      {"at the antimeridian: no longitude box", 0, 179.9, 40, false},
      {"at the other side of it", 10, -179.95, 40, false},
      {"a huge radius across the pole", 60, 0, 5000, false},
  };
  for (const Case& c : kCases) {
    CAPTURE(c.name);
    const cal::SqlCondition cond = cal::geofence_condition(c.lat, c.lng, c.km);
    const std::string distance = " AND ST_Distance_Sphere(POINT(vd.geo_lng, vd.geo_lat), POINT(?, ?)) <= ?";
    const std::string expected_sql = std::string(" AND vd.geo_lat BETWEEN ? AND ?") +
                                     (c.lng_box ? " AND vd.geo_lng BETWEEN ? AND ?" : "") + distance;
    CHECK(cond.sql == expected_sql);
    REQUIRE(cond.args.size() == (c.lng_box ? 7u : 5u));
    // The latitude band holds every point within the radius (1 degree ≈ 111.2 km).
    CHECK(number(cond.args[0]) <= c.lat - c.km / 111.2);
    CHECK(number(cond.args[1]) >= c.lat + c.km / 111.2);
    if (c.lng_box) {
      const double km_per_lng_degree = 111.2 * std::cos(c.lat * 3.14159265358979 / 180);
      CHECK(number(cond.args[2]) <= c.lng - c.km / km_per_lng_degree);
      CHECK(number(cond.args[3]) >= c.lng + c.km / km_per_lng_degree);
    }
    const size_t n = cond.args.size();
    CHECK(number(cond.args[n - 3]) == c.lng);  // POINT(lng, lat)
    CHECK(number(cond.args[n - 2]) == c.lat);
    CHECK(number(cond.args[n - 1]) == doctest::Approx(c.km * 1000));
  }
}
