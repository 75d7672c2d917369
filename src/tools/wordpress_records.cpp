// WordPress posts and meta as our records (see wordpress_records.h).
#include "wordpress_records.h"

#include "cal/core/text/numbers.h"
#include "cal/core/text/slug.h"
#include "cal/core/wordpress/php_serialized.h"
#include "cal/core/wordpress/tec_fields.h"

#include <cmath>
#include <cstdlib>

namespace cal {
namespace {

const char* const kOurStatuses[] = {"publish", "future", "draft", "pending", "private"};

bool is_our_status(const std::string& status) {
  for (const char* s : kOurStatuses)
    if (status == s) return true;
  return false;
}

// Local wall clock → UTC text in `zone`.
std::string utc_of(const LocalDateTime& local, const TimeZone& zone) {
  return format_date_time(to_utc_date_time(zone.to_instant(local)));
}

// A stored number that must be a finite decimal in [-limit, limit].
std::optional<double> coordinate(const std::optional<std::string>& text, double limit) {
  if (!text || text->empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text->c_str(), &end);
  if (end == text->c_str() || *end != '\0' || !std::isfinite(value) || std::fabs(value) > limit)
    return std::nullopt;
  return value;
}

long long meta_id(const std::optional<std::string>& text) {
  if (!text) return 0;
  const auto id = parse_id(*text);
  return id ? *id : 0;
}

}  // namespace

const std::vector<std::string> kWpMetaKeys = {"_EventStartDate",
                                              "_EventEndDate",
                                              "_EventStartDateUTC",
                                              "_EventEndDateUTC",
                                              "_EventTimezone",
                                              "_EventAllDay",
                                              "_EventCost",
                                              "_EventCurrencySymbol",
                                              "_EventCurrencyPosition",
                                              "_EventURL",
                                              "_EventShowMap",
                                              "_EventShowMapLink",
                                              "_EventHideFromUpcoming",
                                              "_tribe_featured",
                                              "_EventVenueID",
                                              "_EventOrganizerID",
                                              "_EventRecurrence",
                                              "_thumbnail_id",
                                              "_wp_trash_meta_status",
                                              "_wp_desired_post_slug",
                                              "_VenueAddress",
                                              "_VenueCity",
                                              "_VenueCountry",
                                              "_VenueProvince",
                                              "_VenueState",
                                              "_VenueZip",
                                              "_VenuePhone",
                                              "_VenueURL",
                                              "_VenueStateProvince",
                                              "_VenueShowMap",
                                              "_VenueShowMapLink",
                                              "_VenueLat",
                                              "_VenueLng",
                                              "_OrganizerPhone",
                                              "_OrganizerWebsite",
                                              "_OrganizerEmail",
                                              "_tribe_events_status"};

std::optional<std::string> first_meta(const WpMeta& meta, const std::string& key) {
  for (const auto& [k, v] : meta)
    if (k == key) return v;
  return std::nullopt;
}

std::vector<std::string> all_meta(const WpMeta& meta, const std::string& key) {
  std::vector<std::string> out;
  for (const auto& [k, v] : meta)
    if (k == key) out.push_back(v);
  return out;
}

PostRow wp_post_row(const WpPost& post, const WpMeta& meta, PostType type, const WpSiteRules& site,
                    const char* kind, ImportReport& report) {
  PostRow row;
  row.type = type;
  row.author = post.author;
  row.title = post.title;
  row.content = post.content;
  row.excerpt = post.excerpt;
  row.password = post.password;
  row.status = post.status;
  std::string slug = post.name;
  if (post.status == "trash") {
    // wp_trash_post() keeps the status to restore and the slug before "__trashed".
    const auto before = first_meta(meta, "_wp_trash_meta_status");
    row.status_before_trash = before && is_our_status(*before) ? *before : "draft";
    const auto desired = first_meta(meta, "_wp_desired_post_slug");
    slug = desired && !desired->empty() ? *desired : untrashed_slug(post.name);
  }
  if (slug.empty()) {
    // Drafts and pending posts may have no slug yet: made from the title as our writes would.
    slug = slugify(post.title);
    if (slug.empty()) slug = std::string(kind) + "-" + std::to_string(post.id);
    report.change(kind, post.id, 0, "slug", "WordPress had none; made from the title: " + slug);
  }
  row.slug = slug;
  const auto date = parse_sql_date_time(post.date);
  const auto modified = parse_sql_date_time(post.modified);
  const LocalDateTime fallback{};
  row.date_local = format_date_time(date.value_or(fallback));
  row.modified_local = format_date_time(modified.value_or(date.value_or(fallback)));
  // A draft's GMT date is 0000-00-00 until it is published (date_floating): WordPress's REST
  // computes it from the local date and the site zone, and so do we.
  const auto date_gmt = parse_sql_date_time(post.date_gmt);
  row.date_utc = date_gmt ? format_date_time(*date_gmt) : utc_of(date.value_or(fallback), site.zone);
  const auto modified_gmt = parse_sql_date_time(post.modified_gmt);
  row.modified_utc = modified_gmt ? format_date_time(*modified_gmt)
                                  : utc_of(modified.value_or(date.value_or(fallback)), site.zone);
  return row;
}

std::optional<EventDetails> wp_event_details(const WpPost& post, const WpMeta& meta, const WpSiteRules& site,
                                             ImportReport& report) {
  EventDetails d;
  const auto start = parse_sql_date_time(first_meta(meta, "_EventStartDate").value_or(""));
  const auto end = parse_sql_date_time(first_meta(meta, "_EventEndDate").value_or(""));
  if (!start || !end) {
    report.change("event", post.id, 0, "", "skipped: no valid _EventStartDate/_EventEndDate");
    return std::nullopt;
  }
  TimeZone zone = site.zone;
  const std::string stored_zone = first_meta(meta, "_EventTimezone").value_or("");
  if (const auto ours = our_timezone(stored_zone)) {
    zone = *TimeZone::find(*ours);
    if (*ours != stored_zone)
      report.change("event", post.id, 0, "timezone", stored_zone + " is written " + *ours);
  } else {
    report.change("event", post.id, 0, "timezone",
                  (stored_zone.empty() ? std::string("none stored") : "unknown zone " + stored_zone) +
                      ": the site's, " + site.zone_name);
  }
  d.timezone = zone.name();
  d.start_local = format_date_time(*start);
  d.end_local = format_date_time(*end);
  // Both UTC dates kept as stored when there (TEC's REST shows them as they are); computed from
  // the local ones and the zone when missing (events not saved since before TEC 4.0).
  const std::string start_from_zone = utc_of(*start, zone);
  const std::string end_from_zone = utc_of(*end, zone);
  const auto start_utc = parse_sql_date_time(first_meta(meta, "_EventStartDateUTC").value_or(""));
  const auto end_utc = parse_sql_date_time(first_meta(meta, "_EventEndDateUTC").value_or(""));
  d.start_utc = start_utc ? format_date_time(*start_utc) : start_from_zone;
  d.end_utc = end_utc ? format_date_time(*end_utc) : end_from_zone;
  if (!start_utc || !end_utc)
    report.change("event", post.id, 0, "utc_start_date", "no UTC dates stored: computed from the time zone");
  else if (d.start_utc != start_from_zone || d.end_utc != end_from_zone)
    report.change("event", post.id, 0, "utc_start_date",
                  "stored UTC dates disagree with the local dates in " + d.timezone +
                      " (kept as stored; from the zone: " + start_from_zone + ")");
  if (d.end_utc < d.start_utc) {
    report.change("event", post.id, 0, "", "skipped: ends before it starts");
    return std::nullopt;
  }
  d.all_day = tribe_is_truthy(first_meta(meta, "_EventAllDay").value_or(""));
  const std::string position = first_meta(meta, "_EventCurrencyPosition").value_or("");
  const bool after = position.empty() ? site.currency_after : position == "suffix" || position == "postfix";
  const std::string symbol = first_meta(meta, "_EventCurrencySymbol").value_or("");
  const auto costs = all_meta(meta, "_EventCost");
  d.cost = tec_cost_text(costs, symbol.empty() ? site.currency_symbol : symbol, after);
  if (costs.size() > 1)
    report.change("event", post.id, 0, "cost", std::to_string(costs.size()) + " _EventCost rows: " + d.cost);
  d.website = first_meta(meta, "_EventURL").value_or("");
  // Absent flags read true; present ones by PHP's (bool) cast (TEC's REST).
  d.show_map = php_bool(first_meta(meta, "_EventShowMap").value_or("1"));
  d.show_map_link = php_bool(first_meta(meta, "_EventShowMapLink").value_or("1"));
  d.hide_from_listings = first_meta(meta, "_EventHideFromUpcoming").value_or("") == "yes";
  d.sticky = post.menu_order == -1;
  const auto featured = parse_integer(first_meta(meta, "_tribe_featured").value_or(""));
  d.featured = featured && *featured == 1;
  if (const auto status = first_meta(meta, "_tribe_events_status"); status && !status->empty())
    report.change("event", post.id, 0, "status", "event status '" + *status + "' has no field here: dropped");
  return d;
}

VenueDetails wp_venue_details(const WpMeta& meta) {
  VenueDetails d;
  d.address = first_meta(meta, "_VenueAddress").value_or("");
  d.city = first_meta(meta, "_VenueCity").value_or("");
  d.country = first_meta(meta, "_VenueCountry").value_or("");
  d.province = first_meta(meta, "_VenueProvince").value_or("");
  d.state = first_meta(meta, "_VenueState").value_or("");
  d.zip = first_meta(meta, "_VenueZip").value_or("");
  d.phone = first_meta(meta, "_VenuePhone").value_or("");
  d.website = first_meta(meta, "_VenueURL").value_or("");
  d.stateprovince = first_meta(meta, "_VenueStateProvince").value_or("");
  // Venue flags: tribe_is_truthy(), absent → true (a different rule from the event's).
  const auto show_map = first_meta(meta, "_VenueShowMap");
  const auto show_map_link = first_meta(meta, "_VenueShowMapLink");
  d.show_map = !show_map || tribe_is_truthy(*show_map);
  d.show_map_link = !show_map_link || tribe_is_truthy(*show_map_link);
  const auto lat = coordinate(first_meta(meta, "_VenueLat"), 90);
  const auto lng = coordinate(first_meta(meta, "_VenueLng"), 180);
  if (lat && lng) {
    d.geo_lat = lat;
    d.geo_lng = lng;
  }
  return d;
}

OrganizerDetails wp_organizer_details(const WpMeta& meta) {
  OrganizerDetails d;
  d.phone = first_meta(meta, "_OrganizerPhone").value_or("");
  d.website = first_meta(meta, "_OrganizerWebsite").value_or("");
  d.email = first_meta(meta, "_OrganizerEmail").value_or("");
  return d;
}

long long wp_event_venue(const WpMeta& meta) { return meta_id(first_meta(meta, "_EventVenueID")); }

std::vector<long long> wp_event_organizers(const WpMeta& meta) {
  std::vector<long long> out;
  for (const auto& value : all_meta(meta, "_EventOrganizerID")) {
    const long long id = meta_id(value);
    if (id == 0) continue;
    bool seen = false;
    for (long long o : out) seen = seen || o == id;
    if (!seen) out.push_back(id);
  }
  return out;
}

long long wp_thumbnail(const WpMeta& meta) { return meta_id(first_meta(meta, "_thumbnail_id")); }

bool wp_has_recurrence_rules(const WpMeta& meta) {
  const auto stored = first_meta(meta, "_EventRecurrence");
  if (!stored || stored->empty()) return false;
  const auto value = parse_php_serialized(*stored);
  if (!value) return false;
  const PhpValue* rules = value->find("rules");
  return rules && rules->truthy();
}

std::string wp_attachment_url(const std::string& uploads_base, const std::string& attached_file) {
  if (attached_file.rfind("http://", 0) == 0 || attached_file.rfind("https://", 0) == 0) return attached_file;
  std::string base = uploads_base;
  while (!base.empty() && base.back() == '/') base.pop_back();
  std::string file = attached_file;
  while (!file.empty() && file.front() == '/') file.erase(file.begin());
  return base + "/" + file;
}

}  // namespace cal
