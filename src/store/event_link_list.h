// Internal to src/store/ (and its tests): the event list filtered by categories, tags, venues or
// organizers (docs/architecture.md, the list plans). The link rows carry copies of their event's status,
// hidden flag and UTC start and end (schema.sql), so one link filter drives the query: the page is an ordered
// range scan of its rows per (id, stored status), reading only offset + limit rows each, and the exact total
// a range count over its rows in the window. Every other condition (search, the other link filters, featured,
// parent, geo, an author's own rows) is tested only on those rows. Cost: the driving filter's events in the
// window, not the table.
#pragma once

#include "cal/store/events.h"

#include <string>

namespace cal {

// True when `filter` has a link filter and no `include` (which goes the general way: its ids
// bound it already).
bool link_list_applies(const EventFilter& filter);

// True when `filter`'s list is the postings of one index word with nothing else to test: the
// total comes from the word's day rollup and the page from the postings' list index, each costing
// the same for a word in every event as for a rare one.
bool search_list_bounded(const EventFilter& filter);

// The page and total as find_event_page() gives them.
EventPage find_link_page(Db& db, const EventFilter& filter, long long limit, long long offset);

// The same page as the keys of its events (find_event_key_page()): the page statement reads the
// driver's rows and event_details' copies, not the events' rows.
EventKeyPage find_link_keys(Db& db, const EventFilter& filter, long long limit, long long offset);

// The SQL of its page statement (for EXPLAIN and tests).
std::string link_page_sql(const EventFilter& filter);

}  // namespace cal
