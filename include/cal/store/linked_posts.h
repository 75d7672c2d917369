// Queries venues and organizers share on the posts table: finding the live records of a name,
// which the create dedupe rule of SPEC §5 compares against.
#pragma once

#include "cal/store/posts.h"

#include <string_view>
#include <vector>

namespace cal {

// Posts of `type` that are not trashed and whose title equals `name` ignoring case (otherwise
// exactly: accents and spaces count), lowest id first. One statement.
std::vector<PostRow> find_live_posts_named(Db& db, PostType type, std::string_view name);

}  // namespace cal
