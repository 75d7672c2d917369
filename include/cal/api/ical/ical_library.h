// libical is loaded when the iCalendar module first needs it, not at start-up (it and ICU cost a
// CGI process start-up time it seldom needs; see src/api/ical/libical.h). A long-running server loads it
// at start instead.
#pragma once

#include <string>

namespace cal {

// Loads libical now; false, with the reason in `error`, when it cannot (feeds and imports then
// fail until it can be loaded; everything else works).
bool load_ical_library(std::string& error);

}  // namespace cal
