// Integration test of counting around long events (src/store/event_count_plan.h): a window with a
// least start and a latest end is counted from the start rollups less the end rollups
// (event_end_day_counts, event_end_month_counts), so an event of a year does not make the default
// list read a year of events from the index; a window shorter than the longest event is counted
// by starts with its end bounds applied from the index. Both totals equal a brute-force count.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/client.h"
#include "support/engine.h"
#include "support/events.h"
#include "support/general_log.h"

namespace caltest {
namespace {

using namespace events;
using engine::sql;

// Visitors' brute-force count of the events with start and end in the SQL condition `window`.
long long brute_count(const std::string& window) {
  return std::stoll(
      sql("SELECT COUNT(*) FROM posts p JOIN event_details d ON d.event_id = p.id WHERE p.type = 'event' AND "
          "d.hide_from_listings = 0 AND IF(p.status = 'future' AND p.date_utc <= UTC_TIMESTAMP(), 'publish', "
          "p.status) = 'publish' AND " +
          window));
}

// The statements a visitor's GET of `path` ran, and its total.
struct Counted {
  long long total = -1;
  std::vector<std::string> statements;
};
Counted list(const std::string& path) {
  general_log::LoggedGet got = general_log::logged_get(path);
  REQUIRE_MESSAGE(got.response.status == 200, describe(got.response));
  return Counted{int_at(got.response.json(), {"total"}), std::move(got.statements)};
}

}  // namespace

TEST_CASE("an event of a year leaves the default list counted from the rollups, and every total exact") {
  const std::string w = unique("long");
  // 400 days, far from other tests' events, and a few ordinary ones around its start and end.
  create_id(w + " season", "2039-02-10 10:00", "2040-03-15 18:00", "\"timezone\":\"UTC\"");
  for (const char* day : {"2039-02-09", "2039-02-10", "2040-03-15", "2040-03-16"})
    create_id(w + " one", std::string(day) + " 09:00", std::string(day) + " 23:00", "\"timezone\":\"UTC\"");
  wait_out_lease();

  // The default window (two years from yesterday) outlasts the season: start side less end side.
  const std::string first_of_month = "(UTC_DATE() - INTERVAL DAYOFMONTH(UTC_DATE()) - 1 DAY)";
  const Counted default_list = list(std::string(kEvents));
  CHECK(
      default_list.total ==
      brute_count("d.start_utc >= UTC_DATE() - INTERVAL 1 DAY AND d.end_utc <= " + first_of_month +
                  " + INTERVAL 24 MONTH + INTERVAL DAYOFMONTH(UTC_DATE()) - 1 DAY + INTERVAL 86399 SECOND"));
  CHECK(general_log::count_containing(default_list.statements, "FROM event_end_month_counts") >= 1);
  CHECK(general_log::count_containing(default_list.statements, "d.end_utc > ?") == 0);

  // A window of two years around the season, cut inside days: both part-days from the indexes.
  const Counted around =
      list(std::string(kEvents) +
           "?strict_dates=true&start_date=2038-12-31T06:00:00Z&end_date=2040-12-01T07:30:00Z");
  CHECK(around.total ==
        brute_count("d.start_utc >= '2038-12-31 06:00:00' AND d.end_utc <= '2040-12-01 07:30:00'"));
  CHECK(general_log::count_containing(around.statements, "FORCE INDEX (event_details_status_end)") >= 1);

  // A month inside the season is shorter than the longest event: its end bound from the index.
  const Counted month =
      list(std::string(kEvents) +
           "?strict_dates=true&start_date=2039-02-01T00:00:00Z&end_date=2039-02-28T23:59:59Z");
  CHECK(month.total ==
        brute_count("d.start_utc >= '2039-02-01 00:00:00' AND d.end_utc <= '2039-02-28 23:59:59'"));
  CHECK(general_log::count_containing(month.statements, "FROM event_end_month_counts") == 0);
  CHECK(general_log::count_containing(month.statements, "d.end_utc > ?") >= 1);

  CHECK(engine::derived_data_mismatch() == "");
}

}  // namespace caltest
