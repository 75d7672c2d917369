// Venue details (table venue_details) beside their posts rows.
#pragma once

#include "cal/store/posts.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

struct VenueDetails {
  std::string address, city, country, province, state, zip, phone, website, stateprovince;
  bool show_map = true;
  bool show_map_link = true;
  std::optional<double> geo_lat;
  std::optional<double> geo_lng;
};

struct Venue {
  PostRow post;
  VenueDetails details;
};

// Venues of the given ids (any order, missing ones skipped), posts and details in one statement.
std::vector<Venue> find_venues(Db& db, const std::vector<long long>& ids);

}  // namespace cal
