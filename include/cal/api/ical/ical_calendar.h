// Writing a VCALENDAR (RFC 5545, by libical): its head with the VTIMEZONEs its VEVENTs need, the
// VEVENTs as texts of their own (so that a feed may reuse those kept in the fragment cache,
// cal/api/ical/ical_feed.h), and the two put together.
#pragma once

#include "cal/api/events/event_record.h"
#include "cal/api/ical/ical_series.h"
#include "cal/api/pipeline/context.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

// A zone a VEVENT writes its times in, and the years they span (its VTIMEZONE must cover them).
struct ZoneYears {
  std::string zone;
  int first = 0, last = 0;
};

// The host of the site ("example.org", "example.org:8080"): the UIDs' and the default name's.
std::string site_host(const RequestContext& ctx);

// The zone `item`'s VEVENT needs a VTIMEZONE of; nullopt when it writes UTC times or dates.
std::optional<ZoneYears> item_zone_years(const FeedItem& item, bool mask_protected);

// Each item's VEVENT as text, in order (a large feed's written by two threads). A protected
// event's content is masked when `mask_protected`.
std::vector<std::string> vevent_texts(const RequestContext& ctx, const std::vector<FeedItem>& items,
                                      const EventRelations& relations, bool mask_protected);

// The CATEGORIES properties of a VEVENT showing `terms`, in their order, as its text holds them.
std::string categories_text(const std::vector<const Term*>& terms);

// The VCALENDAR named `title` of `vevents` (texts as vevent_texts() writes them), with a
// VTIMEZONE per zone of `zones` covering all of its years.
std::string calendar_of(const RequestContext& ctx, const std::string& title,
                        const std::vector<ZoneYears>& zones, const std::vector<const std::string*>& vevents);

// The VCALENDAR text of `items`.
std::string calendar_text(const RequestContext& ctx, const std::vector<FeedItem>& items,
                          const EventRelations& relations, bool mask_protected, const std::string& title);

}  // namespace cal
