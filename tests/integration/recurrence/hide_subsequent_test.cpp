// hide_subsequent_recurrences on GET /events (docs/recurring-events.md): of each series only its
// first occurrence that the other filters let through, one-off events as they are, and totals
// that count series.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

TEST_CASE("recurrence: hide_subsequent_recurrences lists the first matching occurrence of each series") {
  const HttpResponse category = post_json("/cal/events/v1/categories",
                                          "{\"name\":" + events::quoted(unique("Hide rec")) + "}", {admin()});
  REQUIRE(category.status == 201);
  const std::string in_category = "\"categories\":[" + std::to_string(id_of(category.json())) + "]";
  const std::string weekly = unique("Weekly");
  const std::string daily = unique("Daily");
  const long long weekly_id = id_of(create(event_body(
      weekly, "2042-05-06 19:00", "2042-05-06 21:00",
      "\"timezone\":\"Europe/Berlin\"," + in_category + ",\"recurrence\":[\"RRULE:FREQ=WEEKLY;COUNT=5\"]")));
  const long long daily_id = id_of(create(
      event_body(daily, "2042-05-08 08:00", "2042-05-08 09:00",
                 "\"timezone\":\"UTC\"," + in_category + ",\"recurrence\":[\"RRULE:FREQ=DAILY;COUNT=4\"]")));
  const long long one_off = create_id(unique("Once"), "2042-05-07 12:00", "2042-05-07 13:00", in_category);
  const std::string query = "start_date=2042-01-01&end_date=2042-12-31&per_page=50&categories=" +
                            std::to_string(id_of(category.json()));
  const std::vector<long long> all = list_ids(query);
  REQUIRE(all.size() == 10);  // 5 + 4 occurrences and the one-off event
  // In start order: weekly 05-06, one-off 05-07, daily 05-08 .. 05-11, weekly 05-13 .. 06-03.
  const HttpResponse firsts = get(std::string(kEvents) + "?" + query + "&hide_subsequent_recurrences=1");
  REQUIRE(firsts.status == 200);
  CHECK(ids_in(firsts.json()) == std::vector<long long>{all[0], all[1], all[2]});
  CHECK(firsts.header("x-wp-total") == "3");
  CHECK(int_at(firsts.json(), {"events", "0", "series_id"}) == weekly_id);
  CHECK(int_at(firsts.json(), {"events", "2", "series_id"}) == daily_id);
  CHECK(int_at(firsts.json(), {"events", "1", "id"}) == one_off);

  // A window that starts later: each series' first occurrence in it.
  const HttpResponse later =
      get(std::string(kEvents) + "?start_date=2042-05-10&end_date=2042-12-31&categories=" +
          std::to_string(id_of(category.json())) + "&hide_subsequent_recurrences=true");
  REQUIRE(later.status == 200);
  CHECK(ids_in(later.json()) == std::vector<long long>{all[4], all[6]});  // daily 05-10, weekly 05-13
  CHECK(later.header("x-wp-total") == "2");

  // The other filters decide per occurrence: an occurrence edited alone that alone matches a
  // search is the series' first match.
  const long long third_weekly = all[7];  // weekly 05-20
  REQUIRE(patch_json(path_of(third_weekly) + "?scope=this", R"({"title":"Rare zanzibar evening"})", {admin()})
              .status == 200);
  const HttpResponse found =
      get(std::string(kEvents) + "?" + query + "&search=zanzibar&hide_subsequent_recurrences=1");
  REQUIRE(found.status == 200);
  CHECK(ids_in(found.json()) == std::vector<long long>{third_weekly});

  // Off, and bad values.
  CHECK(list_ids(query + "&hide_subsequent_recurrences=0") == all);
  CHECK(error_mismatch(get(std::string(kEvents) + "?" + query + "&hide_subsequent_recurrences=sometimes"),
                       400, "rest_invalid_param") == "");
}

}  // namespace
}  // namespace caltest
