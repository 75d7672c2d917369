// The line-level check of an imported calendar (see cal/api/ical/ical_import.h): libical reports
// no line numbers and accepts much that is broken, so the body is unfolded and checked here first,
// and every problem names its line.
#pragma once

#include "cal/api/ical/ical_import.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cal {

// One content line after unfolding.
struct IcalLine {
  int line = 0;       // 1-based line of the body where it starts
  std::string text;   // unfolded, without the line end
  std::string name;   // the property name, upper-case ("BEGIN", "DTSTART", "X-WR-CALNAME")
  std::string value;  // what follows the first ':' outside quotes
};

struct IcalScan {
  std::vector<IcalLine> lines;    // every content line, in order
  std::vector<int> vevent_lines;  // body line of each BEGIN:VEVENT directly in the VCALENDAR
  IcalFailure failure = IcalFailure::kNone;
  std::optional<IcalProblem> problem;  // when failure != kNone
};

// Unfolds, checks UTF-8, the content-line syntax (name, parameters, ':' value, no control
// characters), BEGIN/END nesting of exactly one VCALENDAR, and counts the VEVENTs (stopping with a
// problem past `max_events`). Never throws.
IcalScan scan_ical_lines(std::string_view body, std::size_t max_events);

// The line as shown in a message: at most 60 bytes, cut at a UTF-8 character boundary.
std::string shown_line(std::string_view text);

// The problem "line N is malformed" for a content line.
IcalProblem malformed_line(const IcalLine& line);

}  // namespace cal
