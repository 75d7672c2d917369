// The list query of GET /events from its parameters (see cal/api/event_filter.h).
#include "cal/api/events/event_filter.h"

#include "cal/api/events/event_conditions.h"
#include "cal/api/events/event_errors.h"
#include "cal/api/posts/post_common.h"
#include "cal/api/terms/term_records.h"
#include "cal/core/dates/clock_use.h"

#include <algorithm>
#include <set>

namespace cal {
namespace {

void append(EventQuery& q, const SqlCondition& c) {
  q.where += c.sql;
  q.args.insert(q.args.end(), c.args.begin(), c.args.end());
}

// " AND <sql> (?, ?, ...)" with the ids bound.
void append_in(EventQuery& q, const std::string& sql_before_list, const std::vector<long long>& ids,
               const std::string& sql_after_list = ")") {
  q.where += " AND " + sql_before_list + "(" + placeholders(ids.size()) + sql_after_list;
  q.args.insert(q.args.end(), ids.begin(), ids.end());
}

std::vector<long long> unique_ids(const std::vector<long long>& ids) {
  std::set<long long> s(ids.begin(), ids.end());
  return {s.begin(), s.end()};
}

std::optional<std::string> text_if_given(const RequestContext& ctx, std::string_view name) {
  if (!ctx.params.given(name)) return std::nullopt;
  return ctx.params.text(name);
}

void add_dates(RequestContext& ctx, EventQuery& q, bool include) {
  EventDateFilters f;
  f.start_date = text_if_given(ctx, "start_date");
  f.end_date = text_if_given(ctx, "end_date");
  f.starts_before = text_if_given(ctx, "starts_before");
  f.starts_after = text_if_given(ctx, "starts_after");
  f.ends_before = text_if_given(ctx, "ends_before");
  f.ends_after = text_if_given(ctx, "ends_after");
  f.strict = ctx.params.boolean("strict_dates");
  f.include = include;
  // The window follows the clock only as far as event_window_valid_until says: that is how long
  // the response cache may keep the list (issue 8), rather than the one second now_seconds() gives.
  const Seconds now = unmarked_now();
  const TimeZone zone = site_zone(ctx);
  const EventWindowResult r = compute_event_window(f, zone, now);
  if (const auto until = event_window_valid_until(f, zone, now)) note_valid_until(*until);
  if (!r.invalid_param.empty())
    throw invalid_event_param(ctx, r.invalid_param, format_message(ctx.locale, "%s is not a valid date.", {r.invalid_param}));
  append(q, date_window_condition(r.window));
}

void add_terms(RequestContext& ctx, EventQuery& q, Taxonomy taxonomy, std::string_view param) {
  if (!ctx.params.given(param)) return;
  const auto& items = ctx.params.texts(param);
  if (items.empty()) return;
  const std::vector<long long> ids = unique_ids(resolve_terms_filter(ctx, taxonomy, items));
  if (ids.empty()) {
    q.where += " AND 1 = 0";
    return;
  }
  append_in(q, "EXISTS (SELECT 1 FROM term_relationships tr WHERE tr.event_id = p.id AND tr.term_id IN ", ids, "))");
}

void add_geolocation(RequestContext& ctx, EventQuery& q) {
  const bool wants_geo = ctx.params.given("geoloc") && ctx.params.boolean("geoloc");
  const bool has_lat = ctx.params.given("geoloc_lat");
  const bool has_lng = ctx.params.given("geoloc_lng");
  if (!ctx.config.geoloc.enabled) {
    for (const char* name : {"geoloc", "geoloc_lat", "geoloc_lng"}) {
      const bool filtering = std::string_view(name) == "geoloc" ? wants_geo : ctx.params.given(name);
      if (filtering)
        throw invalid_event_param(ctx, name, translate(ctx.locale, "The geolocation extension is not enabled."));
    }
    return;
  }
  if (has_lat != has_lng) {
    const std::string missing = has_lat ? "geoloc_lng" : "geoloc_lat";
    throw invalid_event_param(ctx, missing, translate(ctx.locale, "geoloc_lat and geoloc_lng must be given together."));
  }
  if (!wants_geo && !has_lat) return;
  q.joins += kVenueGeoJoin;
  if (wants_geo) append(q, has_geolocation_condition());
  if (has_lat) {
    append(q, geofence_condition(ctx.params.find("geoloc_lat")->number, ctx.params.find("geoloc_lng")->number,
                                 ctx.config.geoloc.geofence_km));
  }
}

}  // namespace

EventQuery build_event_query(RequestContext& ctx) {
  EventQuery q;
  append_visibility(ctx, q.where, q.args, "p");
  // include: only these ids, hidden ones too, and no date filter at all.
  const bool include = ctx.params.given("include") && !ctx.params.integers("include").empty();
  if (include) append_in(q, "p.id IN ", unique_ids(ctx.params.integers("include")));
  else q.where += " AND d.hide_from_listings = 0";
  add_dates(ctx, q, include);
  if (ctx.params.given("search")) append(q, search_condition(parse_search_words(ctx.params.text("search"))));
  add_terms(ctx, q, Taxonomy::kCategory, "categories");
  add_terms(ctx, q, Taxonomy::kTag, "tags");
  if (ctx.params.given("venue")) {
    const auto ids = unique_ids(ctx.params.integers("venue"));  // each exists: check_venue_ids
    if (!ids.empty()) append_in(q, "ev.venue_id IN ", ids);
  }
  if (ctx.params.given("organizer")) {
    const auto ids = unique_ids(ctx.params.integers("organizer"));  // each exists: check_organizer_ids
    if (!ids.empty())
      append_in(q, "EXISTS (SELECT 1 FROM event_organizers eo WHERE eo.event_id = p.id AND eo.organizer_id IN ", ids, "))");
  }
  if (ctx.params.given("featured")) {
    q.where += " AND d.featured = ?";
    q.args.emplace_back(ctx.params.boolean("featured"));
  }
  if (ctx.params.given("post_parent")) {
    const long long parent = ctx.params.integer("post_parent");  // an existing event: check_event_id
    q.where += " AND p.parent = ?";
    q.args.emplace_back(parent);
  }
  // The service sells no tickets: ticketed events are none.
  if (ctx.params.given("ticketed") && ctx.params.boolean("ticketed")) q.where += " AND 1 = 0";
  add_geolocation(ctx, q);
  return q;
}

}  // namespace cal
