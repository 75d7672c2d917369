// The search index's upkeep of a write (src/store/search_index.cpp, docs/search.md): a created
// event is known to be pending and to have no postings, so its write neither reads its pending
// row nor takes old postings out; an update does both. Read from MariaDB's general query log
// around one create and one update through nginx.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/events.h"
#include "support/reliability.h"

namespace caltest {
namespace {

using namespace events;

// SQL on the stack's MariaDB; the rows, tab-separated, one a line.
Run sql(const std::string& statement) {
  return run("mariadb --no-defaults --user=root --batch --skip-column-names --socket='" + test_stack_dir() +
             "/mysqld.sock' -e \"" + statement + "\"");
}

// The statements of the transaction on the logged connection that ran a statement holding
// `marker`: from its START TRANSACTION to its COMMIT.
std::vector<std::string> transaction_with(const std::string& marker) {
  const Run thread =
      sql("SELECT thread_id FROM mysql.general_log WHERE argument LIKE '%" + marker + "%' LIMIT 1");
  if (thread.out.empty()) {
    // What the log holds instead: its state and a sample of its statements.
    const Run sample = run(
        "mariadb --no-defaults --user=root --batch --socket='" + test_stack_dir() +
        "/mysqld.sock' -e \"SELECT @@general_log, @@log_output, (SELECT COUNT(*) FROM mysql.general_log); "
        "SELECT thread_id, command_type, LEFT(REPLACE(CONVERT(argument USING utf8mb4), '\\n', ' '), 100) "
        "FROM "
        "mysql.general_log WHERE argument NOT LIKE '%data_version%' ORDER BY event_time LIMIT 40\" 2>&1");
    FAIL("no statement with ", marker, " in the general log\n", sample.out);
  }
  const Run log =
      sql("SELECT REPLACE(CONVERT(argument USING utf8mb4), '\\n', ' ') FROM mysql.general_log WHERE "
          "thread_id = " +
          thread.out.substr(0, thread.out.find('\n')) +
          " AND command_type IN ('Execute', 'Query') ORDER BY event_time");
  std::vector<std::string> current, found;
  std::istringstream in(log.out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("START TRANSACTION", 0) == 0) current.clear();
    current.push_back(line);
    if (line.rfind("COMMIT", 0) == 0) {
      for (const std::string& s : current)
        if (s.find(marker) != std::string::npos) found = current;
      current.clear();
    }
  }
  REQUIRE_MESSAGE(!found.empty(), "no committed transaction with ", marker, "\n", log.out);
  return found;
}

bool has(const std::vector<std::string>& statements, const std::string& start) {
  for (const std::string& s : statements)
    if (s.rfind(start, 0) == 0) return true;
  return false;
}

}  // namespace

TEST_CASE("a created event's index upkeep reads no pending row of its own and takes no postings out") {
  const std::string created_marker = unique("zqfresh"), updated_marker = unique("zqagain");
  REQUIRE(sql("SET GLOBAL log_output = 'TABLE'; TRUNCATE mysql.general_log; SET GLOBAL general_log = 1")
              .exit_code == 0);
  const long long id = create_id("Upkeep " + created_marker, days_ahead(9, "10:00"), days_ahead(9, "11:00"));
  const HttpResponse updated = post_json(std::string(kEvents) + "/" + std::to_string(id),
                                         "{\"title\":" + quoted("Upkeep " + updated_marker) + "}", {admin()});
  sql("SET GLOBAL general_log = 0");
  REQUIRE_MESSAGE(updated.status == 200, describe(updated));
  const std::vector<std::string> create = transaction_with(created_marker);
  const std::vector<std::string> update = transaction_with(updated_marker);
  sql("SET GLOBAL log_output = 'FILE'; TRUNCATE mysql.general_log");

  const std::string own_pending =
      "SELECT event_id FROM search_pending WHERE event_id = " + std::to_string(id);
  const std::string postings_out = "DELETE FROM search_postings";
  CHECK(has(create, "INSERT INTO search_postings"));
  CHECK_FALSE(has(create, own_pending));
  CHECK_FALSE(has(create, postings_out));
  // The update, whose event has postings, still takes them out: the log shows both kinds.
  CHECK(has(update, "INSERT INTO search_postings"));
  CHECK(has(update, own_pending));
  CHECK(has(update, postings_out));
}

}  // namespace caltest
