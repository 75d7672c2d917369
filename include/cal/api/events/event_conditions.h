// Pure SQL building blocks of the event list (SPEC §4.1, §4.3): search words, the date window,
// and the geolocation filters, each as a WHERE fragment with its bound values. Values never go
// into the SQL text; the text depends only on the shape of the input (number of words...).
// Aliases: `p` posts, `d` event_details, `vd` venue_details (joined by the geolocation filters).
#pragma once

#include "cal/api/events/event_window.h"
#include "cal/store/db.h"

#include <string>
#include <string_view>
#include <vector>

namespace cal {

// A WHERE fragment starting with " AND " (or "" for no condition) and its values.
struct SqlCondition {
  std::string sql;
  std::vector<SqlValue> args;
};

// The words of a `search` value: split on white space; "-word" excludes, a lone "-" is ignored.
struct SearchWords {
  std::vector<std::string> required;
  std::vector<std::string> excluded;
};
SearchWords parse_search_words(std::string_view text);

// A LIKE pattern matching `word` anywhere: "%" + word with \, % and _ escaped + "%".
std::string like_contains(std::string_view word);

// Every required word in title, description or excerpt; no excluded word in any of them.
SqlCondition search_condition(const SearchWords& words);

// The window's bounds on d.start_utc / d.end_utc, values as UTC "YYYY-MM-DD HH:MM:SS".
SqlCondition date_window_condition(const EventDateWindow& window);

// The join the geolocation conditions need (events without a venue drop out).
inline constexpr std::string_view kVenueGeoJoin = " JOIN venue_details vd ON vd.venue_id = ev.venue_id";

// geoloc=true: the venue has both coordinates.
SqlCondition has_geolocation_condition();

// The venue lies within `radius_km` of (lat, lng): a bounding box on the venue_details_geo index
// (latitude always; longitude unless the box reaches a pole or the antimeridian), then the exact
// great-circle distance in SQL (ST_Distance_Sphere).
SqlCondition geofence_condition(double lat, double lng, double radius_km);

}  // namespace cal
