// Queries venues and organizers share on the posts table: their filtered list, and the live
// records of a name, which the create dedupe rule of docs/api.md §5 compares against.
#pragma once

#include "cal/store/linked_filter.h"
#include "cal/store/posts.h"

#include <string_view>
#include <vector>

namespace cal {

// Posts of `type` that are not trashed and whose title equals `name` ignoring case (otherwise
// exactly: accents and spaces count), lowest id first. One statement.
std::vector<PostRow> find_live_posts_named(Db& db, PostType type, std::string_view name);

// One page of a venue or organizer list: the ids in name order, then id, and the total.
struct LinkedPage {
  std::vector<long long> ids;
  long long total = 0;
};

// The page of `limit` records of `kind` (kVenue or kOrganizer) from `offset` that `filter` keeps.
// Two statements.
LinkedPage find_linked_page(Db& db, PostType kind, const LinkedFilter& filter, long long limit,
                            long long offset);

}  // namespace cal
