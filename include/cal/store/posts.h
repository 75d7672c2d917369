// Rows of the `posts` table shared by events, venues, organizers and image attachments: lookup by
// id or slug, batch loads, inserts with unique slugs (the unique key decides, never a pre-check),
// updates and deletes. Type-specific detail tables live in their own store files.
#pragma once

#include "cal/store/db.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cal {

// What a row of `posts` is (its `type` column, WordPress's post type). The store's word for a kind of
// record is the column it is stored by: PostType for posts, Taxonomy for terms (cal/store/terms.h).
// The API layer describes the REST resources built on them as PostKind and TermKind.
enum class PostType { kEvent, kVenue, kOrganizer, kAttachment };

// "event", "venue", "organizer", "attachment": the `posts.type` value.
const char* post_type_name(PostType type);

struct PostRow {
  long long id = 0;
  PostType type = PostType::kEvent;
  std::string status = "draft";  // effective: a `future` post whose date has passed reads `publish`
  long long author = 0;
  std::string title;
  std::string content;
  std::string excerpt;
  std::string slug;
  std::string password;
  long long parent = 0;
  long long image_id = 0;  // 0 = no image
  std::string date_local;  // "YYYY-MM-DD HH:MM:SS"
  std::string date_utc;
  std::string modified_local;
  std::string modified_utc;
  std::string status_before_trash;  // set while trashed
};

// The select list matching read_post_row(), for queries on `posts p`.
extern const char* const kPostColumns;
// Number of columns in kPostColumns.
inline constexpr int kPostColumnCount = 17;
// Reads the kPostColumns part of a row starting at column `first`.
PostRow read_post_row(const Rows& rows, int first = 0);

std::optional<PostRow> find_post(Db& db, PostType type, long long id);
std::optional<PostRow> find_post_by_slug(Db& db, PostType type, std::string_view slug);
// Posts of the given ids (any order; missing ids are skipped). One statement.
std::vector<PostRow> find_posts(Db& db, PostType type, const std::vector<long long>& ids);

// Inserts the row; row.slug is the wanted slug and becomes the unique one actually stored
// (wanted, wanted-2, wanted-3, ...). Sets row.id. Call inside a transaction.
void insert_post(Db& db, PostRow& row);
// Writes every column of the row by id. When `slug_changed`, row.slug is made unique as above.
void update_post(Db& db, PostRow& row, bool slug_changed);
// Locks the row for the rest of the current transaction (SELECT ... FOR UPDATE), so that a
// read-modify-write of a record never interleaves with another one. Call first in the
// transaction: later reads then see the latest committed version.
void lock_post(Db& db, long long id);
// Deletes the row (detail and link rows go with it through foreign keys).
void delete_post(Db& db, long long id);

// An image attachment as shown in records (docs/api.md §3.4).
struct Image {
  long long id = 0;
  std::string url;
};

// An image from the two columns at `first`: attachment id and URL (noted as read, like a post).
Image read_image(const Rows& rows, int first);

// The attachment for this URL, created when new (reused when the same URL is given again).
long long find_or_create_image(Db& db, std::string_view url, long long author, const std::string& now_utc);
// Whether an attachment with this id exists.
std::optional<Image> find_image(Db& db, long long id);
// Images of the given attachment ids, one statement.
std::vector<Image> find_images(Db& db, const std::vector<long long>& ids);

}  // namespace cal
