// The demo's recurring series as drawn (src/tools/demo_series_plan.h): every rule is one the
// expander takes, producing the series' own start first; every kind comes up; the same seed
// draws the same series and another seed others.
#include "tools/demo_series_plan.h"

#include "cal/core/dates/recurrence.h"

#include <doctest/doctest.h>

#include <map>
#include <string>

namespace {

// A run's records as start_demo_data would list them: a venue in every demo city.
cal::DemoRun sample_run() {
  cal::DemoRun run;
  run.summary.slug_prefix = "d1-100";
  long long id = 100;
  for (const cal::DemoCity& c : cal::demo_cities()) run.venues.push_back({id++, c.zone});
  for (long long i = 0; i < 10; ++i) run.organizers.push_back(500 + i);
  for (long long i = 0; i < 60; ++i) run.categories.push_back(1 + i);
  for (long long i = 0; i < 300; ++i) run.tags.push_back(100 + i);
  run.authors = {1};
  return run;
}

std::string kind_of(const std::string& title) { return title.substr(title.find(' ') + 1); }

std::string fingerprint(const cal::DemoSeriesPlan& p) {
  std::string lines;
  for (const std::string& line : p.lines) lines += line + "|";
  return p.title + "|" + p.slug + "|" + p.zone + "|" + p.status + "|" + cal::format_date_time(p.start) + "|" +
         cal::format_date_time(p.end) + "|" + lines + std::to_string(p.venue) + "|" +
         std::to_string(p.organizer) + "|" + std::to_string(p.category) + "|" + std::to_string(p.tag) + "|" +
         (p.exception ? "x" : "-");
}

}  // namespace

TEST_CASE("demo series: every drawn rule is taken by the expander and starts at the series' start") {
  const cal::DemoRun run = sample_run();
  const cal::Config config;  // [recurrence] defaults: max_instances 3,650, horizon 60 months
  const cal::Seconds far_past = cal::from_utc_date_time(cal::LocalDateTime{1000, 1, 1, 0, 0, 0});
  const cal::Seconds far_future = cal::from_utc_date_time(cal::LocalDateTime{9999, 12, 31, 0, 0, 0});
  for (const char* site_zone : {"UTC", "Australia/Lord_Howe", "America/New_York"})
    for (const long long seed : {1LL, 7LL, 4294967295LL}) {
      const cal::DemoOptions options{10000, seed, site_zone, "2026-11-27"};
      std::map<std::string, int> kinds;
      for (long long k = 0; k < 200; ++k) {
        const cal::DemoSeriesPlan p = cal::plan_demo_series(options, run, k);
        INFO("seed ", seed, " series ", k, ": ", fingerprint(p));
        ++kinds[kind_of(p.title)];
        const auto zone = cal::TimeZone::find(p.zone);
        REQUIRE(zone.has_value());
        const auto parsed =
            cal::parse_recurrence(p.lines, cal::FirstOccurrence{p.start, p.end, *zone, p.all_day});
        REQUIRE(std::holds_alternative<cal::RecurrenceSet>(parsed));
        const cal::RecurrenceSet& set = std::get<cal::RecurrenceSet>(parsed);
        // Rules without an end only among the kinds that promise them.
        CHECK(set.is_infinite() ==
              (kind_of(p.title) == "Weekly Club" || kind_of(p.title) == "Monthly Social"));
        if (!set.is_infinite()) {
          const auto expanded = cal::expand_recurrence(set, far_past, far_future, 3650);
          REQUIRE(std::holds_alternative<std::vector<cal::Occurrence>>(expanded));
          const auto& all = std::get<std::vector<cal::Occurrence>>(expanded);
          REQUIRE(!all.empty());
          CHECK(all.front().original_local == p.start);
          CHECK(cal::planned_occurrences(config, p) == all.size());
        }
        const std::size_t n = cal::planned_occurrences(config, p);
        CHECK(n >= 2);
        CHECK(n <= 3650);
        CHECK(p.slug.find("-d1-100-s" + std::to_string(k + 1)) != std::string::npos);
        CHECK(p.organizer != 0);
        CHECK(p.category != 0);
      }
      for (const char* kind : {"Class", "Meetup", "Festival", "Weekly Club", "Monthly Social"})
        CHECK_MESSAGE(kinds[kind] >= 10, kind);
      CHECK(kinds.size() == 5);
    }
}

TEST_CASE("demo series: the same seed draws the same series, another seed others") {
  const cal::DemoRun run = sample_run();
  const cal::DemoOptions one{10000, 5, "UTC", "2026-11-27"}, other{10000, 6, "UTC", "2026-11-27"};
  int differ = 0;
  for (long long k = 0; k < 100; ++k) {
    CHECK(fingerprint(cal::plan_demo_series(one, run, k)) == fingerprint(cal::plan_demo_series(one, run, k)));
    differ +=
        fingerprint(cal::plan_demo_series(one, run, k)) != fingerprint(cal::plan_demo_series(other, run, k));
  }
  CHECK(differ > 90);
}

TEST_CASE("demo series: a site's max_instances below a rule's COUNT counts it as past the cap") {
  cal::Config config;
  config.recurrence.max_instances = 5;
  cal::DemoSeriesPlan p;
  p.zone = "UTC";
  p.start = {2027, 3, 2, 19, 0, 0};
  p.end = {2027, 3, 2, 20, 0, 0};
  p.lines = {"RRULE:FREQ=WEEKLY;COUNT=10"};
  CHECK(cal::planned_occurrences(config, p) == 6);
  p.lines = {"RRULE:FREQ=WEEKLY;COUNT=4"};
  CHECK(cal::planned_occurrences(config, p) == 4);
}
