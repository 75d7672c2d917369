// Event rows (posts + event_details) and their links to venues and organizers (event_venues,
// event_organizers): batch loads, the one list query, and the writes of an event's details and
// links. Every function issues a fixed number of statements whatever the number of ids.
#pragma once

#include "cal/store/event_filter.h"
#include "cal/store/posts.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cal {

// The event_details row of one event. Date-times are "YYYY-MM-DD HH:MM:SS".
struct EventDetails {
  std::string start_local;  // wall clock in `timezone`
  std::string end_local;
  std::string start_utc;
  std::string end_utc;
  std::string timezone;  // IANA id or "UTC+H[:MM]"
  bool all_day = false;
  std::string cost;     // cost text as entered
  std::string website;  // "" = none
  bool show_map = true;
  bool show_map_link = true;
  bool hide_from_listings = false;
  bool sticky = false;
  bool featured = false;
};

// What makes an event an occurrence of a recurring series (event_occurrences,
// cal/store/event_series.h).
struct EventOccurrence {
  long long series_id = 0;
  std::string original_local;  // the wall clock the rule named, "YYYY-MM-DD HH:MM:SS"
  std::string original_utc;    // the instant it resolved to
  bool is_exception = false;   // edited alone
};

// An event as stored: its post row, its details, its venue link (0 = no venue) and, for an
// occurrence of a series, which one it is.
struct Event {
  PostRow post;
  EventDetails details;
  long long venue_id = 0;
  std::optional<EventOccurrence> occurrence;
};

// Events of the given ids (any order; missing ids, and posts without details, are skipped):
// posts, details and venue link in one statement.
std::vector<Event> find_events(Db& db, const std::vector<long long>& ids);

// Whether an event with this id exists (any status).
bool event_exists(Db& db, long long id);

// Inserts or replaces the details row of the event (call inside a transaction).
void save_event_details(Db& db, long long event_id, const EventDetails& details);

// Links the event to `venue_id`, or removes its venue link when 0.
void set_event_venue(Db& db, long long event_id, long long venue_id);

// Replaces the event's organizers with `organizer_ids`, kept in the given order (duplicates
// after the first are dropped). `fresh`: the event was created in this transaction and has no
// organizers yet, so there is nothing to remove (one statement less).
void set_event_organizers(Db& db, long long event_id, const std::vector<long long>& organizer_ids,
                          bool fresh = false);

// (event id, organizer id) links of the given events, ordered by event id then link position.
// One statement.
std::vector<std::pair<long long, long long>> find_event_organizer_links(
    Db& db, const std::vector<long long>& event_ids);

// One page of a list: the events in list order (UTC start, then id) and the total matching.
struct EventPage {
  std::vector<Event> events;
  long long total = 0;
};

// How find_event_page() will answer `filter`, chosen before it runs, with the work each way costs:
//   kIds     the listed ids only (`include`): bounded by their number;
//   kWindow  an ordered read of the visibility indexes plus the rollup count (event_window_list.h);
//   kLinks   the events of the named venues or organizers (event_link_list.h);
//   kFilter  the general query: the window's rows through the filter's indexes and EXISTS tests;
//   kTextScan  `search` words the index cannot narrow (or held by very many events: the
//            search plan's verdict, cal/store/search_index.h): every event the other filters
//            leave in the window is read and tested with LIKE, or the many postings counted
//            against the other filters: the plan whose cost grows with the whole window. A
//            narrowed search is kLinks or kFilter, and so is one index word held by very many
//            events with nothing else to test (counted from its day rollup, whatever its size).
enum class EventListPlan { kIds, kWindow, kLinks, kFilter, kTextScan };
EventListPlan plan_event_list(const EventFilter& filter);

// The list: the page of `limit` events from `offset` that `filter` keeps, and their total count.
// Two statements (the window plan: usually one, event_window_list.h).
EventPage find_event_page(Db& db, const EventFilter& filter, long long limit, long long offset);

// An event of a list page as the list read it: its id and the columns its filter tested, as
// they were then (the status as it reads: a scheduled post whose date has passed is `publish`).
struct ListedEventKey {
  long long id = 0;
  std::string status;
  long long author = 0;
  std::string start_utc, end_utc;  // "YYYY-MM-DD HH:MM:SS"
  bool hidden = false;
  bool featured = false;
};

// One page of a list as keys, in list order, and the total matching.
struct EventKeyPage {
  std::vector<ListedEventKey> keys;
  long long total = 0;
};

// find_event_page() without the events' rows, for a caller that has most records rendered
// already (cal/api/events/event_fragments.h) and reads the rows of the others with their
// relations: the same statements, the page's reading only indexes, event_details and rollups.
// Only for the window and link plans (plan_event_list() == kWindow or kLinks); nullopt for any
// other filter.
std::optional<EventKeyPage> find_event_key_page(Db& db, const EventFilter& filter, long long limit,
                                                long long offset);

// True when `event`, read after its key, still lists as the key says: the same status as it
// reads, author, UTC start and end, hidden and featured flags. It then meets the filter that
// listed the key, and takes the same place in the list.
bool lists_as(const Event& event, const ListedEventKey& key);

// The SQL text of the page query for `filter` (for EXPLAIN and tests).
std::string event_page_sql(const EventFilter& filter);

}  // namespace cal
