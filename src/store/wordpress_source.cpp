// SQL of a WordPress source database (see cal/store/wordpress_source.h).
#include "cal/store/wordpress_source.h"

#include "cal/core/text/ascii.h"

#include <set>
#include <stdexcept>
#include <tuple>

namespace cal {
namespace {

// Letters, digits, '_' and '$': what WordPress allows in $table_prefix (wp-settings.php refuses
// anything else), so a prefix with a backtick or a space cannot reach a statement text even when
// a table by that name exists.
bool plain_prefix(const std::string& prefix) {
  if (prefix.empty() || prefix.size() > 48) return false;
  for (char c : prefix)
    if (!ascii::is_alnum(c) && c != '_' && c != '$') return false;
  return true;
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() > tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// "wp_" + the n-th site's own tables' prefix ("wp_2_").
std::string site_prefix(const std::string& base, long long site) {
  return site <= 1 ? base : base + std::to_string(site) + "_";
}

WpPost read_wp_post(const Rows& rows) {
  WpPost p;
  p.id = rows.integer(0);
  p.type = rows.text(1);
  p.status = rows.text(2);
  p.author = rows.integer(3);
  p.title = rows.text(4);
  p.content = rows.text(5);
  p.excerpt = rows.text(6);
  p.name = rows.text(7);
  p.password = rows.text(8);
  p.parent = rows.integer(9);
  p.menu_order = rows.integer(10);
  p.date = rows.text(11);
  p.date_gmt = rows.text(12);
  p.modified = rows.text(13);
  p.modified_gmt = rows.text(14);
  p.mime_type = rows.text(15);
  return p;
}

std::vector<SqlValue> values_of(const std::vector<std::string>& texts) {
  return std::vector<SqlValue>(texts.begin(), texts.end());
}

}  // namespace

std::vector<WordPressInstall> find_wordpress_installs(Db& db) {
  std::set<std::string> tables;
  {
    Rows rows = db.query("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()");
    while (rows.next()) tables.insert(rows.text(0));
  }
  std::vector<WordPressInstall> out;
  for (const auto& name : tables) {
    if (!ends_with(name, "options")) continue;
    const std::string prefix = name.substr(0, name.size() - 7);
    if (!plain_prefix(prefix) || !tables.count(prefix + "posts")) continue;
    WordPressInstall install;
    install.prefix = prefix;
    // The prefix was read from the database's own table list above and is plain: safe to splice.
    {
      Rows rows =
          db.query("SELECT EXISTS (SELECT 1 FROM `" + prefix +
                   "options` WHERE option_name = 'tribe_events_calendar_options') OR EXISTS (SELECT 1 "
                   "FROM `" +
                   prefix + "posts` WHERE post_type = 'tribe_events')");
      // TEC's own tables alone do not count: a site that had TEC once keeps them (tec-dump.sql's
      // wp_ install has them, without TEC options or events).
      install.has_tec = rows.next() && rows.integer(0) != 0;
    }
    if (tables.count(prefix + "blogs")) {
      Rows rows = db.query("SELECT COUNT(*) FROM `" + prefix + "blogs`");
      install.sites = rows.next() ? rows.integer(0) : 1;
    }
    out.push_back(install);
  }
  return out;
}

WordPressSource::WordPressSource(Db& db, const std::string& base_prefix, long long site)
    : db_(db), base_prefix_(base_prefix), site_prefix_(site_prefix(base_prefix, site)), site_(site) {
  // The prefixes are spliced into statement texts (an identifier cannot be a bound value), so
  // both must be prefixes the database itself holds, found by find_wordpress_installs().
  bool base_found = false, site_found = false;
  for (const auto& install : find_wordpress_installs(db_)) {
    base_found = base_found || install.prefix == base_prefix_;
    site_found = site_found || install.prefix == site_prefix_;
  }
  if (!base_found || !site_found || !plain_prefix(site_prefix_))
    throw std::invalid_argument("no WordPress tables with prefix " + site_prefix_);
}

std::string WordPressSource::text(const std::string& table_name, const std::string& column,
                                  const std::string& alias) const {
  const std::string c = (alias.empty() ? "" : alias + ".") + "`" + column + "`";
  if (!repaired_.count(table_name + "." + column)) return c;
  // Per value: bytes that are valid UTF-8 are read as UTF-8 (what was written through a latin1
  // connection), anything else as the latin1 it is.
  const std::string bytes = "CAST(" + c + " AS BINARY)";
  return "IF(CAST(CONVERT(" + bytes + " USING utf8mb4) AS BINARY) = " + bytes + ", CONVERT(" + bytes +
         " USING utf8mb4), " + c + ")";
}

std::string WordPressSource::post_columns() const {
  const std::string posts = site_prefix_ + "posts";
  return "ID, post_type, post_status, post_author, " + text(posts, "post_title") + ", " +
         text(posts, "post_content") + ", " + text(posts, "post_excerpt") + ", " + text(posts, "post_name") +
         ", post_password, post_parent, menu_order, CAST(post_date AS CHAR), CAST(post_date_gmt AS CHAR), "
         "CAST(post_modified AS CHAR), CAST(post_modified_gmt AS CHAR), post_mime_type";
}

void WordPressSource::repair_double_encoding(const std::string& table_name, const std::string& column) {
  repaired_.insert(table_name + "." + column);
}

void WordPressSource::open_snapshot() {
  db_.execute_unprepared("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
}

void WordPressSource::close_snapshot() { db_.execute_unprepared("ROLLBACK"); }

bool WordPressSource::has_table(const std::string& name) {
  Rows rows =
      db_.query("SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?",
                {site_prefix_ + name});
  return rows.next();
}

std::vector<std::pair<std::string, std::string>> WordPressSource::latin1_text_columns() {
  const std::vector<std::string> tables = {site_prefix_ + "posts",   site_prefix_ + "postmeta",
                                           site_prefix_ + "terms",   site_prefix_ + "term_taxonomy",
                                           site_prefix_ + "options", base_prefix_ + "users"};
  const std::vector<std::string> columns = {"post_title",   "post_content", "post_excerpt", "post_name",
                                            "meta_value",   "name",         "slug",         "description",
                                            "option_value", "display_name"};
  std::vector<SqlValue> args = values_of(tables);
  for (const auto& c : columns) args.emplace_back(c);
  Rows rows = db_.query(
      "SELECT TABLE_NAME, COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = "
      "DATABASE() AND CHARACTER_SET_NAME = 'latin1' AND TABLE_NAME IN (" +
          placeholders(tables.size()) + ") AND COLUMN_NAME IN (" + placeholders(columns.size()) +
          ") ORDER BY TABLE_NAME, ORDINAL_POSITION",
      args);
  std::vector<std::pair<std::string, std::string>> out;
  while (rows.next()) out.emplace_back(rows.text(0), rows.text(1));
  return out;
}

long long WordPressSource::double_encoded_values(const std::string& table, const std::string& column) {
  // Both names come from latin1_text_columns(): a table of this install and a column of the
  // fixed list there, read back from information_schema.
  const std::string c = "CAST(`" + column + "` AS BINARY)";
  Rows rows = db_.query("SELECT COUNT(*) FROM `" + table + "` WHERE CHAR_LENGTH(CONVERT(" + c +
                        " USING utf8mb4)) < LENGTH(" + c + ") AND CAST(CONVERT(" + c +
                        " USING utf8mb4) AS BINARY) = " + c);
  return rows.next() ? rows.integer(0) : 0;
}

std::map<std::string, std::string> WordPressSource::options(const std::vector<std::string>& names) {
  std::map<std::string, std::string> out;
  if (names.empty()) return out;
  Rows rows = db_.query("SELECT option_name, " + text(site_prefix_ + "options", "option_value") + " FROM " +
                            table("options") + " WHERE option_name IN (" + placeholders(names.size()) + ")",
                        values_of(names));
  while (rows.next()) out[rows.text(0)] = rows.text(1);
  return out;
}

std::vector<std::tuple<std::string, std::string, long long>> WordPressSource::post_counts() {
  std::vector<std::tuple<std::string, std::string, long long>> out;
  Rows rows = db_.query("SELECT post_type, post_status, COUNT(*) FROM " + table("posts") +
                        " GROUP BY post_type, post_status");
  while (rows.next()) out.emplace_back(rows.text(0), rows.text(1), rows.integer(2));
  return out;
}

std::pair<long long, long long> WordPressSource::post_id_range(const std::vector<std::string>& types) {
  Rows rows = db_.query("SELECT MIN(ID), MAX(ID) FROM " + table("posts") + " WHERE post_type IN (" +
                            placeholders(types.size()) + ")",
                        values_of(types));
  if (!rows.next() || rows.is_null(0)) return {0, -1};
  return {rows.integer(0), rows.integer(1)};
}

std::vector<WpPost> WordPressSource::posts_after(const std::vector<std::string>& types, long long after,
                                                 long long limit) {
  std::vector<SqlValue> args = values_of(types);
  args.emplace_back(after);
  args.emplace_back(limit);
  Rows rows = db_.query("SELECT " + post_columns() + " FROM " + table("posts") + " WHERE post_type IN (" +
                            placeholders(types.size()) + ") AND ID > ? ORDER BY ID LIMIT ?",
                        args);
  std::vector<WpPost> out;
  while (rows.next()) out.push_back(read_wp_post(rows));
  return out;
}

std::vector<long long> WordPressSource::authors(const std::vector<std::string>& types) {
  Rows rows = db_.query("SELECT DISTINCT post_author FROM " + table("posts") + " WHERE post_type IN (" +
                            placeholders(types.size()) + ") AND post_author <> 0 ORDER BY post_author",
                        values_of(types));
  std::vector<long long> out;
  while (rows.next()) out.push_back(rows.integer(0));
  return out;
}

std::vector<WpPost> WordPressSource::posts_by_id(const std::vector<long long>& ids) {
  std::vector<WpPost> out;
  if (ids.empty()) return out;
  Rows rows = db_.query("SELECT " + post_columns() + " FROM " + table("posts") + " WHERE ID IN (" +
                            placeholders(ids.size()) + ") ORDER BY ID",
                        std::vector<SqlValue>(ids.begin(), ids.end()));
  while (rows.next()) out.push_back(read_wp_post(rows));
  return out;
}

std::map<long long, WpMeta> WordPressSource::meta(const std::vector<std::string>& keys, long long first,
                                                  long long last) {
  std::vector<SqlValue> args = values_of(keys);
  args.emplace_back(first);
  args.emplace_back(last);
  Rows rows =
      db_.query("SELECT post_id, meta_key, " + text(site_prefix_ + "postmeta", "meta_value") + " FROM " +
                    table("postmeta") + " WHERE meta_key IN (" + placeholders(keys.size()) +
                    ") AND post_id BETWEEN ? AND ? ORDER BY post_id, meta_id",
                args);
  std::map<long long, WpMeta> out;
  while (rows.next()) out[rows.integer(0)].emplace_back(rows.text(1), rows.text(2));
  return out;
}

std::map<long long, WpMeta> WordPressSource::meta_of(const std::vector<std::string>& keys,
                                                     const std::vector<long long>& ids) {
  std::map<long long, WpMeta> out;
  if (ids.empty()) return out;
  std::vector<SqlValue> args = values_of(keys);
  args.insert(args.end(), ids.begin(), ids.end());
  Rows rows =
      db_.query("SELECT post_id, meta_key, " + text(site_prefix_ + "postmeta", "meta_value") + " FROM " +
                    table("postmeta") + " WHERE meta_key IN (" + placeholders(keys.size()) +
                    ") AND post_id IN (" + placeholders(ids.size()) + ") ORDER BY post_id, meta_id",
                args);
  while (rows.next()) out[rows.integer(0)].emplace_back(rows.text(1), rows.text(2));
  return out;
}

std::vector<WpTerm> WordPressSource::terms(const std::vector<std::string>& taxonomies) {
  Rows rows = db_.query("SELECT tt.term_taxonomy_id, t.term_id, tt.taxonomy, " +
                            text(site_prefix_ + "terms", "name", "t") + ", " +
                            text(site_prefix_ + "terms", "slug", "t") + ", " +
                            text(site_prefix_ + "term_taxonomy", "description", "tt") +
                            ", "
                            "tt.parent FROM " +
                            table("term_taxonomy") + " tt JOIN " + table("terms") +
                            " t ON t.term_id = tt.term_id WHERE tt.taxonomy IN (" +
                            placeholders(taxonomies.size()) + ") ORDER BY tt.term_taxonomy_id",
                        values_of(taxonomies));
  std::vector<WpTerm> out;
  while (rows.next())
    out.push_back(WpTerm{rows.integer(0), rows.integer(1), rows.text(2), rows.text(3), rows.text(4),
                         rows.text(5), rows.integer(6)});
  return out;
}

std::vector<std::pair<long long, long long>> WordPressSource::relationships(
    const std::string& post_type, const std::vector<std::string>& taxonomies) {
  std::vector<SqlValue> args{post_type};
  for (const auto& t : taxonomies) args.emplace_back(t);
  Rows rows = db_.query(
      "SELECT tr.object_id, tr.term_taxonomy_id FROM " + table("term_relationships") + " tr JOIN " +
          table("posts") + " p ON p.ID = tr.object_id AND p.post_type = ? JOIN " + table("term_taxonomy") +
          " tt ON tt.term_taxonomy_id = tr.term_taxonomy_id " + "WHERE tt.taxonomy IN (" +
          placeholders(taxonomies.size()) + ") ORDER BY tr.object_id, tr.term_order, tr.term_taxonomy_id",
      args);
  std::vector<std::pair<long long, long long>> out;
  while (rows.next()) out.emplace_back(rows.integer(0), rows.integer(1));
  return out;
}

std::vector<WpUser> WordPressSource::users(const std::vector<long long>& ids) {
  std::vector<WpUser> out;
  if (ids.empty()) return out;
  // The capabilities key carries the site's prefix (wp_capabilities, wp_2_capabilities).
  std::vector<SqlValue> args{site_prefix_ + "capabilities"};
  args.insert(args.end(), ids.begin(), ids.end());
  Rows rows =
      db_.query("SELECT u.ID, u.user_login, " + text(base_prefix_ + "users", "display_name", "u") +
                    ", CAST(u.user_registered AS CHAR), "
                    "(SELECT m.meta_value FROM " +
                    shared("usermeta") + " m WHERE m.user_id = u.ID AND m.meta_key = ? ORDER BY m.umeta_id " +
                    "LIMIT 1) FROM " + shared("users") + " u WHERE u.ID IN (" + placeholders(ids.size()) +
                    ") ORDER BY u.ID",
                args);
  while (rows.next())
    out.push_back(WpUser{rows.integer(0), rows.text(1), rows.text(2), rows.text(3), rows.text(4)});
  return out;
}

std::vector<long long> WordPressSource::recurring_ct1_posts() {
  std::vector<long long> out;
  if (!has_table("tec_occurrences")) return out;
  Rows rows =
      db_.query("SELECT post_id FROM " + table("tec_occurrences") + " GROUP BY post_id HAVING COUNT(*) > 1");
  while (rows.next()) out.push_back(rows.integer(0));
  return out;
}

}  // namespace cal
