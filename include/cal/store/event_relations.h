// Everything the records of a set of events embed (organizer links in order, venues, organizers,
// categories and tags, the images of all of them), read in ONE statement whatever the number of
// events: a list page costs count + page + this, a single read its post row + this (issue 14).
#pragma once

#include "cal/store/events.h"
#include "cal/store/organizers.h"
#include "cal/store/terms.h"
#include "cal/store/venues.h"

#include <utility>
#include <vector>

namespace cal {

struct EventRelationRows {
  std::vector<Event> events;                                     // only with `with_events`
  std::vector<std::pair<long long, long long>> organizer_links;  // (event, organizer) by event, position
  std::vector<Venue> venues;                                     // each once
  std::vector<Organizer> organizers;                             // each once
  std::vector<std::pair<long long, Term>> terms;                 // (event, term) by event, then name
  std::vector<Image> images;                                     // of the events, venues, organizers
};

// The relations of the events `event_ids`, and with `with_events` the events themselves (as
// find_events() reads them), in one statement; nothing (no statement) for no ids.
EventRelationRows find_event_relations(Db& db, const std::vector<long long>& event_ids,
                                       bool with_events = false);

}  // namespace cal
