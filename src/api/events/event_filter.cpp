// The EventFilter of GET /events from its validated parameters (see cal/api/events/event_filter.h).
#include "cal/api/events/event_filter.h"

#include "cal/api/events/event_window.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/posts/post_access.h"
#include "cal/api/posts/site_time.h"
#include "cal/api/terms/term_records.h"
#include "cal/core/dates/clock_use.h"
#include "cal/core/text/ascii.h"
#include "cal/store/search_index.h"

#include <set>

namespace cal {
namespace {

std::vector<long long> unique_ids(const std::vector<long long>& ids) {
  std::set<long long> s(ids.begin(), ids.end());
  return {s.begin(), s.end()};
}

std::optional<std::string> text_if_given(const RequestContext& ctx, ParamName name) {
  if (!ctx.params.given(name)) return std::nullopt;
  return ctx.params.text(name);
}

EventDateWindow date_window(RequestContext& ctx, bool include) {
  EventDateFilters f;
  f.start_date = text_if_given(ctx, param::kStartDate);
  f.end_date = text_if_given(ctx, param::kEndDate);
  f.starts_before = text_if_given(ctx, param::kStartsBefore);
  f.starts_after = text_if_given(ctx, param::kStartsAfter);
  f.ends_before = text_if_given(ctx, param::kEndsBefore);
  f.ends_after = text_if_given(ctx, param::kEndsAfter);
  f.strict = ctx.params.boolean(param::kStrictDates);
  f.include = include;
  // The window follows the clock only as far as event_window_valid_until says: that is how long
  // the response cache may keep the list, rather than the one second now_seconds() gives.
  const Seconds now = unmarked_now();
  const TimeZone zone = site_zone(ctx);
  const EventWindowResult r = compute_event_window(f, zone, now);
  if (const auto until = event_window_valid_until(f, zone, now)) note_valid_until(*until);
  if (!r.invalid_param.empty())
    throw invalid_param(ctx, r.invalid_param,
                        format_message(ctx.locale, "%s is not a valid date.", {r.invalid_param}));
  return r.window;
}

// Term ids of a categories/tags filter; `nothing` is set when the filter names no term at all.
std::vector<long long> term_ids(RequestContext& ctx, Taxonomy taxonomy, ParamName param, bool& nothing) {
  if (!ctx.params.given(param)) return {};
  const auto& items = ctx.params.texts(param);
  if (items.empty()) return {};
  const std::vector<long long>& resolved = ctx.params.find(param)->resolved;
  std::vector<long long> ids =
      unique_ids(resolved.empty() ? resolve_terms_filter(ctx, taxonomy, items) : resolved);
  if (ids.empty()) nothing = true;
  return ids;
}

void add_geolocation(RequestContext& ctx, EventFilter& f) {
  const bool wants_geo = ctx.params.given(param::kGeoloc) && ctx.params.boolean(param::kGeoloc);
  const bool has_lat = ctx.params.given(param::kGeolocLat);
  const bool has_lng = ctx.params.given(param::kGeolocLng);
  if (!ctx.config.geoloc.enabled) {
    for (const ParamName name : {param::kGeoloc, param::kGeolocLat, param::kGeolocLng}) {
      const bool filtering = name == param::kGeoloc ? wants_geo : ctx.params.given(name);
      if (filtering)
        throw invalid_param(ctx, std::string(name.text()),
                            translate(ctx.locale, "The geolocation extension is not enabled."));
    }
    return;
  }
  if (has_lat != has_lng) {
    const std::string missing = has_lat ? "geoloc_lng" : "geoloc_lat";
    throw invalid_param(ctx, missing,
                        translate(ctx.locale, "geoloc_lat and geoloc_lng must be given together."));
  }
  f.with_coordinates = wants_geo;
  if (has_lat)
    f.fence = GeoFence{ctx.params.find(param::kGeolocLat)->number, ctx.params.find(param::kGeolocLng)->number,
                       ctx.config.geoloc.geofence_km};
}

}  // namespace

SearchWords parse_search_words(std::string_view text) {
  SearchWords words;
  for (std::string& word : ascii::words(text)) {
    if (word[0] != '-')
      words.required.push_back(std::move(word));
    else if (word.size() > 1)
      words.excluded.push_back(word.substr(1));
  }
  return words;
}

EventFilter build_event_filter(RequestContext& ctx) {
  EventFilter f;
  f.visibility = list_visibility(ctx);
  // include: only these ids, hidden ones too, and no date filter at all.
  if (ctx.params.given(param::kInclude)) f.include = unique_ids(ctx.params.integers(param::kInclude));
  f.window = date_window(ctx, !f.include.empty());
  if (ctx.params.given(param::kSearch)) f.search = parse_search_words(ctx.params.text(param::kSearch));
  bool nothing = false;
  f.categories = term_ids(ctx, Taxonomy::kCategory, param::kCategories, nothing);
  f.tags = term_ids(ctx, Taxonomy::kTag, param::kTags, nothing);
  // Each venue, organizer and the parent exist: their parameters' checks said so.
  if (ctx.params.given(param::kVenue)) f.venues = unique_ids(ctx.params.integers(param::kVenue));
  if (ctx.params.given(param::kOrganizer)) f.organizers = unique_ids(ctx.params.integers(param::kOrganizer));
  if (ctx.params.given(param::kFeatured)) f.featured = ctx.params.boolean(param::kFeatured);
  if (ctx.params.given(param::kPostParent)) f.parent = ctx.params.integer(param::kPostParent);
  f.first_per_series = ctx.params.given(param::kHideSubsequentRecurrences) &&
                       ctx.params.boolean(param::kHideSubsequentRecurrences);
  // The service sells no tickets: ticketed events are none.
  if (ctx.params.given(param::kTicketed) && ctx.params.boolean(param::kTicketed)) nothing = true;
  f.matches_nothing = nothing;
  f.modified = modified_bounds(ctx);
  add_geolocation(ctx, f);
  return f;
}

void plan_filter_search(RequestContext& ctx, EventFilter& f, std::optional<Transaction>& snapshot) {
  if (!ctx.params.given(param::kSearch)) return;
  if (!ctx.config.search.index) {
    f.search_is_expensive = true;
    return;
  }
  // Without a required word (only excluded ones) the index is not read: no plan to keep in step.
  if (!f.search.required.empty()) snapshot.emplace(ctx.db, Transaction::ReadSnapshot{});
  const EventSearchPlan plan = plan_event_search(ctx.db, f.search);
  f.search_narrowing = plan.narrowing;
  f.search_is_expensive = plan.expensive;
  f.search_indexed = plan.indexed;
}

}  // namespace cal
