// SQL of the posts table and image attachments (see cal/store/posts.h).
#include "cal/store/posts.h"

#include "cal/core/text/digest.h"
#include "cal/core/text/slug.h"
#include "cal/store/read_set.h"

#include <array>

namespace cal {
namespace {

constexpr std::array<const char*, 4> kTypeNames = {"event", "venue", "organizer", "attachment"};

// Runs `write` with slug candidates until the unique key accepts one. Concurrent writers racing
// for the same slug each get their own: the key decides, never a check done beforehand. The
// first probe skips straight past the suffixes already taken, so a busy slug costs one retry.
template <typename Write>
void with_unique_slug(Db& db, PostRow& row, Write write) {
  const std::string wanted = row.slug;
  int n = 1;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    row.slug = slug_with_suffix(wanted, n);
    try {
      write();
      return;
    } catch (const DuplicateKey&) {
      if (attempt == 0) {
        // Count the slugs of this type that start with the wanted one, to jump ahead.
        Rows rows = db.query("SELECT COUNT(*) FROM posts WHERE type = ? AND slug LIKE CONCAT(?, '%')",
                             {std::string(post_type_name(row.type)), wanted});
        const long long taken = rows.next() ? rows.integer(0) : 1;
        n = static_cast<int>(std::max<long long>(2, taken + 1));
      } else {
        ++n;
      }
    }
  }
  throw DuplicateKey{"no free slug for " + wanted};
}

std::vector<SqlValue> row_values(const PostRow& row) {
  return {std::string(post_type_name(row.type)),
          row.status,
          row.status_before_trash.empty() ? SqlValue(nullptr) : SqlValue(row.status_before_trash),
          row.author,
          row.title,
          row.content,
          row.excerpt,
          row.slug,
          row.password,
          row.parent,
          row.image_id ? SqlValue(row.image_id) : SqlValue(nullptr),
          row.date_local,
          row.date_utc,
          row.modified_local,
          row.modified_utc};
}

}  // namespace

const char* post_type_name(PostType type) { return kTypeNames[static_cast<size_t>(type)]; }

const char* const kPostColumns =
    "p.id, p.type, IF(p.status = 'future' AND p.date_utc <= UTC_TIMESTAMP(), 'publish', p.status), "
    "p.author, p.title, p.content, p.excerpt, p.slug, p.password, p.parent, p.image_id, "
    "DATE_FORMAT(p.date_local, '%Y-%m-%d %H:%i:%s'), DATE_FORMAT(p.date_utc, '%Y-%m-%d %H:%i:%s'), "
    "DATE_FORMAT(p.modified_local, '%Y-%m-%d %H:%i:%s'), DATE_FORMAT(p.modified_utc, '%Y-%m-%d %H:%i:%s'), "
    "p.status_before_trash, p.title_lower";

PostRow read_post_row(const Rows& rows, int first) {
  PostRow row;
  row.id = rows.integer(first);
  note_post_read(row.id);
  const std::string type = rows.text(first + 1);
  for (size_t i = 0; i < kTypeNames.size(); ++i)
    if (type == kTypeNames[i]) row.type = static_cast<PostType>(i);
  row.status = rows.text(first + 2);
  row.author = rows.integer(first + 3);
  row.title = rows.text(first + 4);
  row.content = rows.text(first + 5);
  row.excerpt = rows.text(first + 6);
  row.slug = rows.text(first + 7);
  row.password = rows.text(first + 8);
  row.parent = rows.integer(first + 9);
  row.image_id = rows.integer(first + 10);
  row.date_local = rows.text(first + 11);
  row.date_utc = rows.text(first + 12);
  row.modified_local = rows.text(first + 13);
  row.modified_utc = rows.text(first + 14);
  row.status_before_trash = rows.text(first + 15);
  return row;
}

std::optional<PostRow> find_post(Db& db, PostType type, long long id) {
  Rows rows = db.query(std::string("SELECT ") + kPostColumns + " FROM posts p WHERE p.id = ? AND p.type = ?",
                       {id, std::string(post_type_name(type))});
  if (!rows.next()) return std::nullopt;
  return read_post_row(rows);
}

std::optional<PostRow> find_post_by_slug(Db& db, PostType type, std::string_view slug) {
  Rows rows =
      db.query(std::string("SELECT ") + kPostColumns + " FROM posts p WHERE p.type = ? AND p.slug = ?",
               {std::string(post_type_name(type)), std::string(slug)});
  if (!rows.next()) return std::nullopt;
  return read_post_row(rows);
}

std::vector<PostRow> find_posts(Db& db, PostType type, const std::vector<long long>& ids) {
  std::vector<PostRow> out;
  if (ids.empty()) return out;
  std::vector<SqlValue> args{std::string(post_type_name(type))};
  for (long long id : ids) args.emplace_back(id);
  Rows rows = db.query(std::string("SELECT ") + kPostColumns +
                           " FROM posts p WHERE p.type = ? AND p.id IN (" + placeholders(ids.size()) + ")",
                       args);
  while (rows.next()) out.push_back(read_post_row(rows));
  return out;
}

void insert_post(Db& db, PostRow& row) {
  // RETURNING: the new id comes back with the insert, not from a second round trip.
  with_unique_slug(db, row, [&] {
    Rows rows = db.query(
        "INSERT INTO posts (type, status, status_before_trash, author, title, content, excerpt, slug, "
        "password, "
        "parent, image_id, date_local, date_utc, modified_local, modified_utc) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        row_values(row));
    row.id = rows.next() ? rows.integer(0) : 0;
  });
}

void update_post(Db& db, PostRow& row, bool slug_changed) {
  auto write = [&] {
    std::vector<SqlValue> args = row_values(row);
    args.erase(args.begin());  // type never changes
    args.emplace_back(row.id);
    db.execute(
        "UPDATE posts SET status = ?, status_before_trash = ?, author = ?, title = ?, content = ?, excerpt = "
        "?, "
        "slug = ?, password = ?, parent = ?, image_id = ?, date_local = ?, date_utc = ?, modified_local = ?, "
        "modified_utc = ? WHERE id = ?",
        args);
  };
  if (slug_changed)
    with_unique_slug(db, row, write);
  else
    write();
}

void lock_post(Db& db, long long id) {
  Rows rows = db.query("SELECT id FROM posts WHERE id = ? FOR UPDATE", {id});
  while (rows.next()) {
  }
}

void delete_post(Db& db, long long id) { db.execute("DELETE FROM posts WHERE id = ?", {id}); }

long long find_or_create_image(Db& db, std::string_view url, long long author, const std::string& now_utc) {
  const std::string hash = sha256_bytes(url);
  {
    Rows rows = db.query("SELECT attachment_id FROM attachment_details WHERE url_hash = ?", {hash});
    if (rows.next()) return rows.integer(0);
  }
  PostRow row;
  row.type = PostType::kAttachment;
  row.status = "publish";
  row.author = author;
  row.title = std::string(url);
  row.slug = "image-" + std::to_string(std::hash<std::string_view>{}(url));
  row.date_local = row.date_utc = row.modified_local = row.modified_utc = now_utc;
  insert_post(db, row);
  try {
    db.execute("INSERT INTO attachment_details (attachment_id, url, url_hash) VALUES (?, ?, ?)",
               {row.id, std::string(url), hash});
  } catch (const DuplicateKey&) {
    // Another request stored the same URL meanwhile: use theirs, drop ours.
    delete_post(db, row.id);
    Rows rows = db.query("SELECT attachment_id FROM attachment_details WHERE url_hash = ?", {hash});
    if (rows.next()) return rows.integer(0);
    throw;
  }
  return row.id;
}

Image read_image(const Rows& rows, int first) {
  note_post_read(rows.integer(first));
  return Image{rows.integer(first), rows.text(first + 1)};
}

std::optional<Image> find_image(Db& db, long long id) {
  auto images = find_images(db, {id});
  if (images.empty()) return std::nullopt;
  return images.front();
}

std::vector<Image> find_images(Db& db, const std::vector<long long>& ids) {
  std::vector<Image> out;
  if (ids.empty()) return out;
  std::vector<SqlValue> args(ids.begin(), ids.end());
  Rows rows = db.query("SELECT attachment_id, url FROM attachment_details WHERE attachment_id IN (" +
                           placeholders(ids.size()) + ")",
                       args);
  while (rows.next()) out.push_back(read_image(rows, 0));
  return out;
}

}  // namespace cal
