// Upgrades lose nothing: sites upgrade in place, over data they cannot recreate. A database in the
// schema as first released (the fixture tests/fixtures/schema-v1.sql) is filled through that
// schema's own shapes (data-v1.sql: plain INSERTs), then migrated with the current schema.sql by
// `calendarctl migrate`, the way upgrades arrive. Then:
//   - every row of every v1 table still holds exactly the same values in v1's columns (new
//     columns, tables, indexes may be added; schema_migrations may gain rows);
//   - derived data is consistent (term_counts equals its recomputation, 16 version shards);
//   - a second migrate changes nothing (schema, triggers, data);
//   - served by a calendar-fcgi of its own (scripts/stack.sh in $CAL_TEST_DIR/upgrade, its
//     calendar.conf naming the migrated database on the shared MariaDB), every event, venue,
//     organizer, category and tag reads back through the API as the v1 rows say, lists keep
//     their order, and the venue/organizer/tag/category filters find the same events. The
//     expected values are computed from the v1 rows with v1's SQL BEFORE the migration.
// The database is `upgrade_v1` on the shared test MariaDB; other tests never see it.
#include <doctest/doctest.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/reliability.h"

namespace caltest {
namespace {

const std::string kDb = "upgrade_v1";
const std::string kNs = "/cal/events/v1";

std::string env(const char* name) {
  const char* v = std::getenv(name);
  REQUIRE_MESSAGE(v != nullptr, name << " is not set (run through scripts/run-tests.sh)");
  return v;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class Upgrade {
 public:
  Upgrade() {
    const std::string ctl = env("CAL_TEST_CTL");
    build_ = ctl.substr(0, ctl.find(' '));
    build_ = build_.substr(0, build_.rfind('/'));
    repo_ = build_ + "/..";
    main_dir_ = env("CAL_TEST_DIR");
    dir_ = main_dir_ + "/upgrade";
    run(repo_ + "/scripts/stack.sh down " + dir_ + " >/dev/null 2>&1");
    REQUIRE(run("rm -rf " + dir_ + " && mkdir -p " + dir_).exit_code == 0);
    // The service's configuration, naming the database under test.
    std::string conf = read_text_file(main_dir_ + "/calendar.conf");
    const auto at = conf.find("\nname = calendar\n");
    REQUIRE(at != std::string::npos);
    conf.replace(at, 17, "\nname = " + kDb + "\n");
    std::ofstream(dir_ + "/calendar.conf") << conf;
    conf_ = dir_ + "/calendar.conf";
  }
  ~Upgrade() { run(repo_ + "/scripts/stack.sh down " + dir_ + " >/dev/null 2>&1"); }
  Upgrade(const Upgrade&) = delete;
  Upgrade& operator=(const Upgrade&) = delete;

  // Runs SQL (any number of statements) in `db` ("" = none); returns the tab-separated rows.
  std::string sql(const std::string& statements, const std::string& db = kDb) const {
    const std::string file = dir_ + "/statement.sql";
    std::ofstream(file) << statements;
    const Run r = run("mariadb --no-defaults --default-character-set=utf8mb4 --socket=" + main_dir_ +
                      "/mysqld.sock -uroot -N -B " + db + " < " + file + " 2>&1");
    REQUIRE_MESSAGE(r.exit_code == 0, statements.substr(0, 300) << "\n" << r.out);
    return r.out;
  }
  void load(const std::string& fixture) const {
    const Run r = run("mariadb --no-defaults --default-character-set=utf8mb4 --socket=" + main_dir_ +
                      "/mysqld.sock -uroot " + kDb + " < " + repo_ + "/tests/fixtures/" + fixture + " 2>&1");
    REQUIRE_MESSAGE(r.exit_code == 0, fixture << ": " << r.out);
  }
  // `calendarctl migrate` on the database under test; returns its output.
  std::string migrate() const {
    const Run r = run(build_ + "/calendarctl --config " + conf_ + " migrate 2>&1");
    REQUIRE_MESSAGE(r.exit_code == 0, r.out);
    return r.out;
  }
  // `calendarctl migrate` of a new database `db` (a config of its own naming it), in which
  // `first` (SQL) has run.
  void migrate_new(const std::string& db, const std::string& first = "") const {
    sql("DROP DATABASE IF EXISTS " + db + "; CREATE DATABASE " + db +
            " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci",
        "");
    if (!first.empty()) sql(first, db);
    std::string conf = read_text_file(conf_);
    conf.replace(conf.find("\nname = " + kDb + "\n"), kDb.size() + 9, "\nname = " + db + "\n");
    std::ofstream(dir_ + "/" + db + ".conf") << conf;
    const Run r = run(build_ + "/calendarctl --config " + dir_ + "/" + db + ".conf migrate 2>&1");
    REQUIRE_MESSAGE(r.exit_code == 0, r.out);
  }
  // `calendarctl migrate` again of a database `db` made by migrate_new().
  void migrate_again(const std::string& db) const {
    const Run r = run(build_ + "/calendarctl --config " + dir_ + "/" + db + ".conf migrate 2>&1");
    REQUIRE_MESSAGE(r.exit_code == 0, r.out);
  }
  std::string schema_sql() const { return read_text_file(repo_ + "/schema.sql"); }
  // The schema as the mysql client and phpMyAdmin load it (scripts/schema-for-mysql.sh).
  std::string schema_for_mysql() const { return read_text_file(build_ + "/schema-mysql.sql"); }
  // The service on the migrated database (stack.sh migrates once more on the way).
  void serve() {
    const Run port = run(repo_ + "/scripts/stack.sh free-port");
    REQUIRE(port.exit_code == 0);
    port_ = port.out.substr(0, port.out.find('\n'));
    const Run up = run(repo_ + "/scripts/stack.sh up " + dir_ + " " + port_ + " " + build_ + " 2>&1");
    REQUIRE_MESSAGE(up.exit_code == 0, up.out);
    token_ = read_text_file(dir_ + "/admin.token");
    token_ = token_.substr(0, token_.find('\n'));
    REQUIRE(!token_.empty());
  }
  HttpResponse get(const std::string& path) const {
    return raw_request({.url = "http://127.0.0.1:" + port_ + "/api" + kNs + path,
                        .method = "GET",
                        .body = "",
                        .headers = {bearer(token_)},
                        .timeout_ms = 20000})
        .response;
  }

 private:
  std::string build_, repo_, main_dir_, dir_, conf_, port_, token_;
};

// Table -> (v1 columns, primary key columns), read from the database before it is migrated.
struct TableShape {
  std::string columns, key;
};

std::map<std::string, TableShape> v1_tables(const Upgrade& u) {
  std::map<std::string, TableShape> out;
  for (const std::string& line : lines_of(u.sql(
           "SELECT c.TABLE_NAME, GROUP_CONCAT(c.COLUMN_NAME ORDER BY c.ORDINAL_POSITION), "
           "(SELECT GROUP_CONCAT(s.COLUMN_NAME ORDER BY s.SEQ_IN_INDEX) FROM information_schema.STATISTICS s "
           " WHERE s.TABLE_SCHEMA = c.TABLE_SCHEMA AND s.TABLE_NAME = c.TABLE_NAME AND s.INDEX_NAME = "
           "'PRIMARY') "
           "FROM information_schema.COLUMNS c WHERE c.TABLE_SCHEMA = DATABASE() GROUP BY c.TABLE_NAME"))) {
    std::istringstream in(line);
    std::string table;
    TableShape shape;
    std::getline(in, table, '\t');
    std::getline(in, shape.columns, '\t');
    std::getline(in, shape.key, '\t');
    out[table] = shape;
  }
  return out;
}

// Every row of every v1 table, v1 columns only, in primary-key order: table -> rows. The version
// counters are left out of it (any write bumps them, by design); their shards are kept.
std::map<std::string, std::vector<std::string>> rows_of(const Upgrade& u,
                                                        const std::map<std::string, TableShape>& tables,
                                                        bool with_versions = false) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& [table, shape] : tables) {
    const std::string columns = table == "data_version" && !with_versions ? "shard" : shape.columns;
    out[table] = lines_of(u.sql("SELECT " + columns + " FROM " + table + " ORDER BY " + shape.key));
  }
  return out;
}

// What differs between two snapshots, table by table ("" when nothing); rows only `after` has
// are allowed in the tables named in `may_grow`.
std::string difference(const std::map<std::string, std::vector<std::string>>& before,
                       const std::map<std::string, std::vector<std::string>>& after,
                       const std::set<std::string>& may_grow) {
  std::string out;
  for (const auto& [table, rows] : before) {
    const auto it = after.find(table);
    if (it == after.end()) {
      out += table + ": gone\n";
      continue;
    }
    const std::multiset<std::string> was(rows.begin(), rows.end()), is(it->second.begin(), it->second.end());
    int shown = 0;
    for (const std::string& row : was)
      if (!is.count(row) && shown++ < 5) out += table + ": lost or changed row: " + row + "\n";
    if (!may_grow.count(table))
      for (const std::string& row : is)
        if (!was.count(row) && shown++ < 10) out += table + ": new or changed row: " + row + "\n";
    // Order: the rows that were there keep their relative order (a table that may grow may
    // have new rows between them).
    std::vector<std::string> kept;
    for (const std::string& row : it->second)
      if (was.count(row)) kept.push_back(row);
    if (shown == 0 && rows != kept) out += table + ": rows in another order\n";
  }
  return out;
}

// The schema as information_schema shows it (tables, columns, indexes, triggers with their
// creation time: a trigger re-created by a migration shows there).
std::string schema_of(const Upgrade& u) {
  return u.sql(
      "SELECT TABLE_NAME, ENGINE, TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = "
      "DATABASE() "
      "ORDER BY 1;"
      "SELECT TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, EXTRA, "
      "GENERATION_EXPRESSION, COLLATION_NAME, COLUMN_COMMENT FROM information_schema.COLUMNS "
      "WHERE TABLE_SCHEMA = DATABASE() ORDER BY 1, 3;"
      "SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM "
      "information_schema.STATISTICS "
      "WHERE TABLE_SCHEMA = DATABASE() ORDER BY 1, 2, 3;"
      "SELECT TRIGGER_NAME, EVENT_OBJECT_TABLE, ACTION_TIMING, EVENT_MANIPULATION, ACTION_ORDER, "
      "ACTION_STATEMENT, "
      "CREATED FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() ORDER BY 1;"
      "SELECT CONSTRAINT_NAME, TABLE_NAME, UPDATE_RULE, DELETE_RULE, REFERENCED_TABLE_NAME "
      "FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() ORDER BY 1;");
}

// Text helpers by hand rather than with <regex>: GCC 12's <regex> trips -Werror
// (maybe-uninitialized) in the ASan build.

// `text` without its " AUTO_INCREMENT=<n>" clauses: the counters are data.
std::string without_auto_increment(std::string text) {
  const std::string key = " AUTO_INCREMENT=";
  for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
    auto end = at + key.size();
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    text.erase(at, end - at);
  }
  return text;
}

// The client's batch output with its escaped line breaks ("\\n") as real ones.
std::string unescaped_lines(std::string text) {
  for (auto at = text.find("\\n"); at != std::string::npos; at = text.find("\\n", at + 1))
    text.replace(at, 2, "\n");
  return text;
}

// `text` without its COMMENT clauses (" COMMENT 'x'" or " COMMENT='x'"; inside the quotes a
// doubled quote or a backslash escape, as the client's batch output writes them).
std::string without_comments(const std::string& text) {
  std::string out;
  std::size_t i = 0;
  for (std::size_t at = text.find(" COMMENT", i); at != std::string::npos; at = text.find(" COMMENT", i)) {
    const std::size_t quote = at + 9;
    if (quote >= text.size() || (text[at + 8] != ' ' && text[at + 8] != '=') || text[quote] != '\'') {
      out.append(text, i, quote - i);
      i = quote;
      continue;
    }
    out.append(text, i, at - i);
    std::size_t j = quote + 1;
    while (j < text.size()) {
      if (text[j] == '\\') {
        j += 2;
      } else if (text[j] == '\'' && j + 1 < text.size() && text[j + 1] == '\'') {
        j += 2;
      } else if (text[j++] == '\'') {
        break;
      }
    }
    i = j;
  }
  if (i < text.size()) out.append(text, i);
  return out;
}

// SHOW CREATE TABLE of every table and SHOW CREATE VIEW of every view of `db`, by name; the
// AUTO_INCREMENT counters are data, left out.
std::string show_create_all(const Upgrade& u, const std::string& db) {
  std::string out;
  for (const std::string& line :
       lines_of(u.sql("SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = "
                      "DATABASE() ORDER BY 1",
                      db))) {
    const std::string name = line.substr(0, line.find('\t'));
    const bool view = line.find("VIEW") != std::string::npos;
    out += without_auto_increment(
        u.sql(std::string(view ? "SHOW CREATE VIEW " : "SHOW CREATE TABLE ") + name, db));
  }
  return out;
}

// The triggers and routines of `db` with their bodies, by name.
std::string code_of(const Upgrade& u, const std::string& db) {
  return u.sql(
      "SELECT TRIGGER_NAME, EVENT_OBJECT_TABLE, ACTION_TIMING, EVENT_MANIPULATION, ACTION_STATEMENT FROM "
      "information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() ORDER BY 1; SELECT ROUTINE_NAME, "
      "ROUTINE_DEFINITION FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE() ORDER BY 1",
      db);
}

// --- Expected records, from the v1 rows with v1's SQL ----------------------------------------

const char* const kDate = "'%Y-%m-%d %H:%i:%s'";

std::string post_fields(const std::string& p) {
  return p + ".id, " + p + ".title, " + p + ".content, " + p + ".excerpt, " + p + ".slug, " + p +
         ".author, DATE_FORMAT(" + p + ".date_local, " + kDate + "), DATE_FORMAT(" + p + ".date_utc, " +
         kDate + "), DATE_FORMAT(" + p + ".modified_local, " + kDate + "), DATE_FORMAT(" + p +
         ".modified_utc, " + kDate + "), IF(" + p + ".status = 'future' AND " + p +
         ".date_utc <= UTC_TIMESTAMP(), 'publish', " + p + ".status)";
}

std::string image_url(const std::string& p) {
  return "IFNULL((SELECT a.url FROM attachment_details a WHERE a.attachment_id = " + p + ".image_id), '')";
}

// One line per event: id|title|...|status|start|end|utc start|utc end|zone|6 flags|website|venue|
// organizers in link order|categories by name|tags by name|image URL.
std::string expected_events(const Upgrade& u) {
  return u.sql(
      "SELECT CONCAT_WS('|', " + post_fields("p") + ", DATE_FORMAT(d.start_local, " + kDate +
      "), DATE_FORMAT(d.end_local, " + kDate + "), DATE_FORMAT(d.start_utc, " + kDate +
      "), DATE_FORMAT(d.end_utc, " + kDate +
      "), d.timezone, d.all_day, d.show_map, d.show_map_link, d.hide_from_listings, d.sticky, d.featured, "
      "IF(d.website = '', '-', d.website), IFNULL(ev.venue_id, 0), "
      "IFNULL((SELECT GROUP_CONCAT(eo.organizer_id ORDER BY eo.position) FROM event_organizers eo WHERE "
      "eo.event_id = p.id), ''), "
      "IFNULL((SELECT GROUP_CONCAT(t.id ORDER BY t.name_lower, t.id) FROM term_relationships r JOIN terms t "
      "ON t.id = r.term_id "
      "WHERE r.event_id = p.id AND t.taxonomy = 'cal_events_cat'), ''), "
      "IFNULL((SELECT GROUP_CONCAT(t.id ORDER BY t.name_lower, t.id) FROM term_relationships r JOIN terms t "
      "ON t.id = r.term_id "
      "WHERE r.event_id = p.id AND t.taxonomy = 'post_tag'), ''), " +
      image_url("p") +
      ") FROM posts p JOIN event_details d ON d.event_id = p.id LEFT JOIN event_venues ev ON ev.event_id = "
      "p.id "
      "WHERE p.type = 'event' ORDER BY p.id");
}

std::string expected_venues(const Upgrade& u) {
  return u.sql(
      "SELECT CONCAT_WS('|', " + post_fields("p") +
      ", IFNULL(d.address, ''), IFNULL(d.city, ''), IFNULL(d.country, ''), IFNULL(d.province, ''), "
      "IFNULL(d.state, ''), IFNULL(d.zip, ''), IFNULL(d.phone, ''), IFNULL(d.website, ''), "
      "IFNULL(d.stateprovince, ''), IFNULL(d.show_map, 1), IFNULL(d.show_map_link, 1), "
      "IFNULL(d.geo_lat, 'null'), IFNULL(d.geo_lng, 'null'), " +
      image_url("p") +
      ") FROM posts p LEFT JOIN venue_details d ON d.venue_id = p.id WHERE p.type = 'venue' ORDER BY p.id");
}

std::string expected_organizers(const Upgrade& u) {
  return u.sql("SELECT CONCAT_WS('|', " + post_fields("p") +
               ", IFNULL(d.phone, ''), IFNULL(d.website, ''), IFNULL(d.email, ''), " + image_url("p") +
               ") FROM posts p LEFT JOIN organizer_details d ON d.organizer_id = p.id WHERE p.type = "
               "'organizer' ORDER BY p.id");
}

// Terms with their count: published events (or scheduled ones already due) carrying them.
std::string expected_terms(const Upgrade& u) {
  return u.sql(
      "SELECT CONCAT_WS('|', t.id, t.name, t.slug, t.taxonomy, t.description, t.parent, "
      "(SELECT COUNT(*) FROM term_relationships r JOIN posts p ON p.id = r.event_id WHERE r.term_id = t.id "
      "AND "
      "p.type = 'event' AND (p.status = 'publish' OR (p.status = 'future' AND p.date_utc <= "
      "UTC_TIMESTAMP())))) "
      "FROM terms t ORDER BY t.id");
}

// --- The same lines from the API ---------------------------------------------------------------

std::string json_text(const rapidjson::Value* v) {
  if (!v) return "(missing)";
  if (v->IsString()) return v->GetString();
  if (v->IsBool()) return v->GetBool() ? "1" : "0";
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  v->Accept(w);
  return b.GetString();
}

std::string field(const rapidjson::Value& d, std::string_view key) { return json_text(find(d, {key})); }

std::string ids_of(const rapidjson::Value& d, std::string_view key) {
  std::string out;
  const rapidjson::Value* a = find(d, {key});
  if (a && a->IsArray())
    for (const auto& x : a->GetArray()) out += (out.empty() ? "" : ",") + field(x, "id");
  return out;
}

std::string image_of(const rapidjson::Value& d) {
  const rapidjson::Value* image = find(d, {"image"});
  return image && image->IsObject() ? field(*image, "url") : "";
}

std::string post_line(const rapidjson::Value& d, std::string_view title_key) {
  std::string line;
  for (std::string_view k :
       {std::string_view("id"), title_key, std::string_view("description"), std::string_view("excerpt"),
        std::string_view("slug"), std::string_view("author"), std::string_view("date"),
        std::string_view("date_utc"), std::string_view("modified"), std::string_view("modified_utc"),
        std::string_view("status")})
    line += (line.empty() ? "" : "|") + field(d, k);
  return line;
}

std::string event_line(const rapidjson::Value& d) {
  std::string line = post_line(d, "title");
  for (const char* k : {"start_date", "end_date", "utc_start_date", "utc_end_date", "timezone", "all_day",
                        "show_map", "show_map_link", "hide_from_listings", "sticky", "featured"})
    line += "|" + field(d, k);
  const std::string website = field(d, "website");
  line += "|" + (website == field(d, "url") ? std::string("-") : website);
  const rapidjson::Value* venue = find(d, {"venue"});
  line += "|" + (venue && venue->IsObject() ? field(*venue, "id") : std::string("0"));
  line += "|" + ids_of(d, "organizer") + "|" + ids_of(d, "categories") + "|" + ids_of(d, "tags") + "|" +
          image_of(d);
  return line;
}

std::string venue_line(const rapidjson::Value& d) {
  std::string line = post_line(d, "venue");
  for (const char* k : {"address", "city", "country", "province", "state", "zip", "phone", "website",
                        "stateprovince", "show_map", "show_map_link", "geo_lat", "geo_lng"})
    line += "|" + field(d, k);
  return line + "|" + image_of(d);
}

std::string organizer_line(const rapidjson::Value& d) {
  std::string line = post_line(d, "organizer");
  for (const char* k : {"phone", "website", "email"}) line += "|" + field(d, k);
  return line + "|" + image_of(d);
}

std::string term_line(const rapidjson::Value& d) {
  std::string line;
  for (const char* k : {"id", "name", "slug", "taxonomy", "description", "parent", "count"})
    line += (line.empty() ? "" : "|") + field(d, k);
  return line;
}

// Each record read alone (context=edit: trashed and password-protected ones in full).
void check_records(const Upgrade& u, const std::string& expected, const std::string& collection,
                   std::string (*line_of)(const rapidjson::Value&)) {
  int checked = 0;
  for (const std::string& want : lines_of(expected)) {
    const std::string id = want.substr(0, want.find('|'));
    const HttpResponse r = u.get("/" + collection + "/" + id + "?context=edit");
    REQUIRE_MESSAGE(r.status == 200, collection << "/" << id << ": " << describe(r));
    CHECK_MESSAGE(line_of(r.json()) == want,
                  collection << "/" << id << "\n  api: " << line_of(r.json()) << "\n  v1:  " << want);
    ++checked;
  }
  CHECK(checked > 0);
}

const std::string kAllStatuses = "status=publish,future,draft,pending,private,trash&starts_after=1900-01-01";

// The ids of every page of an event list, in order.
std::vector<std::string> listed_ids(const Upgrade& u, const std::string& query) {
  std::vector<std::string> ids;
  for (int page = 1; page < 100; ++page) {
    const HttpResponse r = u.get("/events?" + query + "&per_page=50&page=" + std::to_string(page));
    REQUIRE_MESSAGE(r.status == 200, query << ": " << describe(r));
    const rapidjson::Document d = r.json();
    for (const auto& e : (*find(d, {"events"})).GetArray()) ids.push_back(field(e, "id"));
    if (!find(d, {"next_rest_url"})) break;
  }
  return ids;
}

TEST_CASE(
    "upgrade: a v1 database migrates without losing or changing anything, and reads back through the API") {
  Upgrade u;
  u.sql("DROP DATABASE IF EXISTS " + kDb + "; CREATE DATABASE " + kDb +
            " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci",
        "");
  u.load("schema-v1.sql");
  u.load("data-v1.sql");

  // Before: the v1 rows, and what the API must show of them.
  const auto tables = v1_tables(u);
  REQUIRE(tables.count("posts") == 1);
  REQUIRE(tables.count("event_details") == 1);
  const auto before = rows_of(u, tables);
  REQUIRE(before.at("posts").size() > 300);
  const std::string events = expected_events(u), venues = expected_venues(u),
                    organizers = expected_organizers(u), terms = expected_terms(u);
  const std::string listed = u.sql(
      "SELECT p.id FROM posts p JOIN event_details d ON d.event_id = p.id "
      "WHERE p.type = 'event' AND d.hide_from_listings = 0 ORDER BY d.start_utc, p.id");
  std::map<std::string, std::string> filters;  // query -> expected total
  for (const std::string& line :
       lines_of(u.sql("SELECT CONCAT('venue=', v.venue_id), COUNT(*) FROM event_venues v JOIN event_details "
                      "d ON d.event_id = v.event_id "
                      "WHERE d.hide_from_listings = 0 GROUP BY v.venue_id;"
                      "SELECT CONCAT('organizer=', o.organizer_id), COUNT(*) FROM event_organizers o JOIN "
                      "event_details d "
                      "ON d.event_id = o.event_id WHERE d.hide_from_listings = 0 GROUP BY o.organizer_id;"
                      "SELECT CONCAT(IF(t.taxonomy = 'post_tag', 'tags=', 'categories='), t.id), "
                      "COUNT(d.event_id) FROM terms t "
                      "LEFT JOIN term_relationships r ON r.term_id = t.id LEFT JOIN event_details d ON "
                      "d.event_id = r.event_id "
                      "AND d.hide_from_listings = 0 WHERE NOT EXISTS (SELECT 1 FROM terms c WHERE c.parent = "
                      "t.id) GROUP BY t.id"))) {
    filters[line.substr(0, line.find('\t'))] = line.substr(line.find('\t') + 1);
  }

  // The upgrade.
  const auto started = std::chrono::steady_clock::now();
  u.migrate();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  MESSAGE("calendarctl migrate of the v1 fixture: " << seconds << " s");
  CHECK(seconds < 30);

  // Nothing stored was lost or changed.
  const auto after = rows_of(u, tables);
  const std::string lost = difference(before, after, {"schema_migrations"});
  CHECK_MESSAGE(lost.empty(), lost);
  // Derived data agrees with what it is derived from.
  CHECK(u.sql("SELECT r.term_id, COUNT(*) FROM term_relationships r JOIN posts p ON p.id = r.event_id "
              "WHERE p.type = 'event' AND p.status = 'publish' GROUP BY r.term_id ORDER BY 1") ==
        u.sql("SELECT term_id, published FROM term_counts WHERE published <> 0 ORDER BY 1"));
  CHECK(u.sql("SELECT COUNT(*) FROM data_version") == "16\n");

  // Migrating again changes nothing: no table, column, index or trigger, no row, no version.
  const std::string schema = schema_of(u);
  const auto all_tables = v1_tables(u);
  const auto settled = rows_of(u, all_tables, true);
  u.migrate();
  CHECK(schema_of(u) == schema);
  const std::string moved = difference(settled, rows_of(u, all_tables, true), {});
  CHECK_MESSAGE(moved.empty(), moved);

  // Migration 8: every table and column of the upgraded database has a comment, and
  // it has the same tables, columns, keys and views, comments included, as a new database
  // (migration 8 gives both their comments; its ALTERs are ALGORITHM=INSTANT, so they fail
  // rather than copy a table whose definition they do not restate exactly).
  CHECK(u.sql("SELECT version FROM schema_migrations WHERE version = 8") == "8\n");
  CHECK(
      u.sql("SELECT CONCAT(c.TABLE_NAME, '.', c.COLUMN_NAME) FROM information_schema.COLUMNS c JOIN "
            "information_schema.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME "
            "WHERE c.TABLE_SCHEMA = DATABASE() AND t.TABLE_TYPE = 'BASE TABLE' AND c.COLUMN_COMMENT = ''") ==
      "");
  CHECK(
      u.sql(
          "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = "
          "'BASE TABLE' AND TABLE_COMMENT = ''") == "");
  u.migrate_new("upgrade_new");
  const std::string upgraded = show_create_all(u, kDb), created = show_create_all(u, "upgrade_new");
  CHECK(upgraded.find("CREATE ALGORITHM=MERGE") != std::string::npos);
  CHECK(upgraded == created);
  if (upgraded != created) {
    // The first line that differs, for the log.
    const auto a = lines_of(unescaped_lines(upgraded)), b = lines_of(unescaped_lines(created));
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
      if (a[i] != b[i]) {
        MESSAGE("upgraded: " << a[i] << "\nnew:      " << b[i]);
        break;
      }
  }
  // The same triggers and procedures too: v1's triggers that schema.sql now does under other
  // names (one insert trigger per table) are gone, none fires twice.
  CHECK(code_of(u, kDb) == code_of(u, "upgrade_new"));
  // Migration 8 changes comments only: a new database on which it never ran (its version noted
  // before the first migrate) differs from one on which it did in nothing else.
  const std::string script = u.schema_sql();
  const auto table = script.find("CREATE TABLE IF NOT EXISTS schema_migrations");
  REQUIRE(table != std::string::npos);
  u.migrate_new("upgrade_bare", script.substr(table, script.find(';', table) + 1 - table) +
                                    "\nINSERT INTO schema_migrations (version) VALUES (8);");
  const std::string bare = show_create_all(u, "upgrade_bare");
  CHECK(bare != created);
  CHECK(without_comments(bare) == without_comments(created));
  u.sql("DROP DATABASE upgrade_new; DROP DATABASE upgrade_bare", "");

  // Every record through the API of a service on the migrated database.
  u.serve();
  check_records(u, events, "events", event_line);
  check_records(u, venues, "venues", venue_line);
  check_records(u, organizers, "organizers", organizer_line);
  for (const char* taxonomy : {"categories", "tags"}) {
    std::map<std::string, std::string> got;
    for (int page = 1; page < 20; ++page) {
      const HttpResponse r =
          u.get(std::string("/") + taxonomy + "?hide_empty=false&per_page=50&page=" + std::to_string(page));
      REQUIRE_MESSAGE(r.status == 200, describe(r));
      const rapidjson::Document d = r.json();
      for (const auto& t : (*find(d, {taxonomy})).GetArray()) got[field(t, "id")] = term_line(t);
      if (!find(d, {"next_rest_url"})) break;
    }
    for (const std::string& want : lines_of(terms)) {
      if ((want.find("|post_tag|") != std::string::npos) != (std::string(taxonomy) == "tags")) continue;
      const std::string id = want.substr(0, want.find('|'));
      CHECK_MESSAGE(got[id] == want, taxonomy << " " << id << "\n  api: " << got[id] << "\n  v1:  " << want);
    }
  }
  // Lists: every listable event in order, and the filters find the same events.
  CHECK(listed_ids(u, kAllStatuses) == lines_of(listed));
  CHECK(filters.size() >= 10);
  for (const auto& [query, total] : filters) {
    const HttpResponse r = u.get("/events?" + kAllStatuses + "&" + query + "&per_page=1");
    REQUIRE_MESSAGE(r.status == 200, query << ": " << describe(r));
    CHECK_MESSAGE(r.header("x-wp-total") == total, query);
  }
}

TEST_CASE(
    "schema for the mysql client: build/schema-mysql.sql makes the database calendarctl migrate makes") {
  const Upgrade u;
  u.migrate_new("schema_migrated");
  u.sql(
      "DROP DATABASE IF EXISTS schema_loaded; CREATE DATABASE schema_loaded CHARACTER SET utf8mb4 COLLATE "
      "utf8mb4_unicode_ci",
      "");
  // Through the mariadb client, as docs/deploying.md says; twice, since loading it again is safe.
  const std::string script = u.schema_for_mysql();
  REQUIRE(script.find("DELIMITER $$") != std::string::npos);
  u.sql(script, "schema_loaded");
  const std::string once = show_create_all(u, "schema_loaded") + code_of(u, "schema_loaded");
  u.sql(script, "schema_loaded");
  CHECK(show_create_all(u, "schema_loaded") + code_of(u, "schema_loaded") == once);
  CHECK(show_create_all(u, "schema_loaded") == show_create_all(u, "schema_migrated"));
  CHECK(code_of(u, "schema_loaded") == code_of(u, "schema_migrated"));
  const std::string versions = "SELECT GROUP_CONCAT(version ORDER BY version) FROM schema_migrations";
  CHECK(u.sql(versions, "schema_loaded") == u.sql(versions, "schema_migrated"));
  u.sql("DROP DATABASE schema_loaded; DROP DATABASE schema_migrated", "");
}

TEST_CASE("migrate drops the insert triggers of one job each that one trigger per table replaced") {
  const Upgrade u;
  u.migrate_new("trig_fresh");
  u.migrate_new("trig_old");
  // A database of the release before: its own trigger per job (bodies do not matter here).
  const std::pair<const char*, const char*> kOld[] = {
      {"posts_version_ai", "posts"},
      {"posts_search_ai", "posts"},
      {"event_details_version_ai", "event_details"},
      {"event_details_days_ai", "event_details"},
      {"event_details_hours_ai", "event_details"},
      {"event_details_term_relationships_ai", "event_details"},
      {"event_details_event_organizers_ai", "event_details"},
      {"event_details_event_venues_ai", "event_details"},
      {"event_details_search_postings_ai", "event_details"},
      {"term_relationships_count_ai", "term_relationships"},
      {"term_relationships_version_ai", "term_relationships"},
  };
  std::string create;
  for (const auto& [name, table] : kOld)
    create += std::string("CREATE TRIGGER ") + name + " AFTER INSERT ON " + table +
              " FOR EACH ROW SET @cal_old_trigger = 1;\n";
  u.sql(create, "trig_old");
  CHECK(code_of(u, "trig_old") != code_of(u, "trig_fresh"));
  u.migrate_again("trig_old");
  CHECK(code_of(u, "trig_old") == code_of(u, "trig_fresh"));
  u.sql("DROP DATABASE trig_fresh; DROP DATABASE trig_old", "");
}

TEST_CASE("migrate replaces a procedure whose body changed, and leaves an unchanged one alone") {
  const Upgrade u;
  u.migrate_new("proc_fresh");
  // A database whose cal_note_change is another version (here an empty one): the triggers call
  // it, so an upgrade must bring the current body (CREATE OR REPLACE PROCEDURE).
  u.migrate_new("proc_old",
                "CREATE PROCEDURE cal_note_change(IN change_kind VARCHAR(16), IN changed_id BIGINT UNSIGNED) "
                "MODIFIES SQL DATA BEGIN END");
  CHECK(code_of(u, "proc_old") == code_of(u, "proc_fresh"));
  // The same body is not created again (that would wait for every writer running it).
  const std::string created =
      "SELECT CREATED FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE() AND ROUTINE_NAME = "
      "'cal_note_change'";
  const std::string before = u.sql(created, "proc_old");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  u.migrate_again("proc_old");
  CHECK(u.sql(created, "proc_old") == before);
  u.sql("DROP DATABASE proc_fresh; DROP DATABASE proc_old", "");
}

}  // namespace
}  // namespace caltest
