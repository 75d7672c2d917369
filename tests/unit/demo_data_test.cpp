// The pure inputs of `calendarctl demo` (cal/store/demo_data.h): scale, zone tables, names, cities.
#include "cal/store/demo_data.h"
#include "cal/core/dates/dates.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

TEST_CASE("demo_scale grows with the events and keeps organizers a multiple of ten") {
  const cal::DemoScale small = cal::demo_scale(2000);
  CHECK(small.venues == static_cast<long long>(cal::demo_cities().size()));  // one per city at least
  CHECK(small.organizers == 10);
  CHECK(small.images == 10);
  const cal::DemoScale million = cal::demo_scale(1'000'000);
  CHECK(million.venues == 2000);
  CHECK(million.organizers == 800);
  CHECK(million.images == 200);
  for (long long n : {1LL, 999LL, 121'250LL, 242'500LL, 10'000'000LL}) {
    const auto s = cal::demo_scale(n);
    CHECK(s.organizers % 10 == 0);  // never divides the stride 97 or 194: 1-3 distinct organizers
    CHECK(s.venues <= 2000);        // seq_0_to_1999
    CHECK(s.organizers <= 800);     // seq_0_to_799
    CHECK(s.images <= 200);         // seq_0_to_199
  }
}

TEST_CASE("demo_zone_days gives each local day its offsets and the hour DST switches") {
  // 2026-03-29: Europe/Berlin springs forward at 02:00 local (CET +1 -> CEST +2).
  const auto berlin = cal::demo_zone_days("Europe/Berlin", "2026-03-28", -1, 2);
  REQUIRE(berlin.size() == 4);
  CHECK(berlin[0].day == -1);
  CHECK(berlin[1].early == 3600);
  CHECK(berlin[1].switch_second == 86400);  // the 28th: no transition
  CHECK(berlin[2].early == 3600);
  CHECK(berlin[2].late == 7200);
  CHECK(berlin[2].switch_second == 2 * 3600);
  CHECK(berlin[3].early == 7200);
  // 2026-11-01: New York falls back at 02:00 local (EDT -4 -> EST -5).
  const auto ny = cal::demo_zone_days("America/New_York", "2026-11-01", 0, 0);
  CHECK(ny[0].early == -4 * 3600);
  CHECK(ny[0].late == -5 * 3600);
  CHECK(ny[0].switch_second == 2 * 3600);
  // Sydney in January: +11 all day; fixed offsets too.
  CHECK(cal::demo_zone_days("Australia/Sydney", "2026-01-15", 0, 0)[0].late == 11 * 3600);
  CHECK(cal::demo_zone_days("UTC+5:30", "2026-01-15", 0, 0)[0].early == 5 * 3600 + 1800);
  CHECK_THROWS(cal::demo_zone_days("Mars/Olympus", "2026-01-15", 0, 0));
  CHECK_THROWS(cal::demo_zone_days("UTC", "2026-13-01", 0, 0));
}

TEST_CASE("demo term names: a two-level tree and tags, names and slugs unique") {
  const auto& names = cal::demo_term_names();
  std::set<std::string> category_keys, tag_names, category_slugs, tag_slugs;
  int parents = 0, children = 0, tags = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    const auto& t = names[i];
    CHECK(!t.slug.empty());
    CHECK(t.slug.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos);
    if (t.tag) {
      ++tags;
      CHECK(tag_names.insert(t.name).second);
      CHECK(tag_slugs.insert(t.slug).second);
    } else {
      (t.parent < 0 ? parents : children) += 1;
      if (t.parent >= 0) {
        CHECK(t.parent < static_cast<int>(i));  // parents come first
        CHECK(names[t.parent].parent == -1);    // two levels
      }
      CHECK(category_keys.insert(std::to_string(t.parent) + "/" + t.name).second);
      CHECK(category_slugs.insert(t.slug).second);
    }
  }
  CHECK(parents == 12);
  CHECK(children == 48);
  CHECK(tags == 300);
}

TEST_CASE("demo cities: eight countries, real zones, coordinates in range") {
  std::set<std::string> countries;
  for (const auto& c : cal::demo_cities()) {
    countries.insert(c.code);
    CHECK_MESSAGE(cal::TimeZone::find(c.zone).has_value(), c.zone);
    CHECK(c.lat >= -90);
    CHECK(c.lat <= 90);
    CHECK(c.lng >= -180);
    CHECK(c.lng <= 180);
    CHECK(std::string(c.streets).find('|') != std::string::npos);
  }
  CHECK(countries == std::set<std::string>{"US", "CA", "GB", "DE", "FR", "ES", "JP", "AU"});
}
