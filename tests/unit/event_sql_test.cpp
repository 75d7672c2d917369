// Unit tests for the store's event list SQL (src/store/event_sql.h): LIKE escaping, search
// words, the date window, and the geolocation SQL (bounding box on the venue_details_geo index
// plus the exact sphere distance), whose SQL text never contains a value. Each filter is compared
// with the SQL of an empty filter (the visibility rule), which it extends.
#include "store/event_sql.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

double number(const cal::SqlValue& v) { return std::get<double>(v); }

// The conditions and values `filter` adds to those of an empty filter.
cal::SqlWhere added(const cal::EventFilter& filter) {
  const cal::EventSql base = cal::event_sql(cal::EventFilter{});
  const cal::EventSql q = cal::event_sql(filter);
  REQUIRE(q.where.sql.compare(0, base.where.sql.size(), base.where.sql) == 0);
  REQUIRE(q.where.args.size() >= base.where.args.size());
  cal::SqlWhere out;
  out.sql = q.where.sql.substr(base.where.sql.size());
  out.args.assign(q.where.args.begin() + static_cast<long>(base.where.args.size()), q.where.args.end());
  return out;
}

}  // namespace

TEST_CASE("like_contains escapes the LIKE wildcards and the escape character '!'") {
  struct Case {
    const char* word;
    const char* pattern;
  };
  static const Case kCases[] = {
      {"jazz", "%jazz%"},
      {"100%", "%100!%%"},
      {"a_b", "%a!_b%"},
      {"bang!", "%bang!!%"},
      {"back\\slash", "%back\\slash%"},
      {"", "%%"},
      {"'quote\"", "%'quote\"%"},
  };
  for (const Case& c : kCases) {
    CAPTURE(c.word);
    CHECK(cal::like_contains(c.word) == c.pattern);
  }
}

TEST_CASE("search: three columns per word, NOT for exclusions, values bound") {
  cal::EventFilter f;
  f.search.required = {"jazz"};
  f.search.excluded = {"rock"};
  const cal::SqlWhere c = added(f);
  CHECK(c.sql ==
        " AND (p.title LIKE ? ESCAPE '!' OR p.content LIKE ? ESCAPE '!' OR p.excerpt LIKE ? ESCAPE '!')"
        " AND NOT (p.title LIKE ? ESCAPE '!' OR p.content LIKE ? ESCAPE '!' OR p.excerpt LIKE ? ESCAPE '!')");
  REQUIRE(c.args.size() == 6);
  CHECK(std::get<std::string>(c.args[0]) == "%jazz%");
  CHECK(std::get<std::string>(c.args[5]) == "%rock%");
  CHECK(added(cal::EventFilter{}).sql.empty());
}

TEST_CASE("date window: one bound per filter, as UTC text") {
  cal::EventFilter f;
  const auto at = [](const char* text) { return cal::from_utc_date_time(*cal::parse_sql_date_time(text)); };
  f.window.start_min = at("2025-06-01 00:00:00");
  f.window.end_max = at("2025-06-30 23:59:59");
  f.window.start_before = at("2025-06-20 00:00:00");
  f.window.start_after = at("2025-06-02 23:59:59");
  f.window.end_before = at("2025-06-25 00:00:00");
  f.window.end_after = at("2025-06-03 23:59:59");
  const cal::SqlWhere c = added(f);
  CHECK(c.sql ==
        " AND d.start_utc >= ? AND d.start_utc > ? AND d.start_utc < ?"
        " AND d.end_utc <= ? AND d.end_utc > ? AND d.end_utc < ?");
  const std::vector<std::string> expected = {"2025-06-01 00:00:00", "2025-06-02 23:59:59",
                                             "2025-06-20 00:00:00", "2025-06-30 23:59:59",
                                             "2025-06-03 23:59:59", "2025-06-25 00:00:00"};
  REQUIRE(c.args.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(std::get<std::string>(c.args[i]) == expected[i]);
  }
}

TEST_CASE("with_coordinates needs both coordinates of the joined venue") {
  cal::EventFilter f;
  f.with_coordinates = true;
  const cal::SqlWhere c = added(f);
  CHECK(c.sql == " AND vd.geo_lat IS NOT NULL AND vd.geo_lng IS NOT NULL");
  CHECK(c.args.empty());
  CHECK(cal::event_sql(f).joins == " JOIN venue_details vd ON vd.venue_id = ev.venue_id");
  CHECK(cal::event_sql(cal::EventFilter{}).joins.empty());
}

TEST_CASE("geofence: bounding box, then the sphere distance") {
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
    cal::EventFilter f;
    f.fence = cal::GeoFence{c.lat, c.lng, c.km};
    const cal::SqlWhere cond = added(f);
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

TEST_CASE("visibility: published only, published or own, everything; asked statuses bound") {
  cal::EventFilter visitor;
  CHECK(cal::event_sql(visitor).where.sql.find("= 'publish'") != std::string::npos);
  cal::EventFilter author;
  author.visibility.scope = cal::ReadScope::kPublishedAndOwn;
  author.visibility.user_id = 42;
  const cal::EventSql a = cal::event_sql(author);
  CHECK(a.where.sql.find(".author = ?") != std::string::npos);
  REQUIRE(!a.where.args.empty());
  CHECK(std::get<long long>(a.where.args.front()) == 42);
  cal::EventFilter editor;
  editor.visibility.scope = cal::ReadScope::kAll;
  editor.visibility.statuses = {"draft", "trash"};
  const cal::EventSql e = cal::event_sql(editor);
  CHECK(e.where.sql.find("'publish'") != std::string::npos);  // only inside the effective status
  CHECK(e.where.sql.find(".author") == std::string::npos);
  REQUIRE(e.where.args.size() >= 2);
  CHECK(std::get<std::string>(e.where.args[0]) == "draft");
  CHECK(std::get<std::string>(e.where.args[1]) == "trash");
}
