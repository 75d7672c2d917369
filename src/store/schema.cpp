// Creating the database and applying schema scripts (see cal/store/schema.h).
#include "cal/store/schema.h"

#include "cal/core/text/ascii.h"
#include "cal/store/db.h"

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace cal {
namespace {

// The trigger a "CREATE TRIGGER IF NOT EXISTS <name> ..." statement creates, or "".
std::string trigger_created_by(const std::string& statement) {
  static constexpr std::string_view kPrefix = "CREATE TRIGGER IF NOT EXISTS ";
  const auto first = statement.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || statement.compare(first, kPrefix.size(), kPrefix) != 0) return {};
  const auto begin = first + kPrefix.size();
  return statement.substr(begin, statement.find_first_of(" \t\r\n", begin) - begin);
}

// For "CREATE OR REPLACE TRIGGER name ... FOR EACH ROW body;": {name, body without the final ';'};
// empty for any other statement.
std::pair<std::string, std::string> trigger_replaced_by(const std::string& statement) {
  static constexpr std::string_view kPrefix = "CREATE OR REPLACE TRIGGER ";
  static constexpr std::string_view kBody = "FOR EACH ROW";
  const auto first = statement.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || statement.compare(first, kPrefix.size(), kPrefix) != 0) return {};
  const auto begin = first + kPrefix.size();
  const auto body = statement.find(kBody);
  if (body == std::string::npos) return {};
  std::string text = statement.substr(body + kBody.size());
  while (!text.empty() && (ascii::is_space(text.back()) || text.back() == ';')) text.pop_back();
  return {statement.substr(begin, statement.find_first_of(" \t\r\n", begin) - begin), text};
}

// For "CREATE OR REPLACE PROCEDURE name(...) ... BEGIN ... END;": {name, body from BEGIN without
// the final ';'}; empty for any other statement. The parameter list is not compared: a change of
// it comes with a change of the body that uses it.
std::pair<std::string, std::string> procedure_replaced_by(const std::string& statement) {
  static constexpr std::string_view kPrefix = "CREATE OR REPLACE PROCEDURE ";
  const auto first = statement.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || statement.compare(first, kPrefix.size(), kPrefix) != 0) return {};
  const auto begin = first + kPrefix.size();
  const auto params = statement.find('(', begin);
  if (params == std::string::npos) return {};
  const auto body = statement.find("BEGIN", params);
  if (body == std::string::npos) return {};
  std::string text = statement.substr(body);
  while (!text.empty() && (ascii::is_space(text.back()) || text.back() == ';')) text.pop_back();
  std::string name = statement.substr(begin, params - begin);
  while (!name.empty() && ascii::is_space(name.back())) name.pop_back();
  return {name, text};
}

// Runs of white space as one space, none at the ends: bodies compared as the server keeps them.
std::string squeezed(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (ascii::is_space(c)) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

bool valid_database_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (unsigned char c : name)
    if (!ascii::is_alnum(static_cast<char>(c)) && c != '_') return false;
  return true;
}

void migrate_database(const DatabaseConfig& config, std::string_view schema_script) {
  if (!valid_database_name(config.name))
    throw std::invalid_argument("database.name must be letters, digits and _");
  DatabaseConfig server_only = config;
  server_only.name.clear();
  Db server(server_only);
  server.execute_unprepared("CREATE DATABASE IF NOT EXISTS `" + config.name +
                            "` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
  Db db(config);
  apply_schema_script(db, schema_script);
}

void apply_schema_script(Db& db, std::string_view script) {
  std::istringstream in{std::string(script)};
  std::string line, statement;
  auto run = [&] {
    // CREATE TRIGGER takes an exclusive metadata lock on its table even when IF NOT EXISTS
    // finds the trigger there, and so deadlocked the service's writing transactions whenever
    // `calendarctl migrate` ran beside them (stack.sh runs it on every start): existing
    // triggers are skipped without touching their table.
    if (const std::string trigger = trigger_created_by(statement); !trigger.empty()) {
      Rows rows = db.query(
          "SELECT 1 FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME = ?",
          {trigger});
      if (rows.next()) return;
    }
    // Whether `select` (of the stored body of the object named `name`) finds `body` there.
    auto stored_as = [&](const char* select, const std::string& name, const std::string& body) {
      Rows rows = db.query(select, {name});
      return rows.next() && squeezed(rows.text(0)) == squeezed(body);
    };
    // A replaced trigger is replaced only when its body differs from the stored one, for the
    // same reason: an unchanged schema takes no lock.
    if (const auto [trigger, body] = trigger_replaced_by(statement);
        !trigger.empty() && stored_as("SELECT ACTION_STATEMENT FROM information_schema.TRIGGERS WHERE "
                                      "TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME = ?",
                                      trigger, body))
      return;
    // A procedure the triggers call likewise (replacing it waits for the writers running it).
    if (const auto [procedure, body] = procedure_replaced_by(statement);
        !procedure.empty() && stored_as("SELECT ROUTINE_DEFINITION FROM information_schema.ROUTINES WHERE "
                                        "ROUTINE_SCHEMA = DATABASE() AND ROUTINE_TYPE = 'PROCEDURE' AND "
                                        "ROUTINE_NAME = ?",
                                        procedure, body))
      return;
    db.execute_unprepared(statement);
  };
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line.compare(first, 2, "--") == 0) continue;
    statement += line + "\n";
    const auto last = line.find_last_not_of(" \t\r");
    if (last != std::string::npos && line[last] == ';') {
      run();
      statement.clear();
    }
  }
  if (statement.find_first_not_of(" \t\r\n") != std::string::npos) run();
}

std::vector<std::string> schema_tables(std::string_view script) {
  static constexpr std::string_view kPrefix = "CREATE TABLE IF NOT EXISTS ";
  std::vector<std::string> out;
  std::istringstream in{std::string(script)};
  std::string line;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line.compare(first, kPrefix.size(), kPrefix) != 0) continue;
    const auto begin = first + kPrefix.size();
    const auto end = line.find_first_of(" \t(", begin);
    out.push_back(line.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
  }
  return out;
}

}  // namespace cal
