// `calendarctl db-account create`: the service's own database account with
// server-side limits, the bulkhead that holds where no in-process counter exists (CGI, many
// hosts). Checked on the test stack's MariaDB: the account exists with the limits asked for, a
// statement over its time budget fails with 1969, and a connection over its count with 1226.
#include "support/client.h"
#include "support/commands.h"
#include "support/reliability.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <string>
#include <thread>

using caltest::ctl;
using caltest::line_value;
using caltest::run;
using caltest::Run;

namespace {

std::string test_dir() {
  const std::string dir = caltest::test_stack_dir();
  REQUIRE_MESSAGE(!dir.empty(), "scripts/run-tests.sh sets CAL_TEST_DIR");
  return dir;
}

// The mariadb client on the stack's socket as `user` (root: no password), one statement, its
// output and error text.
Run client_as(const std::string& user, const std::string& password, const std::string& sql) {
  return run("mariadb --no-defaults --batch --skip-column-names --socket='" + test_dir() +
             "/mysqld.sock' --user=" + user + (password.empty() ? "" : " --password=" + password) +
             " calendar -e \"" + sql + "\" 2>&1");
}

}  // namespace

TEST_CASE("calendarctl db-account create makes an account with both limits that MariaDB enforces") {
  const std::string user = caltest::unique("svc");
  const Run made =
      run(ctl() + " db-account create " + user + " --max-connections 2 --max-statement-time 0.2 2>/dev/null");
  REQUIRE_MESSAGE(made.exit_code == 0, made.out);
  CHECK(line_value(made.out, "user") == user);
  const std::string password = line_value(made.out, "password");
  REQUIRE(password.size() == 32);

  const Run limits =
      client_as("root", "",
                "SELECT max_user_connections, max_statement_time FROM mysql.user WHERE User = '" + user +
                    "' AND Host = 'localhost'");
  CHECK(limits.exit_code == 0);
  CHECK(limits.out == "2\t0.200000\n");

  // The account reads the service's tables, and a statement past its budget is stopped.
  const Run read = client_as(user, password, "SELECT COUNT(*) > 0 FROM posts");
  CHECK_MESSAGE(read.exit_code == 0, read.out);
  const Run slow = client_as(user, password, "SELECT SLEEP(2)");
  CHECK(slow.exit_code != 0);
  CHECK_MESSAGE(slow.out.find("1969") != std::string::npos, slow.out);

  // A third connection at once is refused: two sessions hold the account's two connections
  // (statements that each stay within the budget: it is per statement).
  auto hold = [&] {
    return client_as(user, password,
                     "SELECT SLEEP(0.15); SELECT SLEEP(0.15); SELECT SLEEP(0.15); SELECT SLEEP(0.15)");
  };
  auto a = std::async(std::launch::async, hold);
  auto b = std::async(std::launch::async, hold);
  const std::string sessions =
      "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = '" + user + "'";
  for (int i = 0; i < 100 && client_as("root", "", sessions).out != "2\n"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const Run third = client_as(user, password, "SELECT 1");
  a.get();
  b.get();
  CHECK_MESSAGE(third.out.find("1226") != std::string::npos, third.out);

  // The same name again is an error, not a silent change of the limits.
  const Run again =
      run(ctl() + " db-account create " + user + " --max-connections 5 --max-statement-time 1 2>&1");
  CHECK(again.exit_code == 1);
  CHECK(client_as("root", "", "DROP USER '" + user + "'@'localhost'").exit_code == 0);
}

TEST_CASE("calendarctl db-account create refuses what it cannot put into SQL safely") {
  for (const std::string bad : {"'x'", "a b", "x;DROP", ""}) {
    const Run r = run(ctl() + " db-account create \"" + bad +
                      "\" --max-connections 2 --max-statement-time 1 2>/dev/null");
    CHECK_MESSAGE(r.exit_code == 2, bad);
  }
  CHECK(run(ctl() + " db-account create svc_x --max-connections 2 2>/dev/null").exit_code == 2);
  CHECK(run(ctl() + " db-account create svc_x --max-connections two --max-statement-time 1 2>/dev/null")
            .exit_code == 2);
}
