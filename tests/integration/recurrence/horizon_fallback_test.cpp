// Integration test of the horizon extension's fallback (docs/recurring-events.md, "Horizon"):
// from eight series on, half of them are extended on a second connection beside the request's.
// When MariaDB refuses that connection (here: the service's own account at its
// MAX_USER_CONNECTIONS, as `calendarctl db-account create` sets it), the request's connection
// extends them all itself and the list is answered in full.
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "ops/ops_stack.h"
#include "support/events.h"

namespace caltest {
namespace {

constexpr int kSeries = 10;                    // at least the eight that bring in the second connection
constexpr int kFirstDay = 70, kLastDay = 120;  // the listed window, days from today: past every horizon

std::string day(int days) { return events::date_text(events::utc_today() + std::chrono::days{days}); }

}  // namespace

TEST_CASE("recurrence: a horizon extension refused a second connection extends on the request's own") {
  // One worker, so the service's connections are few and known; horizons a month ahead.
  OpsStack stack("horizonfallback", "[server]\nthreads = 1\n[recurrence]\nhorizon_months = 1\n");
  const std::string account = unique("svc");
  const Run made = run(stack.ctl() + " db-account create " + account +
                       " --max-connections 50 --max-statement-time 30 2>&1");
  REQUIRE_MESSAGE(made.exit_code == 0, made.out);
  const std::string password = line_value(made.out, "password");
  REQUIRE(!password.empty());

  // The service restarted on that account (migrate, which it may not run, stays root's).
  stack.serve_as(account, password);

  // Weekly series without end, starting on days 1..kSeries; what the window must list of them.
  long long expected = 0;
  for (int i = 0; i < kSeries; ++i) {
    const std::string start = day(1 + i);
    const HttpResponse r =
        send({.url = stack.url("/cal/events/v1/events"),
              .method = "POST",
              .body = "{\"title\":\"Fallback " + std::to_string(i) +
                      "\",\"status\":\"publish\",\"start_date\":\"" + start + " 10:00\",\"end_date\":\"" +
                      start + " 11:00\",\"recurrence\":[\"RRULE:FREQ=WEEKLY\"]}",
              .headers = {stack.admin(), "Content-Type: application/json"}});
    REQUIRE_MESSAGE(r.status == 201, describe(r));
    for (int d = 1 + i; d <= kLastDay; d += 7) expected += d >= kFirstDay;
  }
  REQUIRE(stack.sql("SELECT COUNT(*) FROM event_series WHERE is_infinite = 1 AND horizon_utc < '" +
                    day(kLastDay) + " 23:59:59'") == std::to_string(kSeries));

  // Every connection the account may have is taken: the service's own, held open, and no more.
  const std::string held =
      stack.sql("SELECT COUNT(*) FROM information_schema.processlist WHERE user = '" + account + "'");
  REQUIRE(std::stoll(held) >= 1);
  stack.sql("ALTER USER '" + account + "'@'localhost' WITH MAX_USER_CONNECTIONS " + held);

  const HttpResponse listed = send({.url = stack.url("/cal/events/v1/events?start_date=" + day(kFirstDay) +
                                                     "&end_date=" + day(kLastDay) + "&per_page=50")});
  REQUIRE_MESSAGE(listed.status == 200, describe(listed));
  CHECK(listed.header("X-WP-Total") == std::to_string(expected));
  CHECK(listed.json()["events"].Size() == std::min<long long>(expected, 50));
  // Each series moved past the window, its occurrences there written once.
  CHECK(stack.sql("SELECT COUNT(*) FROM event_series WHERE horizon_utc <= '" + day(kLastDay) +
                  " 23:59:59'") == "0");
  CHECK(stack.sql(
            "SELECT COUNT(*) FROM event_details d JOIN event_occurrences eo ON eo.event_id = d.event_id "
            "WHERE d.start_utc BETWEEN '" +
            day(kFirstDay) + " 00:00:00' AND '" + day(kLastDay) + " 23:59:59'") == std::to_string(expected));
  // The second connection was tried and refused.
  const std::string log = read_text_file(stack.dir() + "/calendar-fcgi.log");
  CHECK_MESSAGE(log.find("series extension beside the request") != std::string::npos, log);
}

}  // namespace caltest
