// Organizer details (table organizer_details) beside their posts rows.
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

// Organizers of the given ids (any order, missing ones skipped), in one statement.
std::vector<Organizer> find_organizers(Db& db, const std::vector<long long>& ids);

}  // namespace cal
