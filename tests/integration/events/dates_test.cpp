// Integration tests of the list date window (docs/api.md §4.1, §6) on small fixtures with known dates:
// the defaults (yesterday 00:00 .. today + 24 months) and when they are dropped, start_date /
// end_date, the four relative filters, strict and non-strict days, UTC comparison across event
// zones, include ignoring dates, and every date form.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;
using Ids = std::vector<long long>;

// Six events in July 2041 (site zone UTC), in list order:
//   a  07-10 09:00 .. 10:00 UTC
//   g  07-10 09:00 .. 11:00 UTC   (same start as a, created later: after a)
//   b  07-10 23:30 .. 07-11 00:30 UTC
//   c  07-11 00:00 .. 08:00 UTC
//   e  07-10 21:00 .. 22:00 New York (EDT) = 07-11 01:00 .. 02:00 UTC
//   d  07-12 12:00 .. 13:00 UTC
struct July {
  std::string word;
  long long a = 0, g = 0, b = 0, c = 0, e = 0, d = 0;
};

const July& july() {
  static const July j = [] {
    July x;
    x.word = unique("july");
    const std::string& w = x.word;
    x.a = create_id(w + " a", "2041-07-10 09:00", "2041-07-10 10:00");
    x.g = create_id(w + " g", "2041-07-10 09:00", "2041-07-10 11:00");
    x.b = create_id(w + " b", "2041-07-10 23:30", "2041-07-11 00:30");
    x.c = create_id(w + " c", "2041-07-11 00:00", "2041-07-11 08:00");
    x.e = create_id(w + " e", "2041-07-10 21:00", "2041-07-10 22:00", "\"timezone\":\"America/New_York\"");
    x.d = create_id(w + " d", "2041-07-12 12:00", "2041-07-12 13:00");
    return x;
  }();
  return j;
}

Ids july_ids(const std::string& filters) {
  return list_ids("search=" + july().word + "&per_page=50&" + filters);
}

TEST_CASE("events beyond the default window need explicit dates") {
  const July& j = july();
  CHECK(july_ids("").empty());
  CHECK(july_ids("start_date=2041-07-01").empty());  // the end default still applies
  CHECK(july_ids("start_date=2041-07-01&end_date=2041-07-31") == Ids{j.a, j.g, j.b, j.c, j.e, j.d});
}

TEST_CASE("start_date and end_date: whole site-local days unless strict") {
  const July& j = july();
  CHECK(july_ids("start_date=2041-07-10&end_date=2041-07-10") == Ids{j.a, j.g});
  CHECK(july_ids("start_date=" + enc("2041-07-10 09:30") + "&end_date=" + enc("2041-07-11 00:30")) ==
        Ids{j.a, j.g, j.b, j.c, j.e});
  CHECK(july_ids("start_date=" + enc("2041-07-10 09:30") + "&end_date=" + enc("2041-07-11 00:30") +
                 "&strict_dates=true") == Ids{j.b});
  CHECK(july_ids("start_date=2041-07-11&end_date=2041-07-12") == Ids{j.c, j.e, j.d});
  CHECK(july_ids("start_date=2041-07-11&end_date=2041-07-12&strict_dates=true") == Ids{j.c, j.e});
  CHECK(july_ids("start_date=2041-07-11&end_date=2041-07-11") == Ids{j.c, j.e});
  // The same instant in other forms.
  CHECK(july_ids("start_date=" + enc("2041-07-10T23:30:00Z") +
                 "&end_date=" + enc("2041-07-11T00:30:00+00:00") + "&strict_dates=1") == Ids{j.b});
  CHECK(july_ids("start_date=" + enc("2041-07-10T19:30:00-04:00") +
                 "&end_date=2257115400&strict_dates=true") == Ids{j.b});
}

TEST_CASE("starts_before / starts_after / ends_before / ends_after, not strict and strict") {
  const July& j = july();
  // Not strict: *_before is before 00:00:00 of the day, *_after after 23:59:59 of the day.
  CHECK(july_ids("starts_before=" + enc("2041-07-11 15:00")) == Ids{j.a, j.g, j.b});
  CHECK(july_ids("starts_before=" + enc("2041-07-11 15:00") + "&strict_dates=true") ==
        Ids{j.a, j.g, j.b, j.c, j.e});
  CHECK(july_ids("starts_after=" + enc("2041-07-10 08:00")) == Ids{j.c, j.e, j.d});
  CHECK(july_ids("starts_after=" + enc("2041-07-10 08:00") + "&strict_dates=true") ==
        Ids{j.a, j.g, j.b, j.c, j.e, j.d});
  CHECK(july_ids("ends_before=" + enc("2041-07-11 05:00")) == Ids{j.a, j.g});
  CHECK(july_ids("ends_before=" + enc("2041-07-11 05:00") + "&strict_dates=true") == Ids{j.a, j.g, j.b, j.e});
  CHECK(july_ids("ends_after=2041-07-11") == Ids{j.d});
  CHECK(july_ids("ends_after=2041-07-11&strict_dates=true") == Ids{j.b, j.c, j.e, j.d});
  // Bounds are exclusive.
  CHECK(july_ids("starts_after=" + enc("2041-07-10 09:00") + "&starts_before=" + enc("2041-07-11 00:00") +
                 "&strict_dates=true") == Ids{j.b});
  CHECK(july_ids("ends_after=" + enc("2041-07-11 02:00") + "&ends_before=" + enc("2041-07-12 13:00") +
                 "&strict_dates=true") == Ids{j.c});
}

TEST_CASE("a relative filter drops both defaults but keeps a given start_date or end_date") {
  const July& j = july();
  CHECK(july_ids("start_date=2041-07-11&starts_before=2041-07-12") == Ids{j.c, j.e});
  CHECK(july_ids("end_date=2041-07-10&starts_after=2041-07-01") == Ids{j.a, j.g});
  CHECK(july_ids("ends_after=2041-07-01&end_date=2041-07-11") == Ids{j.a, j.g, j.b, j.c, j.e});
}

TEST_CASE("comparison is on UTC instants, not wall clocks") {
  const July& j = july();
  // e is 21:00 on 07-10 in New York but 01:00 on 07-11 in UTC, the site zone.
  CHECK(july_ids("start_date=2041-07-10&end_date=2041-07-10").size() == 2);
  CHECK(july_ids("start_date=" + enc("2041-07-11 01:00") + "&end_date=" + enc("2041-07-11 02:00") +
                 "&strict_dates=true") == Ids{j.e});
}

TEST_CASE("include ignores every date filter") {
  const July& j = july();
  const std::string inc = "include=" + std::to_string(j.d) + "," + std::to_string(j.a);
  CHECK(list_ids(inc) == Ids{j.a, j.d});
  CHECK(list_ids(inc + "&start_date=2001-01-01&end_date=2001-01-02") == Ids{j.a, j.d});
  CHECK(list_ids(inc + "&starts_after=2050-01-01&strict_dates=true") == Ids{j.a, j.d});
}

TEST_CASE("the default window: start from yesterday 00:00, end by today + 24 months") {
  // The relative dates are the point here, resolved by the service at each request's instant.
  // Midnight UTC (the site zone) passing between the first create and the last list moves
  // "today" under the fixtures: then the whole test runs again, on the new day (once: the next
  // midnight is a day away). Month ends ("+23 months" from a 31st) and leap days roll over the
  // same way in the fixtures as in the window (unit tests: event_window_test.cpp).
  struct Run {
    long long old = 0, spanning = 0, yesterday = 0, today = 0, near_end = 0, last_day = 0, beyond = 0,
              far = 0;
    Ids defaults, after_2000, before_2200, relative_range, from_today, from_2_days_ago, to_25_months;
  };
  const auto run = [] {
    Run r;
    const std::string w = unique("window");
    r.old = create_id(w + " old", "-2 days 10:00", "-2 days 11:00");
    r.spanning = create_id(w + " spanning", "-3 days 10:00", "+1 day 10:00");
    r.yesterday = create_id(w + " yesterday", "yesterday 00:00", "yesterday 01:00");
    r.today = create_id(w + " today", "today 10:00", "today 11:00");
    r.near_end = create_id(w + " near", "+23 months", "+23 months +1 hour");
    r.last_day = create_id(w + " last", "today +24 months 22:00", "today +24 months 23:00");
    r.beyond = create_id(w + " beyond", "+24 months +1 day 10:00", "+24 months +1 day 11:00");
    r.far = create_id(w + " far", "+25 months", "+25 months");
    const std::string s = "search=" + w + "&per_page=50";
    r.defaults = list_ids(s);
    r.after_2000 = list_ids(s + "&starts_after=2000-01-01");
    r.before_2200 = list_ids(s + "&ends_before=2200-01-01");
    r.relative_range = list_ids(s + "&starts_after=" + enc("-5 days") + "&starts_before=tomorrow");
    r.from_today = list_ids(s + "&start_date=today");
    r.from_2_days_ago = list_ids(s + "&start_date=" + enc("-2 days"));
    r.to_25_months = list_ids(s + "&end_date=" + enc("+25 months"));
    return r;
  };
  auto day = utc_today();
  Run r = run();
  if (utc_today() != day) {
    MESSAGE("midnight UTC passed during the test: run again on the new day");
    day = utc_today();
    r = run();
    REQUIRE(utc_today() == day);
  }
  CHECK(r.defaults == Ids{r.yesterday, r.today, r.near_end, r.last_day});
  // Any relative filter drops both defaults.
  const Ids all = {r.spanning, r.old, r.yesterday, r.today, r.near_end, r.last_day, r.beyond, r.far};
  CHECK(r.after_2000 == all);
  CHECK(r.before_2200 == all);
  // Relative forms are accepted as filter values.
  CHECK(r.relative_range == Ids{r.spanning, r.old, r.yesterday, r.today});
  CHECK(r.from_today == Ids{r.today, r.near_end, r.last_day});
  CHECK(r.from_2_days_ago == Ids{r.old, r.yesterday, r.today, r.near_end, r.last_day});
  CHECK(r.to_25_months == Ids{r.yesterday, r.today, r.near_end, r.last_day, r.beyond, r.far});
}

}  // namespace
}  // namespace caltest
