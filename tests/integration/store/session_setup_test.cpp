// A new database connection's session set-up (src/store/db.cpp): character set, time zone,
// sql_mode and READ COMMITTED in one statement after the Connector's own, because CGI mode
// connects on every request and each round trip counts (docs/performance.md, "CGI"). Read from
// MariaDB's general query log around one CGI request.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "support/commands.h"
#include "support/reliability.h"

namespace caltest {
namespace {

// SQL on the stack's MariaDB; the rows, tab-separated, one a line.
Run sql(const std::string& statement) {
  return run("mariadb --no-defaults --user=root --batch --skip-column-names --socket='" + test_stack_dir() +
             "/mysqld.sock' -e \"" + statement + "\"");
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST_CASE("a new connection sets its session up in one statement of its own") {
  // An id no event has: the request still runs its one statement, and the log shows its value.
  const std::string marker = "987654321987";
  REQUIRE(sql("SET GLOBAL log_output = 'TABLE'; TRUNCATE mysql.general_log; SET GLOBAL general_log = 1")
              .exit_code == 0);
  const Run cgi = run("env -i REQUEST_METHOD=GET SCRIPT_NAME=/api PATH_INFO=/cal/events/v1/events/" + marker +
                      " HTTP_HOST=example.org " + service_command() + " </dev/null 2>/dev/null");
  const Run thread =
      sql("SELECT thread_id FROM mysql.general_log WHERE command_type = 'Execute' AND argument LIKE '%" +
          marker + "%' LIMIT 1");
  Run log;
  if (!thread.out.empty()) {
    log = sql(
        "SELECT command_type, REPLACE(CONVERT(argument USING utf8mb4), '\\n', ' ') FROM mysql.general_log "
        "WHERE thread_id = " +
        thread.out.substr(0, thread.out.find('\n')) + " ORDER BY event_time");
  }
  sql("SET GLOBAL general_log = 0; SET GLOBAL log_output = 'FILE'; TRUNCATE mysql.general_log");
  CHECK_MESSAGE(cgi.out.rfind("Status: 404", 0) == 0, cgi.out);
  REQUIRE_MESSAGE(!thread.out.empty(), "no statement with ", marker, " in the general log");

  // The queries before the first prepared statement: the Connector's, then the service's.
  std::vector<std::string> queries;
  for (const std::string& line : lines_of(log.out)) {
    if (line.rfind("Prepare\t", 0) == 0) break;
    if (line.rfind("Query\t", 0) == 0) queries.push_back(line.substr(6));
  }
  CAPTURE(log.out);
  REQUIRE_FALSE(queries.empty());
  int ours = 0;
  for (const std::string& q : queries) {
    if (q.rfind("SET NAMES", 0) == 0) ++ours;
    CHECK_MESSAGE(q.find("READ COMMITTED") == std::string::npos,
                  "a statement of its own for the isolation: ", q);
  }
  CHECK(ours == 1);
  const std::string& setup = queries.back();
  CHECK(setup.rfind("SET NAMES utf8mb4", 0) == 0);
  CHECK(setup.find("time_zone = '+00:00'") != std::string::npos);
  CHECK(setup.find("sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION'") != std::string::npos);
  CHECK(setup.find("isolation = 'READ-COMMITTED'") != std::string::npos);
}

}  // namespace
}  // namespace caltest
