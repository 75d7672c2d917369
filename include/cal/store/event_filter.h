// The filtered event list of GET /events (docs/api.md §4.1, §4.3) as typed values, built by the API
// layer from validated parameters; src/store/event_query.cpp alone turns it into SQL.
#pragma once

#include "cal/core/dates/dates.h"
#include "cal/store/modified_bounds.h"
#include "cal/store/post_visibility.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

// UTC bounds on events; each absent when that side is not filtered.
struct EventDateWindow {
  std::optional<Seconds> start_min;     // start >= (start_date or its default)
  std::optional<Seconds> end_max;       // end <= (end_date or its default)
  std::optional<Seconds> start_before;  // start <
  std::optional<Seconds> start_after;   // start >
  std::optional<Seconds> end_before;    // end <
  std::optional<Seconds> end_after;     // end >
};

// The words of a `search` value: each required word must occur (case-insensitively, as a
// substring) in the title, description or excerpt; no excluded word may occur in any of them.
struct SearchWords {
  std::vector<std::string> required;
  std::vector<std::string> excluded;
  bool empty() const { return required.empty() && excluded.empty(); }
};

// What the search index found for one required word (cal/store/search_index.h): the events
// holding it are among the postings of `word_ids` (or pending, not yet indexed).
struct SearchNarrowing {
  std::size_t word = 0;             // index into SearchWords::required
  bool exact = false;               // the word has no separator: its postings alone decide it
  std::vector<long long> word_ids;  // index words containing the word (or its narrowest piece)
  long long postings = 0;           // postings of word_ids, counted up to a bound
  bool pending_events = true;       // whether any event was pending when the search was planned
};

// A required word the index decides alone (it has no separator): an event not pending holds it
// exactly when a posting of `word_ids` names it; a pending one is tested with LIKE.
struct IndexedWord {
  std::string word;
  std::vector<long long> word_ids;
};

// Venues within `radius_km` of a point (the geolocation extension).
struct GeoFence {
  double lat = 0;
  double lng = 0;
  double radius_km = 0;
};

struct EventFilter {
  PostVisibility visibility;
  // Non-empty: only these ids, hidden ones included, and no date bounds at all.
  std::vector<long long> include;
  EventDateWindow window;
  SearchWords search;
  std::optional<SearchNarrowing> search_narrowing;  // set by the planner, never by clients
  bool search_is_expensive = false;                 // the planner's verdict (EventSearchPlan)
  std::vector<IndexedWord> search_indexed;          // set by the planner: words tested on postings
  // Term ids: an event must carry one of `categories` (when non-empty) and one of `tags`.
  std::vector<long long> categories;
  std::vector<long long> tags;
  std::vector<long long> venues;      // at one of these venues (when non-empty)
  std::vector<long long> organizers;  // with one of these organizers (when non-empty)
  std::optional<bool> featured;
  std::optional<long long> parent;  // post_parent
  // hide_subsequent_recurrences: of each recurring series only its first occurrence that the
  // rest of the filter lets through (one-off events as they are).
  bool first_per_series = false;
  bool with_coordinates = false;  // the venue has both coordinates
  std::optional<GeoFence> fence;
  bool matches_nothing = false;  // e.g. ticketed=true: the service sells no tickets
  ModifiedBounds modified;       // on posts.modified_utc
};

}  // namespace cal
