// Internal to src/store/: how event rows are selected and read, shared by the record loads
// (events.cpp) and the list query (event_query.cpp).
#pragma once

#include "cal/store/events.h"

#include <string>

namespace cal {

// The tables an event row is read from: posts p, event_details d, event_venues ev.
inline constexpr const char* kEventFrom =
    " FROM posts p JOIN event_details d ON d.event_id = p.id LEFT JOIN event_venues ev ON ev.event_id = p.id";

// "<post columns>, <detail columns>" on p, d and ev: the columns read_event() reads.
std::string event_columns();

// "SELECT " + event_columns() + kEventFrom.
std::string select_events();

// The width of event_columns(): read_event() reads exactly these columns (and checks it does).
inline constexpr int kEventColumnCount = kPostColumnCount + 15;

// The event of the current row of a query selecting event_columns() from column `first`.
Event read_event(const Rows& rows, int first = 0);

// The columns of a ListedEventKey, of the page's keys `k` (its event_id) and event_details `d`:
// its copies of the post's status, author and date (the status as it reads: a scheduled post
// whose date has passed reads `publish`).
inline constexpr const char* kKeyColumns =
    "k.event_id, IF(d.status = 'future' AND d.publish_utc <= UTC_TIMESTAMP(), 'publish', d.status), "
    "d.author, DATE_FORMAT(d.start_utc, '%Y-%m-%d %H:%i:%s'), DATE_FORMAT(d.end_utc, '%Y-%m-%d %H:%i:%s'), "
    "d.hide_from_listings, d.featured";

// The key of the current row of a query selecting kKeyColumns from column `first`.
ListedEventKey read_event_key(const Rows& rows, int first = 0);

}  // namespace cal
