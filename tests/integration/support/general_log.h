// MariaDB's general query log on the test stack's database, for tests that count or inspect the
// statements a request runs (the triggers' statements are logged too). The log shows a statement
// prepared before it was turned on with its placeholders, not its values: tell transactions apart
// by order and by the statements they hold. Header-only.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/reliability.h"

namespace caltest {
namespace general_log {

// SQL on the stack's MariaDB as root; the rows, tab-separated, one a line.
inline Run sql(const std::string& statement) {
  return run("mariadb --no-defaults --user=root --batch --skip-column-names --socket='" + test_stack_dir() +
             "/mysqld.sock' -e \"" + statement + "\"");
}

// The committed transactions in the log, in the order they began: each the statements from its
// START TRANSACTION to its COMMIT.
inline std::vector<std::vector<std::string>> committed_transactions() {
  const Run log = sql(
      "SELECT thread_id, REPLACE(CONVERT(argument USING utf8mb4), '\\n', ' ') FROM mysql.general_log WHERE "
      "command_type IN ('Execute', 'Query') ORDER BY event_time");
  std::map<std::string, std::vector<std::string>> open;  // by thread
  std::vector<std::vector<std::string>> found;
  std::istringstream in(log.out);
  for (std::string line; std::getline(in, line);) {
    const std::size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    const std::string thread = line.substr(0, tab), statement = line.substr(tab + 1);
    std::vector<std::string>& current = open[thread];
    if (statement.rfind("START TRANSACTION", 0) == 0) current.clear();
    current.push_back(statement);
    if (statement.rfind("COMMIT", 0) == 0) {
      found.push_back(current);
      current.clear();
    }
  }
  return found;
}

// Whether a statement of `statements` starts with `start`.
inline bool has(const std::vector<std::string>& statements, const std::string& start) {
  for (const std::string& s : statements)
    if (s.rfind(start, 0) == 0) return true;
  return false;
}

// How many statements of `statements` contain `part`.
inline int count_containing(const std::vector<std::string>& statements, const std::string& part) {
  int n = 0;
  for (const std::string& s : statements) n += s.find(part) != std::string::npos;
  return n;
}

// Those of `transactions` with a statement starting with `start`.
inline std::vector<std::vector<std::string>> with(const std::vector<std::vector<std::string>>& transactions,
                                                  const std::string& start) {
  std::vector<std::vector<std::string>> found;
  for (const auto& t : transactions)
    if (has(t, start)) found.push_back(t);
  return found;
}

// Empties the log and starts logging every statement into it.
inline void on() {
  REQUIRE(sql("SET GLOBAL log_output = 'TABLE'; TRUNCATE mysql.general_log; SET GLOBAL general_log = 1")
              .exit_code == 0);
}

// Stops logging; the transactions logged since on(), then the log emptied.
inline std::vector<std::vector<std::string>> off() {
  sql("SET GLOBAL general_log = 0");
  std::vector<std::vector<std::string>> transactions = committed_transactions();
  sql("SET GLOBAL log_output = 'FILE'; TRUNCATE mysql.general_log");
  return transactions;
}

// A visitor's GET of `path` (made unique, so that no cache answers it) and the statements it
// prepared, executed or sent, one an element.
struct LoggedGet {
  HttpResponse response;
  std::vector<std::string> statements;
};
inline LoggedGet logged_get(const std::string& path) {
  on();
  LoggedGet got;
  got.response = get(path + (path.find('?') == std::string::npos ? "?" : "&") + "nocache=" + unique("n"));
  const std::string log = sql("SELECT REPLACE(CONVERT(argument USING utf8mb4), '\\n', ' ') FROM "
                              "mysql.general_log WHERE command_type IN ('Prepare', 'Execute', 'Query')")
                              .out;
  off();
  for (std::size_t at = 0; at < log.size();) {
    const std::size_t end = std::min(log.find('\n', at), log.size());
    got.statements.push_back(log.substr(at, end - at));
    at = end + 1;
  }
  return got;
}

}  // namespace general_log
}  // namespace caltest
