// Unit tests for cal/http/accept.h: when an Accept header asks for the iCalendar feed.
#include "cal/http/accept.h"

#include <doctest/doctest.h>

using cal::prefers_calendar;

TEST_CASE("prefers_calendar") {
  CHECK(prefers_calendar("text/calendar"));
  CHECK(prefers_calendar("Text/Calendar; charset=utf-8"));
  CHECK(prefers_calendar("text/calendar, */*;q=0.1"));
  CHECK(prefers_calendar("application/json;q=0.5, text/calendar"));
  CHECK(prefers_calendar("text/calendar, application/json"));  // a tie: the feed was asked for by name
  CHECK(prefers_calendar("text/calendar;q=abc"));              // a malformed quality counts as 1
  CHECK_FALSE(prefers_calendar(""));
  CHECK_FALSE(prefers_calendar("*/*"));
  CHECK_FALSE(prefers_calendar("text/*"));
  CHECK_FALSE(prefers_calendar("application/json"));
  CHECK_FALSE(prefers_calendar("text/calendar;q=0"));
  CHECK_FALSE(prefers_calendar("text/calendar;q=0.4, application/json;q=0.9"));
  CHECK_FALSE(prefers_calendar("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"));
}
