// Internal to src/store/: the detail columns of venues and organizers and how they are read,
// shared by their own loads (venues.cpp, organizers.cpp) and the relations of events
// (event_relations.cpp), so that every statement reads a record the same way.
#pragma once

#include "cal/store/organizers.h"
#include "cal/store/venues.h"

namespace cal {

// venue_details d: d.venue_id (NULL when the venue has no details row), then the details.
extern const char* const kVenueDetailColumns;
inline constexpr int kVenueDetailColumnCount = 14;
// The details at `first` (the defaults when d.venue_id is NULL).
VenueDetails read_venue_details(const Rows& rows, int first);

// organizer_details d: phone, website, email (NULL when there is no details row: empty).
extern const char* const kOrganizerDetailColumns;
inline constexpr int kOrganizerDetailColumnCount = 3;
OrganizerDetails read_organizer_details(const Rows& rows, int first);

// The image a venue or organizer row shows: LEFT JOIN attachment_details a on its image_id.
inline constexpr const char* kImageJoin = " LEFT JOIN attachment_details a ON a.attachment_id = p.image_id";
inline constexpr const char* kImageColumns = "a.attachment_id, a.url";

}  // namespace cal
