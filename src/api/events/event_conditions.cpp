// SQL building blocks of the event list (see cal/api/event_conditions.h).
#include "cal/api/events/event_conditions.h"

#include <cmath>

namespace cal {
namespace {

constexpr double kPi = 3.14159265358979323846;
// Kilometres per degree of latitude, rounded down so the box is never too small.
constexpr double kKmPerDegree = 110.5;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string utc_text(Seconds instant) { return format_date_time(to_utc_date_time(instant)); }

void add_bound(SqlCondition& c, const std::optional<Seconds>& bound, const char* sql) {
  if (!bound) return;
  c.sql += sql;
  c.args.emplace_back(utc_text(*bound));
}

}  // namespace

SearchWords parse_search_words(std::string_view text) {
  SearchWords words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_space(text[i])) ++i;
    size_t end = i;
    while (end < text.size() && !is_space(text[end])) ++end;
    if (end > i) {
      const std::string_view word = text.substr(i, end - i);
      if (word[0] == '-') {
        if (word.size() > 1) words.excluded.emplace_back(word.substr(1));
      } else {
        words.required.emplace_back(word);
      }
    }
    i = end;
  }
  return words;
}

std::string like_contains(std::string_view word) {
  std::string out = "%";
  for (char c : word) {
    if (c == '\\' || c == '%' || c == '_') out += '\\';
    out += c;
  }
  out += '%';
  return out;
}

SqlCondition search_condition(const SearchWords& words) {
  SqlCondition c;
  auto add = [&](const std::string& word, bool exclude) {
    c.sql += exclude ? " AND NOT " : " AND ";
    c.sql += "(p.title LIKE ? OR p.content LIKE ? OR p.excerpt LIKE ?)";
    const std::string pattern = like_contains(word);
    for (int i = 0; i < 3; ++i) c.args.emplace_back(pattern);
  };
  for (const auto& w : words.required) add(w, false);
  for (const auto& w : words.excluded) add(w, true);
  return c;
}

SqlCondition date_window_condition(const EventDateWindow& w) {
  SqlCondition c;
  add_bound(c, w.start_min, " AND d.start_utc >= ?");
  add_bound(c, w.start_after, " AND d.start_utc > ?");
  add_bound(c, w.start_before, " AND d.start_utc < ?");
  add_bound(c, w.end_max, " AND d.end_utc <= ?");
  add_bound(c, w.end_after, " AND d.end_utc > ?");
  add_bound(c, w.end_before, " AND d.end_utc < ?");
  return c;
}

SqlCondition has_geolocation_condition() {
  return {" AND vd.geo_lat IS NOT NULL AND vd.geo_lng IS NOT NULL", {}};
}

SqlCondition geofence_condition(double lat, double lng, double radius_km) {
  SqlCondition c;
  const double dlat = radius_km / kKmPerDegree;
  c.sql += " AND vd.geo_lat BETWEEN ? AND ?";
  c.args.emplace_back(lat - dlat);
  c.args.emplace_back(lat + dlat);
  // Longitude degrees shrink with the cosine of the latitude; use the box's widest latitude.
  const double widest = std::fabs(lat) + dlat;
  if (widest < 89.0) {
    const double dlng = radius_km / (kKmPerDegree * std::cos(widest * kPi / 180.0));
    if (lng - dlng >= -180.0 && lng + dlng <= 180.0) {
      c.sql += " AND vd.geo_lng BETWEEN ? AND ?";
      c.args.emplace_back(lng - dlng);
      c.args.emplace_back(lng + dlng);
    }
  }
  c.sql += " AND ST_Distance_Sphere(POINT(vd.geo_lng, vd.geo_lat), POINT(?, ?)) <= ?";
  c.args.emplace_back(lng);
  c.args.emplace_back(lat);
  c.args.emplace_back(radius_km * 1000.0);
  return c;
}

}  // namespace cal
