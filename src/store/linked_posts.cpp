// SQL venues and organizers share on the posts table (see cal/store/linked_posts.h).
#include "cal/store/linked_posts.h"

namespace cal {

std::vector<PostRow> find_live_posts_named(Db& db, PostType type, std::string_view name) {
  // title_lower (indexed) narrows by the first 191 characters; the binary comparison of the
  // lower-cased titles then decides, so "Café" and "Cafe" stay different records.
  Rows rows =
      db.query(std::string("SELECT ") + kPostColumns +
                   " FROM posts p WHERE p.type = ? AND p.title_lower = LOWER(LEFT(?, 191)) "
                   "AND CAST(LOWER(p.title) AS BINARY) = CAST(LOWER(?) AS BINARY) AND p.status <> 'trash' "
                   "ORDER BY p.id",
               {std::string(post_type_name(type)), std::string(name), std::string(name)});
  std::vector<PostRow> out;
  while (rows.next()) out.push_back(read_post_row(rows));
  return out;
}

}  // namespace cal
