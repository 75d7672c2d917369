// Reading a WordPress + The Events Calendar database (docs/importing-wordpress.md): finding its
// table prefixes, opening one read-only consistent snapshot, and the rows the importer copies.
// Only SELECTs; every value is bound. The table prefix is the one identifier spliced into the
// statement texts, and only after it was found among the database's own tables.
#pragma once

#include "cal/store/db.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cal {

// A WordPress install in the database: the prefix of its `options` and `posts` tables.
struct WordPressInstall {
  std::string prefix;    // "wp_", "test_", "wp_2_"
  bool has_tec = false;  // TEC's options or events
  long long sites = 1;   // rows of {prefix}blogs (multisite); 1 when there is none
};

// Every install in the connected database, by prefix (information_schema, one statement, and
// one look at each install's options and blogs).
std::vector<WordPressInstall> find_wordpress_installs(Db& db);

// One WordPress post (wp_posts) with what the importer reads of it.
struct WpPost {
  long long id = 0;
  std::string type, status;
  long long author = 0;
  std::string title, content, excerpt, name, password;
  long long parent = 0;
  long long menu_order = 0;
  std::string date, date_gmt, modified, modified_gmt;  // "YYYY-MM-DD HH:MM:SS"; GMT may be all zeros
  std::string mime_type;
};

// A post's meta rows in meta_id order: the first of a key is what get_post_meta(..., true) reads.
using WpMeta = std::vector<std::pair<std::string, std::string>>;

struct WpTerm {
  long long term_taxonomy_id = 0;
  long long term_id = 0;
  std::string taxonomy, name, slug, description;
  long long parent = 0;  // a term_id of the same taxonomy
};

struct WpUser {
  long long id = 0;
  std::string login, display_name, registered;
  std::string capabilities;  // the serialized {prefix}capabilities user meta; "" when none
};

// The tables of one install, for one site of it. Opening it checks `base_prefix` against
// find_wordpress_installs() and throws std::invalid_argument when it is not one of them: the
// prefix becomes part of statement texts, so it must be a prefix the database itself holds.
class WordPressSource {
 public:
  WordPressSource(Db& db, const std::string& base_prefix, long long site);

  // START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY: every read below sees one moment of
  // the source (InnoDB tables; MyISAM ones cannot be snapshotted).
  void open_snapshot();
  void close_snapshot();

  const std::string& posts_prefix() const { return site_prefix_; }

  // Whether the site's table `{site prefix}name` exists.
  bool has_table(const std::string& name);
  // Tables of the site (and the shared users tables) whose character set is latin1, with the
  // columns the importer reads: name → column.
  std::vector<std::pair<std::string, std::string>> latin1_text_columns();
  // How many values of a latin1 column hold bytes that are valid multi-byte UTF-8: text that was
  // written as UTF-8 through a latin1 connection (double-encoded once converted).
  long long double_encoded_values(const std::string& table, const std::string& column);
  // From now on, reads the column's values whose bytes are valid UTF-8 as UTF-8, the others as
  // latin1 (`table` and `column` as latin1_text_columns() named them).
  void repair_double_encoding(const std::string& table, const std::string& column);

  // Options by name (missing ones are left out).
  std::map<std::string, std::string> options(const std::vector<std::string>& names);
  // Number of posts by (type, status), for the skip counts.
  std::vector<std::tuple<std::string, std::string, long long>> post_counts();
  // The next `limit` posts of these types with ids above `after`, in id order.
  std::vector<WpPost> posts_after(const std::vector<std::string>& types, long long after, long long limit);
  // Lowest and highest id of the posts of these types; {0, -1} when none.
  std::pair<long long, long long> post_id_range(const std::vector<std::string>& types);
  // The distinct authors of the posts of these types.
  std::vector<long long> authors(const std::vector<std::string>& types);
  // Posts by id (attachments), any type.
  std::vector<WpPost> posts_by_id(const std::vector<long long>& ids);
  // The meta rows with these keys of posts with ids in [first, last], per post, in meta_id order.
  std::map<long long, WpMeta> meta(const std::vector<std::string>& keys, long long first, long long last);
  // The same for the posts of `ids`.
  std::map<long long, WpMeta> meta_of(const std::vector<std::string>& keys,
                                      const std::vector<long long>& ids);
  // Terms of these taxonomies.
  std::vector<WpTerm> terms(const std::vector<std::string>& taxonomies);
  // (object id, term_taxonomy_id) of the posts of `post_type` in these taxonomies.
  std::vector<std::pair<long long, long long>> relationships(const std::string& post_type,
                                                             const std::vector<std::string>& taxonomies);
  // Users by id with their capabilities on this site.
  std::vector<WpUser> users(const std::vector<long long>& ids);
  // Posts with more than one occurrence in TEC's custom tables (CT1 recurring series), when the
  // site has them.
  std::vector<long long> recurring_ct1_posts();

 private:
  std::string table(const std::string& name) const { return "`" + site_prefix_ + name + "`"; }
  // The select expression of a text column of `table_name` (full name), repaired when asked.
  std::string text(const std::string& table_name, const std::string& column,
                   const std::string& alias = "") const;
  std::string post_columns() const;
  std::string shared(const std::string& name) const { return "`" + base_prefix_ + name + "`"; }

  Db& db_;
  std::string base_prefix_;
  std::string site_prefix_;
  long long site_ = 1;
  std::set<std::string> repaired_;  // "table.column"
};

}  // namespace cal
