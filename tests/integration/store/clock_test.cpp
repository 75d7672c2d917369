// The test binary, calendar-fcgi and MariaDB read one clock (docs/testing.md, test-clock): expectations
// computed here from "now", the service's relative dates and the database's UTC_TIMESTAMP() (a
// scheduled post's publication) agree only then. scripts/run-clock-tests.sh runs the stack under
// a fake clock; this is what shows that every process of it got that clock.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "support/client.h"
#include "support/commands.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

long long test_clock() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// UNIX_TIMESTAMP() of the stack's MariaDB through the mariadb client (scripts/run-tests.sh
// always names the stack directory in CAL_TEST_DIR).
long long database_clock() {
  const char* dir = std::getenv("CAL_TEST_DIR");
  REQUIRE_MESSAGE(dir != nullptr, "CAL_TEST_DIR must name the test stack's directory");
  REQUIRE_MESSAGE(std::ifstream(std::string(dir) + "/mysqld.pid"), "no MariaDB pid file in CAL_TEST_DIR");
  const std::string command = "mariadb --no-defaults --socket='" + std::string(dir) +
                              "/mysqld.sock' --user=root -N -B -e 'SELECT UNIX_TIMESTAMP()'";
  const Run r = run(command);
  REQUIRE_MESSAGE(r.exit_code == 0, r.out);
  long long seconds = 0;
  REQUIRE_MESSAGE(std::sscanf(r.out.c_str(), "%lld", &seconds) == 1, r.out);
  return seconds;
}

TEST_CASE("the tests, the service and the database read one clock") {
  const long long before = test_clock();
  const rapidjson::Document e = create(event_body(unique("clock"), "now", "+1 hour", "\"timezone\":\"UTC\""));
  const long long service = seconds_of(string_at(e, {"utc_start_date"}));
  const long long database = database_clock();
  const long long after = test_clock();
  CAPTURE(before);
  CAPTURE(service);
  CAPTURE(database);
  // Whole seconds read at different moments of one run: 2 s of slack either way.
  CHECK(service >= before - 2);
  CHECK(service <= after + 2);
  CHECK(database >= before - 2);
  CHECK(database <= after + 2);
}

}  // namespace
}  // namespace caltest
