// Internal to src/store/: how event rows are selected and read, shared by the record loads
// (events.cpp) and the list query (event_query.cpp).
#pragma once

#include "cal/store/events.h"

#include <string>

namespace cal {

// The tables an event row is read from: posts p, event_details d, event_venues ev.
inline constexpr const char* kEventFrom =
    " FROM posts p JOIN event_details d ON d.event_id = p.id LEFT JOIN event_venues ev ON ev.event_id = p.id";

// "SELECT <post columns>, <detail columns>" + kEventFrom: the columns read_event() reads.
std::string select_events();

// The select list of select_events() alone (for statements that add columns after it), and its
// width: read_event() reads exactly these columns (and says so, see event_rows.cpp).
std::string event_columns();
inline constexpr int kEventColumnCount = kPostColumnCount + 14;

// The event of the current row of a select_events() query.
Event read_event(const Rows& rows);

}  // namespace cal
