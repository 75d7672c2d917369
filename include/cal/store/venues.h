// Venue details (table venue_details) beside their posts rows, and the links events hold to
// venues (table event_venues) as far as venues need them.
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
// A venue without a details row gets the defaults. With `images`, the images the venues show are
// appended to it, read by the same statement.
std::vector<Venue> find_venues(Db& db, const std::vector<long long>& ids,
                               std::vector<Image>* images = nullptr);

// Stores the details of venue `venue_id`, inserting or replacing its row (inside a transaction).
void save_venue_details(Db& db, long long venue_id, const VenueDetails& details);

// Removes every event's link to venue `venue_id` (trash and delete unlink, docs/api.md §5).
void unlink_venue_from_events(Db& db, long long venue_id);

}  // namespace cal
