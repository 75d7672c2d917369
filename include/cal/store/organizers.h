// Organizer details (table organizer_details) beside their posts rows, and the links events
// hold to organizers (table event_organizers) as far as organizers need them.
#pragma once

#include "cal/store/posts.h"

#include <string>
#include <vector>

namespace cal {

struct OrganizerDetails {
  std::string phone, website, email;
};

struct Organizer {
  PostRow post;
  OrganizerDetails details;
};

// Organizers of the given ids (any order, missing ones skipped), in one statement. An organizer
// without a details row gets empty details. With `images`, the images the organizers show are
// appended to it, read by the same statement.
std::vector<Organizer> find_organizers(Db& db, const std::vector<long long>& ids,
                                       std::vector<Image>* images = nullptr);

// Stores the details of organizer `organizer_id`, inserting or replacing its row.
void save_organizer_details(Db& db, long long organizer_id, const OrganizerDetails& details);

// Removes every event's link to organizer `organizer_id` (trash and delete unlink, docs/api.md §5).
void unlink_organizer_from_events(Db& db, long long organizer_id);

}  // namespace cal
