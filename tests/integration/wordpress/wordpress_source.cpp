// WordPress source databases for the import tests (see wordpress_source.h).
#include "wordpress_source.h"

#include "support/client.h"
#include "support/commands.h"

#include <doctest/doctest.h>
#include <rapidjson/document.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace wptest {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  REQUIRE_MESSAGE(v != nullptr, name << " is not set (run through scripts/run-tests.sh)");
  return v;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A SQL string literal.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::string text_of(const rapidjson::Value& v) {
  if (v.IsString()) return std::string(v.GetString(), v.GetStringLength());
  if (v.IsInt64()) return std::to_string(v.GetInt64());
  return "";
}

int counter = 0;

}  // namespace

std::string socket_path() { return env("CAL_TEST_DIR") + "/mysqld.sock"; }

std::string fixtures_dir() {
  // calendarctl lives in the build directory, which lies in the checkout.
  const std::string ctl = env("CAL_TEST_CTL");
  std::string build = ctl.substr(0, ctl.find(' '));
  build = build.substr(0, build.rfind('/'));
  return build + "/../tests/fixtures/wordpress";
}

SourceDb::SourceDb(const std::string& dump, const std::string& siteurl, const std::string& prefix)
    : prefix_(prefix) {
  name_ = "wpsrc_" + std::to_string(getpid()) + "_" + std::to_string(++counter);
  const caltest::Run created =
      caltest::run("mariadb --no-defaults --socket=" + socket_path() +
                   " -uroot -e 'DROP DATABASE IF EXISTS " + name_ + "; CREATE DATABASE " + name_ + "' 2>&1");
  REQUIRE_MESSAGE(created.exit_code == 0, created.out);
  if (!dump.empty()) {
    const caltest::Run loaded =
        caltest::run("mariadb --no-defaults --default-character-set=utf8mb4 --socket=" + socket_path() +
                     " -uroot " + name_ + " < " + fixtures_dir() + "/" + dump + " 2>&1");
    REQUIRE_MESSAGE(loaded.exit_code == 0, dump << ": " << loaded.out);
  }
  if (!siteurl.empty())
    sql("UPDATE " + prefix_ + "options SET option_value = " + quoted(siteurl) +
        " WHERE option_name IN ('siteurl', 'home')");
}

SourceDb::~SourceDb() {
  caltest::run("mariadb --no-defaults --socket=" + socket_path() + " -uroot -e 'DROP DATABASE IF EXISTS " +
               name_ + "' >/dev/null 2>&1");
}

std::string SourceDb::from() const {
  return "--from mysql://root@localhost/" + name_ + " --socket " + socket_path();
}

std::string SourceDb::sql(const std::string& statements) const {
  const std::string file = env("CAL_TEST_DIR") + "/" + name_ + ".sql";
  std::ofstream(file, std::ios::binary) << statements;
  const caltest::Run r =
      caltest::run("mariadb --no-defaults --default-character-set=utf8mb4 --socket=" + socket_path() +
                   " -uroot -N -B " + name_ + " < " + file + " 2>&1");
  REQUIRE_MESSAGE(r.exit_code == 0, statements.substr(0, 400) << "\n" << r.out);
  std::string out = r.out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

void SourceDb::add_post(long long id, const std::string& type,
                        const std::map<std::string, std::string>& fields) const {
  std::map<std::string, std::string> row = {{"post_author", "1"},
                                            {"post_date", "2019-06-11 13:59:35"},
                                            {"post_date_gmt", "2019-06-11 13:59:35"},
                                            {"post_content", ""},
                                            {"post_title", "Post " + std::to_string(id)},
                                            {"post_excerpt", ""},
                                            {"post_status", "publish"},
                                            {"comment_status", "closed"},
                                            {"ping_status", "closed"},
                                            {"post_password", ""},
                                            {"post_name", "post-" + std::to_string(id)},
                                            {"to_ping", ""},
                                            {"pinged", ""},
                                            {"post_modified", "2019-06-11 13:59:35"},
                                            {"post_modified_gmt", "2019-06-11 13:59:35"},
                                            {"post_content_filtered", ""},
                                            {"post_parent", "0"},
                                            {"guid", ""},
                                            {"menu_order", "0"},
                                            {"post_mime_type", ""},
                                            {"comment_count", "0"}};
  for (const auto& [k, v] : fields) row[k] = v;
  std::string columns = "ID, post_type", values = std::to_string(id) + ", " + quoted(type);
  for (const auto& [k, v] : row) {
    columns += ", " + k;
    values += ", " + quoted(v);
  }
  sql("INSERT INTO " + prefix_ + "posts (" + columns + ") VALUES (" + values + ");");
}

void SourceDb::add_meta(long long post_id,
                        const std::vector<std::pair<std::string, std::string>>& meta) const {
  if (meta.empty()) return;
  std::string statements;
  for (const auto& [k, v] : meta)
    statements += "INSERT INTO " + prefix_ + "postmeta (post_id, meta_key, meta_value) VALUES (" +
                  std::to_string(post_id) + ", " + quoted(k) + ", " + quoted(v) + ");\n";
  sql(statements);
}

void SourceDb::add_post_json(const std::string& file, long long id) const {
  rapidjson::Document d;
  const std::string text = read_file(fixtures_dir() + "/tec-remap/" + file);
  d.Parse(text.c_str(), text.size());
  REQUIRE_MESSAGE(d.IsObject(), file);
  std::map<std::string, std::string> fields;
  for (const auto& m : d.GetObject()) {
    const std::string key = m.name.GetString();
    if (key == "ID" || key == "post_type" || key == "meta_input" || key == "filter") continue;
    fields[key] = text_of(m.value);
  }
  const long long post_id = id ? id : d["ID"].GetInt64();
  add_post(post_id, d["post_type"].GetString(), fields);
  std::vector<std::pair<std::string, std::string>> meta;
  for (const auto& m : d["meta_input"].GetObject())
    for (const auto& v : m.value.GetArray()) meta.emplace_back(m.name.GetString(), text_of(v));
  add_meta(post_id, meta);
}

long long Import::id_of(const std::string& kind, long long source_id) const {
  if (report.IsObject())
    for (const auto& c : report["changes"].GetArray())
      if (kind == c["kind"].GetString() && c["source_id"].GetInt64() == source_id &&
          std::string(c["field"].GetString()) == "id")
        return c["id"].GetInt64();
  return source_id;
}

bool Import::changed(const std::string& kind, long long source_id, const std::string& field,
                     const std::string& words) const {
  if (!report.IsObject()) return false;
  for (const auto& c : report["changes"].GetArray())
    if (kind == c["kind"].GetString() && c["source_id"].GetInt64() == source_id &&
        field == c["field"].GetString() &&
        std::string(c["reason"].GetString()).find(words) != std::string::npos)
      return true;
  return false;
}

long long Import::count(const std::string& kind, const std::string& which) const {
  REQUIRE(report.IsObject());
  const auto* v = caltest::find(report, {"counts", kind, which});
  REQUIRE_MESSAGE(v != nullptr, kind << "." << which);
  return v->GetInt64();
}

Import import_raw(const std::string& args) {
  const std::string dir = env("CAL_TEST_DIR");
  const std::string report =
      dir + "/wp-report-" + std::to_string(getpid()) + "-" + std::to_string(++counter) + ".json";
  const std::string err = report + ".err";
  Import out;
  const caltest::Run r =
      caltest::run(caltest::ctl() + " import-wordpress " + args + " --report " + report + " 2>" + err);
  out.exit_code = r.exit_code;
  out.out = r.out;
  out.err = read_file(err);
  const std::string json = read_file(report);
  if (!json.empty()) out.report.Parse(json.c_str(), json.size());
  caltest::run("rm -f " + report + " " + err);
  return out;
}

Import import(const SourceDb& db, const std::string& extra) { return import_raw(db.from() + " " + extra); }

std::string target_sql(const std::string& statement) {
  const caltest::Run r = caltest::run("mariadb --no-defaults --socket=" + socket_path() +
                                      " --user=root -N -B calendar -e \"" + statement + "\"");
  REQUIRE_MESSAGE(r.exit_code == 0, statement);
  std::string out = r.out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

rapidjson::Document record(const std::string& path) {
  const auto r = caltest::get("/cal/events/v1" + path, {caltest::bearer(caltest::admin_token())});
  REQUIRE_MESSAGE(r.status == 200, path << ": " << r.body);
  return r.json();
}

}  // namespace wptest
