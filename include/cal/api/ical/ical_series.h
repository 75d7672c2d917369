// Recurring series in the iCalendar feeds (docs/recurring-events.md, docs/feeds.md): a feed page
// lists occurrences, as the JSON list does; a calendar app wants each series once, with its rule,
// and the occurrences edited alone as overrides of it. This turns a page's events into those
// VEVENTs' sources.
#pragma once

#include "cal/api/events/event_record.h"
#include "cal/api/ical/ical_event.h"
#include "cal/api/pipeline/context.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

// What one VEVENT is written from: an event (a one-off event, an occurrence, or a series as the
// record of its first occurrence), and for a series its rule, for an override the occurrence it
// replaces.
struct FeedItem {
  Event event;
  long long uid_id = 0;                      // the id of the UID: the event's own, or its series'
  std::vector<std::string> recurrence;       // a series: its RRULE, RDATE and EXDATE lines
  std::optional<EventOccurrence> overrides;  // an occurrence edited alone: RECURRENCE-ID
  // A series or an override: the series' zone and all-day flag (the form of its DTSTART, which
  // RECURRENCE-ID takes), and the last year its occurrences reach (its zone's VTIMEZONE must).
  std::string series_zone;
  bool series_all_day = false;
  int last_year = 0;
  // The event of the page it stands for: its own, or for a series and its occurrences edited
  // alone, the series' first occurrence on the page.
  long long listed_id = 0;
};

// The items of a feed of `events` (a page of the list, in order). With `expand`, one item per
// event, as listed. Otherwise each series once, where its first occurrence on the page stood,
// followed by every occurrence of it edited alone that the caller may see (on the page or not,
// so that calendar apps move them); those the caller may not see are left out of the rule
// (EXDATE). `relations` gains the series' and the overrides' relations.
std::vector<FeedItem> feed_items(RequestContext& ctx, const std::vector<Event>& events, bool expand,
                                 EventRelations& relations);

}  // namespace cal
