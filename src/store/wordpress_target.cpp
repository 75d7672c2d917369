// SQL of the importer's own writes (see cal/store/wordpress_target.h).
#include "cal/store/wordpress_target.h"

#include "cal/core/text/digest.h"

namespace cal {
namespace {

constexpr const char* kSpaceNames[] = {"post", "term", "user"};

}  // namespace

std::map<std::pair<WpIdSpace, long long>, ImportedRecord> load_wordpress_imports(Db& db,
                                                                                 const std::string& source) {
  std::map<std::pair<WpIdSpace, long long>, ImportedRecord> out;
  Rows rows = db.query(
      "SELECT kind, source_id, target_id, fingerprint FROM wordpress_imports WHERE source = ?", {source});
  while (rows.next()) {
    const std::string kind = rows.text(0);
    WpIdSpace space = WpIdSpace::kPost;
    if (kind == "term") space = WpIdSpace::kTerm;
    if (kind == "user") space = WpIdSpace::kUser;
    out[{space, rows.integer(1)}] = ImportedRecord{rows.integer(2), rows.text(3)};
  }
  return out;
}

void save_wordpress_import(Db& db, const std::string& source, WpIdSpace space, long long source_id,
                           const ImportedRecord& record) {
  db.execute(
      "INSERT INTO wordpress_imports (source, kind, source_id, target_id, fingerprint) VALUES (?, ?, ?, ?, "
      "?) "
      "ON DUPLICATE KEY UPDATE target_id = VALUES(target_id), fingerprint = VALUES(fingerprint)",
      {source, std::string(kSpaceNames[static_cast<int>(space)]), source_id, record.target_id,
       record.fingerprint});
}

std::unordered_set<long long> taken_post_ids(Db& db) {
  std::unordered_set<long long> out;
  Rows rows = db.query("SELECT id FROM posts");
  while (rows.next()) out.insert(rows.integer(0));
  return out;
}

std::unordered_set<std::string> taken_post_slugs(Db& db, PostType type) {
  std::unordered_set<std::string> out;
  Rows rows = db.query("SELECT slug FROM posts WHERE type = ?", {std::string(post_type_name(type))});
  while (rows.next()) out.insert(rows.text(0));
  return out;
}

std::unordered_set<long long> taken_term_ids(Db& db) {
  std::unordered_set<long long> out;
  Rows rows = db.query("SELECT id FROM terms");
  while (rows.next()) out.insert(rows.integer(0));
  return out;
}

std::unordered_set<std::string> taken_term_slugs(Db& db, Taxonomy taxonomy) {
  std::unordered_set<std::string> out;
  Rows rows = db.query("SELECT slug FROM terms WHERE taxonomy = ?", {std::string(taxonomy_name(taxonomy))});
  while (rows.next()) out.insert(rows.text(0));
  return out;
}

bool post_exists(Db& db, PostType type, long long id) {
  Rows rows =
      db.query("SELECT 1 FROM posts WHERE id = ? AND type = ?", {id, std::string(post_type_name(type))});
  return rows.next();
}

bool term_exists(Db& db, Taxonomy taxonomy, long long id) {
  Rows rows = db.query("SELECT 1 FROM terms WHERE id = ? AND taxonomy = ?",
                       {id, std::string(taxonomy_name(taxonomy))});
  return rows.next();
}

void insert_post_with_id(Db& db, const PostRow& row) {
  db.execute(
      "INSERT INTO posts (id, type, status, status_before_trash, author, title, content, excerpt, slug, "
      "password, "
      "parent, image_id, date_local, date_utc, modified_local, modified_utc) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      {row.id, std::string(post_type_name(row.type)), row.status,
       row.status_before_trash.empty() ? SqlValue(nullptr) : SqlValue(row.status_before_trash), row.author,
       row.title, row.content, row.excerpt, row.slug, row.password, row.parent,
       row.image_id ? SqlValue(row.image_id) : SqlValue(nullptr), row.date_local, row.date_utc,
       row.modified_local, row.modified_utc});
}

std::optional<long long> find_image_by_url(Db& db, const std::string& url) {
  Rows rows =
      db.query("SELECT attachment_id FROM attachment_details WHERE url_hash = ?", {sha256_bytes(url)});
  if (!rows.next()) return std::nullopt;
  return rows.integer(0);
}

void save_image_url(Db& db, long long attachment_id, const std::string& url) {
  db.execute(
      "INSERT INTO attachment_details (attachment_id, url, url_hash) VALUES (?, ?, ?) "
      "ON DUPLICATE KEY UPDATE url = VALUES(url), url_hash = VALUES(url_hash)",
      {attachment_id, url, sha256_bytes(url)});
}

std::optional<long long> find_term_at_level(Db& db, Taxonomy taxonomy, long long parent,
                                            const std::string& name) {
  Rows rows = db.query("SELECT id FROM terms WHERE taxonomy = ? AND parent = ? AND name_lower = LOWER(?)",
                       {std::string(taxonomy_name(taxonomy)), parent, name});
  if (!rows.next()) return std::nullopt;
  return rows.integer(0);
}

void insert_term_with_id(Db& db, const Term& term) {
  db.execute("INSERT INTO terms (id, taxonomy, name, slug, description, parent) VALUES (?, ?, ?, ?, ?, ?)",
             {term.id, std::string(taxonomy_name(term.taxonomy)), term.name, term.slug, term.description,
              term.parent});
}

void write_term(Db& db, const Term& term) {
  db.execute("UPDATE terms SET name = ?, slug = ?, description = ?, parent = ? WHERE id = ?",
             {term.name, term.slug, term.description, term.parent, term.id});
}

long long insert_user_with_id(Db& db, long long id, const std::string& login, const std::string& display_name,
                              Role role, const std::string& created_utc) {
  db.execute("INSERT INTO users (id, login, display_name, role, created_utc) VALUES (?, ?, ?, ?, ?)",
             {id ? SqlValue(id) : SqlValue(nullptr), login, display_name, std::string(role_name(role)),
              created_utc});
  return id ? id : db.last_insert_id();
}

void write_user(Db& db, long long id, const std::string& display_name, Role role) {
  db.execute("UPDATE users SET display_name = ?, role = ? WHERE id = ?",
             {display_name, std::string(role_name(role)), id});
}

bool user_id_taken(Db& db, long long id) {
  Rows rows = db.query("SELECT 1 FROM users WHERE id = ?", {id});
  return rows.next();
}

void set_option(Db& db, const std::string& name, const std::string& value) {
  db.execute("INSERT INTO options (name, value) VALUES (?, ?) ON DUPLICATE KEY UPDATE value = VALUES(value)",
             {name, value});
}

}  // namespace cal
