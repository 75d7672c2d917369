// SQL of the importer's own writes (see cal/store/wordpress_target.h).
#include "cal/store/wordpress_target.h"

#include "store/bulk_load.h"
#include "store/day_counts.h"
#include "cal/core/text/digest.h"

#include <algorithm>

namespace cal {
namespace {

constexpr const char* kSpaceNames[] = {"post", "term", "user"};

constexpr std::size_t kRowsPerStatement = 200;

// "(?, ?), (?, ?)": `rows` groups of `columns` placeholders.
std::string row_placeholders(std::size_t rows, std::size_t columns) {
  std::string one = "(" + placeholders(columns) + ")";
  std::string out;
  for (std::size_t i = 0; i < rows; ++i) out += (i ? ", " : "") + one;
  return out;
}

// Runs `insert` + VALUES for the rows + `tail` in statements of at most kRowsPerStatement rows.
void insert_rows(Db& db, const std::string& insert, std::size_t columns, const std::vector<SqlValue>& values,
                 const std::string& tail = "") {
  const std::size_t rows = values.size() / columns;
  for (std::size_t first = 0; first < rows; first += kRowsPerStatement) {
    const std::size_t n = std::min(kRowsPerStatement, rows - first);
    std::vector<SqlValue> args(values.begin() + static_cast<long>(first * columns),
                               values.begin() + static_cast<long>((first + n) * columns));
    db.execute(insert + " VALUES " + row_placeholders(n, columns) + tail, args);
  }
}

}  // namespace

void insert_imported_events(Db& db, const std::string& source, const std::vector<ImportedEvent>& events) {
  if (events.empty()) return;
  BulkLoad bulk(db);
  std::vector<SqlValue> posts, details, venues, organizers, terms, imports, ids;
  for (const ImportedEvent& e : events) {
    const PostRow& r = e.post;
    const EventDetails& d = e.details;
    ids.emplace_back(r.id);
    posts.insert(posts.end(),
                 {r.id, std::string("event"), r.status,
                  r.status_before_trash.empty() ? SqlValue(nullptr) : SqlValue(r.status_before_trash),
                  r.author, r.title, r.content, r.excerpt, r.slug, r.password, r.parent,
                  r.image_id ? SqlValue(r.image_id) : SqlValue(nullptr), r.date_local, r.date_utc,
                  r.modified_local, r.modified_utc});
    // The post's visibility, as event_details_visibility_bi copies it.
    details.insert(details.end(),
                   {r.id, d.start_local, d.end_local, d.start_utc, d.end_utc, d.timezone, d.all_day, d.cost,
                    d.website, d.show_map, d.show_map_link, d.hide_from_listings, d.sticky, d.featured,
                    r.status, r.author, r.date_utc});
    // The event's list copies, as the links' BEFORE INSERT triggers write them.
    const std::vector<SqlValue> copies = {r.status, d.hide_from_listings, d.start_utc, d.end_utc};
    if (e.venue_id) {
      venues.insert(venues.end(), {r.id, e.venue_id});
      venues.insert(venues.end(), copies.begin(), copies.end());
    }
    for (std::size_t i = 0; i < e.organizers.size(); ++i) {
      organizers.insert(organizers.end(), {r.id, e.organizers[i], static_cast<long long>(i)});
      organizers.insert(organizers.end(), copies.begin(), copies.end());
    }
    std::vector<long long> term_ids = e.categories;
    term_ids.insert(term_ids.end(), e.tags.begin(), e.tags.end());
    std::sort(term_ids.begin(), term_ids.end());
    term_ids.erase(std::unique(term_ids.begin(), term_ids.end()), term_ids.end());
    for (long long t : term_ids) {
      terms.insert(terms.end(), {r.id, t});
      terms.insert(terms.end(), copies.begin(), copies.end());
    }
    imports.insert(imports.end(), {source, std::string("post"), e.source_id, r.id, e.fingerprint});
  }
  insert_rows(
      db,
      "INSERT INTO posts (id, type, status, status_before_trash, author, title, content, excerpt, slug, "
      "password, parent, image_id, date_local, date_utc, modified_local, modified_utc)",
      16, posts);
  insert_rows(
      db,
      "INSERT INTO event_details (event_id, start_local, end_local, start_utc, end_utc, timezone, all_day, "
      "cost, website, show_map, show_map_link, hide_from_listings, sticky, featured, status, author, "
      "publish_utc)",
      17, details);
  insert_rows(db,
              "INSERT INTO event_venues (event_id, venue_id, status, hide_from_listings, start_utc, end_utc)",
              6, venues);
  insert_rows(db,
              "INSERT INTO event_organizers (event_id, organizer_id, position, status, hide_from_listings, "
              "start_utc, end_utc)",
              7, organizers);
  insert_rows(
      db,
      "INSERT INTO term_relationships (event_id, term_id, status, hide_from_listings, start_utc, end_utc)", 6,
      terms);
  // What the skipped triggers would have done, once for all the rows (schema.sql), into this
  // connection's shards as theirs would: published events per term, events per day, durations,
  // the search queue, one data version bump.
  for (std::size_t first = 0; first < ids.size(); first += kRowsPerStatement) {
    const std::size_t n = std::min(kRowsPerStatement, ids.size() - first);
    const std::vector<SqlValue> some(ids.begin() + static_cast<long>(first),
                                     ids.begin() + static_cast<long>(first + n));
    const std::string in = "(" + placeholders(n) + ")";
    db.execute(
        "INSERT INTO term_counts (term_id, shard, published) SELECT r.term_id, CONNECTION_ID() % 8, COUNT(*) "
        "FROM term_relationships r JOIN posts p ON p.id = r.event_id WHERE p.status = 'publish' AND "
        "r.event_id IN " +
            in + " GROUP BY r.term_id ON DUPLICATE KEY UPDATE published = published + VALUES(published)",
        some);
    count_event_days(db, "FROM event_details d WHERE d.event_id IN " + in, some);
    count_term_days(db, "FROM term_relationships r WHERE r.event_id IN " + in, some);
    db.execute("INSERT IGNORE INTO search_pending (event_id) SELECT p.id FROM posts p WHERE p.id IN " + in,
               some);
  }
  db.execute("UPDATE data_version SET version = version + 1 WHERE shard = CONNECTION_ID() % 16");
  // A record imported before whose target was deleted here since is new again: its row moves.
  insert_rows(db, "INSERT INTO wordpress_imports (source, kind, source_id, target_id, fingerprint)", 5,
              imports,
              " ON DUPLICATE KEY UPDATE target_id = VALUES(target_id), fingerprint = VALUES(fingerprint)");
}

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
