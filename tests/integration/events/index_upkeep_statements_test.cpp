// The search index's upkeep of a write (src/store/search_index.cpp, docs/search.md): a created
// event is known to be pending and to have no postings, so its write neither reads its pending
// row nor takes old postings out; an update does both. Read from MariaDB's general query log
// around one create and one update through nginx. The log shows a statement prepared before it
// was turned on with its placeholders, not its values: transactions are told apart by order.
#include <doctest/doctest.h>

#include <map>
#include <sstream>
#include <string>
#include <utility>
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

// The committed transactions in the log that wrote search postings, in the order they began:
// each the statements from its START TRANSACTION to its COMMIT.
std::vector<std::vector<std::string>> indexing_transactions() {
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
      for (const std::string& s : current)
        if (s.rfind("INSERT INTO search_postings", 0) == 0) {
          found.push_back(current);
          break;
        }
      current.clear();
    }
  }
  return found;
}

bool has(const std::vector<std::string>& statements, const std::string& start) {
  for (const std::string& s : statements)
    if (s.rfind(start, 0) == 0) return true;
  return false;
}

}  // namespace

TEST_CASE("a created event's index upkeep reads no pending row of its own and takes no postings out") {
  REQUIRE(sql("SET GLOBAL log_output = 'TABLE'; TRUNCATE mysql.general_log; SET GLOBAL general_log = 1")
              .exit_code == 0);
  const long long id =
      create_id("Upkeep " + unique("zqfresh"), days_ahead(9, "10:00"), days_ahead(9, "11:00"));
  const HttpResponse updated =
      post_json(std::string(kEvents) + "/" + std::to_string(id),
                "{\"title\":" + quoted("Upkeep " + unique("zqagain")) + "}", {admin()});
  sql("SET GLOBAL general_log = 0");
  REQUIRE_MESSAGE(updated.status == 200, describe(updated));
  const std::vector<std::vector<std::string>> written = indexing_transactions();
  sql("SET GLOBAL log_output = 'FILE'; TRUNCATE mysql.general_log");
  REQUIRE(written.size() == 2);
  const std::vector<std::string>& create = written[0];
  const std::vector<std::string>& update = written[1];
  CAPTURE(create.size());
  CAPTURE(update.size());

  // Its own pending row by its key ("event_id = ?", or the value), not the others' ("<> ?").
  const std::string own_pending = "SELECT event_id FROM search_pending WHERE event_id = ";
  const std::string postings_out = "DELETE FROM search_postings";
  CHECK(has(create, "INSERT INTO posts"));
  CHECK_FALSE(has(create, own_pending));
  CHECK_FALSE(has(create, postings_out));
  // The update, whose event has postings, still takes them out: the log shows both kinds.
  CHECK(has(update, "UPDATE posts"));
  CHECK(has(update, own_pending));
  CHECK(has(update, postings_out));
}

}  // namespace caltest
