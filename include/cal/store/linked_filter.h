// The filtered venue and organizer lists (docs/api.md §4.2) as typed values, built by the API layer
// from validated parameters; src/store/linked_posts.cpp alone turns them into SQL.
#pragma once

#include "cal/core/dates/dates.h"
#include "cal/store/modified_bounds.h"
#include "cal/store/post_visibility.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

struct LinkedFilter {
  PostVisibility visibility;
  // Every word must occur (case-insensitively) in the name, the description or one of the
  // type's searched detail fields (venues: address, city, province, state, stateprovince, zip,
  // phone; organizers: phone, email, website).
  std::vector<std::string> search_words;
  std::optional<long long> event;  // linked to this event
  // true: linked to at least one event that is not draft, pending or trash; false: to none.
  std::optional<bool> has_events;
  // Linked to an event that `upcoming_readers` may read and that ends after this instant.
  std::optional<Seconds> upcoming_after;
  PostVisibility upcoming_readers;  // its `statuses` are ignored
  ModifiedBounds modified;          // on posts.modified_utc
};

}  // namespace cal
