// Integration tests of the horizon of infinite series (docs/recurring-events.md, "Horizon"): a
// rule without an end is materialised to [recurrence] horizon_months; a list or occurrences query
// whose window passes that extends the series first (in whole months, up to max_horizon_years
// ahead, past which it answers 400), once however many ask at the same time, and cached answers
// follow.
#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

#include "support/client.h"
#include "support/engine.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

// Weekly starts from `first_day` days ahead through the end of `last_day` days ahead.
long long weekly_through(int first_day, int last_day) { return (last_day - first_day) / 7 + 1; }

std::string day(int days) { return date_text(utc_today() + std::chrono::days{days}); }

// GET /events/{series}/occurrences from today through `last_day` days ahead: its X-WP-Total.
std::string occurrences_through(long long series, int last_day) {
  const HttpResponse r =
      get(path_of(series) + "/occurrences?per_page=1&start_date=" + day(0) + "&end_date=" + day(last_day));
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  return r.header("X-WP-Total");
}

std::string horizon_of(long long series) {
  return engine::sql("SELECT DATE(horizon_utc) FROM event_series WHERE series_id = " +
                     std::to_string(series));
}

TEST_CASE("recurrence: a window past an infinite series' horizon extends it, up to max_horizon_years") {
  const HttpResponse category =
      post_json("/cal/events/v1/categories", "{\"name\":" + quoted(unique("Horizon")) + "}", {admin()});
  REQUIRE_MESSAGE(category.status == 201, describe(category));
  const std::string cat = std::to_string(id_of(category.json()));
  const long long series = id_of(create(event_body(
      unique("Weekly forever"), date_text(utc_today() + std::chrono::days{1}) + " 08:00",
      date_text(utc_today() + std::chrono::days{1}) + " 09:00",
      "\"timezone\":\"UTC\",\"categories\":[" + cat + "],\"recurrence\":[\"RRULE:FREQ=WEEKLY\"]")));
  const std::string written_horizon = horizon_of(series);
  // All of its occurrences, as materialised when written: cached now.
  const std::string all_path = path_of(series) + "/occurrences?per_page=1";
  const std::string all_before = get(all_path).header("X-WP-Total");
  CHECK(std::stoll(all_before) >= 259);

  // Seven years ahead: past the 60 months of the write.
  const int seven_years = 7 * 365 + 2;
  CHECK(occurrences_through(series, seven_years) == std::to_string(weekly_through(1, seven_years)));
  CHECK(horizon_of(series) > day(seven_years));
  CHECK(horizon_of(series) <= date_text(utc_today() + std::chrono::days{seven_years + 32}));
  CHECK(engine::derived_data_mismatch() == "");
  // The event list sees them too, and the cached answer of before follows the extension.
  const HttpResponse listed = get(std::string(kEvents) + "?per_page=1&categories=" + cat +
                                  "&start_date=" + day(0) + "&end_date=" + day(seven_years));
  REQUIRE_MESSAGE(listed.status == 200, describe(listed));
  CHECK(listed.header("X-WP-Total") == std::to_string(weekly_through(1, seven_years)));
  CHECK(std::stoll(get(all_path).header("X-WP-Total")) > std::stoll(all_before));
  CHECK(horizon_of(series) > written_horizon);

  // Two at once, nine years ahead: each answer complete, no occurrence twice.
  const int nine_years = 9 * 365 + 2;
  std::string totals[2];
  std::thread other([&] { totals[1] = occurrences_through(series, nine_years); });
  totals[0] = occurrences_through(series, nine_years);
  other.join();
  CHECK(totals[0] == std::to_string(weekly_through(1, nine_years)));
  CHECK(totals[1] == totals[0]);
  CHECK(
      engine::sql("SELECT COUNT(*) - COUNT(DISTINCT original_utc) FROM event_occurrences WHERE series_id = " +
                  std::to_string(series)) == "0");

  // Past [recurrence] max_horizon_years (10): refused, naming the limit; nothing changes.
  const std::string horizon = horizon_of(series);
  const HttpResponse far =
      get(std::string(kEvents) + "?start_date=" + day(0) + "&end_date=" + day(10 * 365 + 10));
  CHECK(error_mismatch(far, 400, "rest_invalid_param") == "");
  CHECK(far.body.find("max_horizon_years") != std::string::npos);
  CHECK(horizon_of(series) == horizon);

  // Gone again: no other test's far window meets an infinite series.
  REQUIRE(del(path_of(series) + "?force=true", {admin()}).status == 200);
}

}  // namespace
}  // namespace caltest
