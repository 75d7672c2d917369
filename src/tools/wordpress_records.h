// One WordPress post and its meta turned into our records (docs/importing-wordpress.md), by the
// readings of research on TEC (cal/core/wordpress/tec_fields.h): the first meta row of a key wins
// (get_post_meta(..., true)), except for keys TEC reads as lists (_EventCost, _EventOrganizerID).
// Ids of linked records are still WordPress ids here; the importer maps them.
#pragma once

#include "wordpress_report.h"

#include "cal/core/dates/dates.h"
#include "cal/store/events.h"
#include "cal/store/organizers.h"
#include "cal/store/venues.h"
#include "cal/store/wordpress_source.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

// What the site's options say about reading its events.
struct WpSiteRules {
  TimeZone zone;                      // the site zone (timezone_string / gmt_offset)
  std::string zone_name;              // its name here
  std::string currency_symbol = "$";  // tribe_events_calendar_options defaultCurrencySymbol
  bool currency_after = false;        // ... reverseCurrencyPosition
};

// Every meta key the importer reads.
extern const std::vector<std::string> kWpMetaKeys;

// The first value of `key`, nullopt when the post has no such row.
std::optional<std::string> first_meta(const WpMeta& meta, const std::string& key);
// Every value of `key` in meta_id order.
std::vector<std::string> all_meta(const WpMeta& meta, const std::string& key);

// The post row shared by every type: status (trash with the status before it), slug restored and
// never empty, publication dates with a floating draft's zero GMT date computed from the site
// zone. `type` is our type; the id and author are still WordPress's. Changes go to `report`.
PostRow wp_post_row(const WpPost& post, const WpMeta& meta, PostType type, const WpSiteRules& site,
                    const char* kind, ImportReport& report);

// An event's details, or nullopt (reported) when it has no usable start and end.
std::optional<EventDetails> wp_event_details(const WpPost& post, const WpMeta& meta, const WpSiteRules& site,
                                             ImportReport& report);
VenueDetails wp_venue_details(const WpMeta& meta);
OrganizerDetails wp_organizer_details(const WpMeta& meta);

// The WordPress ids an event links to: venue (0 = none), organizers in order, featured image.
long long wp_event_venue(const WpMeta& meta);
std::vector<long long> wp_event_organizers(const WpMeta& meta);
long long wp_thumbnail(const WpMeta& meta);
// Whether a pre-custom-tables recurrence rule is stored (_EventRecurrence with rules).
bool wp_has_recurrence_rules(const WpMeta& meta);

// The URL of an attachment: `_wp_attached_file` under the uploads base, or as it is when absolute.
std::string wp_attachment_url(const std::string& uploads_base, const std::string& attached_file);

}  // namespace cal
