// Unit tests for api/ical/libical.h: the library the iCalendar module loads on first use has every
// function the module calls, and they are the ones the program would have linked.
#include "api/ical/libical.h"

#include "cal/api/ical/ical_library.h"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("libical loads on first use with every function the iCalendar module calls") {
  std::string error;
  REQUIRE_MESSAGE(cal::load_ical_library(error), error);
  const cal::LibIcal& lib = cal::libical();
  // This test program links libical itself: the loaded functions are the very same.
#define CAL_CHECK_LOADED(name) CHECK_MESSAGE(static_cast<bool>(lib.name == &::name), #name);
  CAL_LIBICAL_FUNCTIONS(CAL_CHECK_LOADED)
#undef CAL_CHECK_LOADED
  CHECK(&cal::libical() == &lib);  // loaded once
}
