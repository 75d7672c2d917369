// WordPress source databases for the import-wordpress tests (docs/importing-wordpress.md): one
// private database per test on the stack's MariaDB, loaded from TEC's own dumps
// (tests/fixtures/wordpress/) and rows shaped like TEC's (its tec-remap records), then imported
// with `calendarctl import-wordpress` into the stack's database.
#pragma once

#include <rapidjson/document.h>

#include <map>
#include <string>
#include <vector>

namespace wptest {

// The stack's MariaDB socket, and the directory of the WordPress fixtures.
std::string socket_path();
std::string fixtures_dir();

// A database of its own named after the test, dropped again by the destructor.
class SourceDb {
 public:
  // Loads `dump` (a file of tests/fixtures/wordpress/, "" for none) and, when `siteurl` is not
  // empty, makes it the site's siteurl: the import's name for the site, unique per test so that
  // tests sharing the stack's database never update each other's records.
  SourceDb(const std::string& dump, const std::string& siteurl, const std::string& prefix = "wp_");
  ~SourceDb();
  SourceDb(const SourceDb&) = delete;
  SourceDb& operator=(const SourceDb&) = delete;

  const std::string& name() const { return name_; }
  // The --from URL and --socket of this database.
  std::string from() const;
  // Runs SQL statements in it; returns the rows (tab-separated lines).
  std::string sql(const std::string& statements) const;
  // Inserts a post and its meta from a WP_Post-shaped JSON record (TEC's remap files:
  // row fields and meta_input), under `id` when not 0.
  void add_post_json(const std::string& file, long long id = 0) const;
  // Inserts a post row; `fields` name wp_posts columns (the rest take sensible defaults).
  void add_post(long long id, const std::string& type,
                const std::map<std::string, std::string>& fields) const;
  // Adds meta rows to a post, in this order (so in meta_id order).
  void add_meta(long long post_id, const std::vector<std::pair<std::string, std::string>>& meta) const;

 private:
  std::string name_, prefix_;
};

// One run of the command.
struct Import {
  int exit_code = -1;
  std::string out;             // the text report
  std::string err;             // standard error (progress, refusals)
  rapidjson::Document report;  // --report's JSON (null when none was written)

  // Our id of a WordPress record of `kind`: the source id unless the report says it moved.
  long long id_of(const std::string& kind, long long source_id) const;
  // Whether the report lists a change of this record and field whose reason contains `words`.
  bool changed(const std::string& kind, long long source_id, const std::string& field,
               const std::string& words = "") const;
  // A count of the report: counts.<kind>.<which>.
  long long count(const std::string& kind, const std::string& which) const;
};

// Runs `calendarctl import-wordpress --from <db> --socket <stack> --report <file> <extra>`.
Import import(const SourceDb& db, const std::string& extra = "");
// The same with the arguments as given (for refusals: no --from added).
Import import_raw(const std::string& args);

// The stack's own database, one statement, -N -B output without the final newline.
std::string target_sql(const std::string& statement);

// A record of ours through the API as the administrator (any status), as JSON.
rapidjson::Document record(const std::string& path);

}  // namespace wptest
