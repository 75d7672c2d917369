// Event-specific fields and links of create and update (see cal/api/events/event_fields.h).
#include "cal/api/events/event_fields.h"

#include "cal/api/events/event_times.h"
#include "cal/api/linked/linked_records.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/posts/site_time.h"
#include "cal/api/terms/term_records.h"
#include "cal/core/text/cost.h"
#include "cal/store/terms.h"

#include <cmath>
#include <cstdio>

namespace cal {
namespace {

// The event zone: the `timezone` parameter, else the stored one (update), else the site zone.
TimeZone event_zone(RequestContext& ctx, const Event& event, bool create) {
  // The validator checked the id (check_time_zone).
  if (ctx.params.given(param::kTimezone))
    return TimeZone::find(ctx.params.text(param::kTimezone)).value_or(site_zone(ctx));
  if (!create)
    if (const auto zone = TimeZone::find(event.details.timezone)) return *zone;
  return site_zone(ctx);
}

void apply_times(RequestContext& ctx, Event& event, bool create, const TimeZone& zone) {
  EventDetails& d = event.details;
  EventTimesInput in;
  if (ctx.params.given(param::kStartDate)) in.start_text = ctx.params.text(param::kStartDate);
  if (ctx.params.given(param::kEndDate)) in.end_text = ctx.params.text(param::kEndDate);
  if (!create) {
    in.current_start = parse_sql_date_time(d.start_local);
    in.current_end = parse_sql_date_time(d.end_local);
  }
  if (ctx.params.has(param::kAllDay)) d.all_day = ctx.params.boolean(param::kAllDay);
  in.all_day = d.all_day;
  const EventTimesResult r = resolve_event_times(in, zone, now_seconds());
  switch (r.error) {
    case EventTimesError::kNone:
      break;
    case EventTimesError::kMissingStart:
    case EventTimesError::kBadStart:
      throw invalid_param(ctx, "start_date", translate(ctx.locale, "start_date is not a valid date."));
    case EventTimesError::kMissingEnd:
    case EventTimesError::kBadEnd:
      throw invalid_param(ctx, "end_date", translate(ctx.locale, "end_date is not a valid date."));
    case EventTimesError::kEndBeforeStart:
      throw invalid_param(ctx, "end_date", translate(ctx.locale, "end_date must not be before start_date."));
  }
  d.timezone = zone.name();
  d.start_local = format_date_time(r.times.start_local);
  d.end_local = format_date_time(r.times.end_local);
  d.start_utc = format_date_time(to_utc_date_time(r.times.start));
  d.end_utc = format_date_time(to_utc_date_time(r.times.end));
}

// `website` (checked by check_event_website): "" or null for none, else the URL.
std::string website_input(RequestContext& ctx) {
  const rapidjson::Value& raw = *ctx.params.find(param::kWebsite)->raw;
  return raw.IsString() ? std::string(raw.GetString(), raw.GetStringLength()) : std::string();
}

void apply_flag(RequestContext& ctx, ParamName name, bool& field) {
  if (ctx.params.given(name)) field = ctx.params.boolean(name);
}

std::string number_text(const rapidjson::Value& v) {
  if (v.IsInt64()) return std::to_string(v.GetInt64());
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", v.GetDouble());
  return buf;
}

bool is_cost_number(const rapidjson::Value& v) { return v.IsNumber() && std::isfinite(v.GetDouble()); }

}  // namespace

std::optional<std::string> cost_input_text(const rapidjson::Value& raw) {
  if (raw.IsNull()) return std::string();
  if (raw.IsString()) return std::string(raw.GetString(), raw.GetStringLength());
  if (is_cost_number(raw)) return number_text(raw);
  if (!raw.IsArray()) return std::nullopt;
  std::vector<std::string> values;
  for (const auto& v : raw.GetArray()) {
    if (v.IsString())
      values.emplace_back(v.GetString(), v.GetStringLength());
    else if (is_cost_number(v))
      values.push_back(number_text(v));
    else
      return std::nullopt;
  }
  return join_cost_values(values);
}

void apply_event_fields(RequestContext& ctx, Event& event, bool create) {
  EventDetails& d = event.details;
  const bool reschedule = create || ctx.params.given(param::kStartDate) ||
                          ctx.params.given(param::kEndDate) || ctx.params.given(param::kTimezone) ||
                          ctx.params.given(param::kAllDay);
  if (reschedule) apply_times(ctx, event, create, event_zone(ctx, event, create));
  if (ctx.params.given(param::kCost))
    d.cost = cost_input_text(*ctx.params.find(param::kCost)->raw).value_or("");  // check_cost
  if (ctx.params.given(param::kWebsite)) d.website = website_input(ctx);
  apply_flag(ctx, param::kShowMap, d.show_map);
  apply_flag(ctx, param::kShowMapLink, d.show_map_link);
  apply_flag(ctx, param::kHideFromListings, d.hide_from_listings);
  apply_flag(ctx, param::kSticky, d.sticky);
  apply_flag(ctx, param::kFeatured, d.featured);
  // The password: on create and on update by id (docs/api.md §3.5); "" removes it.
  if (ctx.params.given(param::kPassword)) event.post.password = ctx.params.text(param::kPassword);
}

AppliedLinks apply_event_links(RequestContext& ctx, long long event_id, bool created) {
  AppliedLinks applied;
  // A created event has no links but those given.
  if (created) applied = {0, {std::vector<long long>{}, std::vector<long long>{}, std::vector<long long>{}}};
  if (ctx.params.given(param::kVenue)) {
    applied.venue_id = resolve_venue_input(ctx, *ctx.params.find(param::kVenue)->raw);
    set_event_venue(ctx.db, event_id, *applied.venue_id);
  }
  if (ctx.params.given(param::kOrganizer)) {
    applied.links.organizer_ids = resolve_organizer_input(ctx, *ctx.params.find(param::kOrganizer)->raw);
    set_event_organizers(ctx.db, event_id, *applied.links.organizer_ids, created);
  }
  if (ctx.params.given(param::kCategories)) {
    applied.links.category_ids = resolve_terms_input(ctx, Taxonomy::kCategory,
                                                     *ctx.params.find(param::kCategories)->raw, "categories");
    set_event_terms(ctx.db, event_id, Taxonomy::kCategory, *applied.links.category_ids, created);
  }
  if (ctx.params.given(param::kTags)) {
    applied.links.tag_ids =
        resolve_terms_input(ctx, Taxonomy::kTag, *ctx.params.find(param::kTags)->raw, "tags");
    set_event_terms(ctx.db, event_id, Taxonomy::kTag, *applied.links.tag_ids, created);
  }
  return applied;
}

}  // namespace cal
