// Internal to src/store/ (and its unit test): the event list when its filter is only visibility
// by status, the date window and `featured` (GET /events as every role sees it by default, issue
// 14). The page is an ordered scan of the visibility indexes of event_details reading only
// offset + limit rows; the exact total is the rollup decomposition of event_count_plan.h. An
// author's list (published or own) is the published list plus their own rows that do not read as
// published, paged and counted from the author index (event_details_author_start): cost the
// author's events in the window. Link filters go by event_link_list.h, any other filter the
// general way (event_query.cpp).
#pragma once

#include "cal/store/events.h"

#include <string>
#include <vector>

namespace cal {

// Which stored statuses a list counts whole, and what it does with the scheduled events whose
// date has passed (they read as `publish`): +1 adds them (published wanted, scheduled not), -1
// takes them out of `future` (scheduled wanted, published not), 0 neither.
struct StatusPlan {
  std::vector<std::string> statuses;
  int due = 0;
};
StatusPlan plan_statuses(const PostVisibility& visibility);

// True when `filter` only uses what find_window_page() covers.
bool window_list_applies(const EventFilter& filter);

// The page and total as find_event_page() gives them: one statement, the count planned with the
// duration bounds the process's previous page read; a count statement after it when the bounds
// it reads are others (the first list, a longer event written since).
EventPage find_window_page(Db& db, const EventFilter& filter, long long limit, long long offset);

// The same page as the keys of its events (find_event_key_page()): the page statement reads only
// the visibility index and event_details' copies, not the events' rows.
EventKeyPage find_window_keys(Db& db, const EventFilter& filter, long long limit, long long offset);

// The SQL of its page statement (for EXPLAIN and tests).
std::string window_page_sql(const EventFilter& filter);

}  // namespace cal
