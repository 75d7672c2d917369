// calendarctl doctor (docs/operations.md) against the test stack: every check ok on the sound
// deployment, then one broken fixture per check, each failing that check (and the exit status)
// with its fix; a clock a few seconds off only warns. An unknown option in the config file is the
// config check's failure, and the other checks still run. Privileges, MariaDB's time zones and the
// web server: doctor_deployment_test.cpp.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "support/commands.h"
#include "support/doctor.h"
#include "support/engine.h"
#include "support/reliability.h"

namespace caltest {
namespace {

using doctor::line_starting;

std::string socket_option() { return " --socket=unix:" + test_stack_dir() + "/calendar.sock"; }

}  // namespace

// faketime preloads libfaketime, which the sanitizer build's runtime refuses to follow unless
// told not to check its place in the library list (make test-asan runs these tests too).
const std::string kFaketime =
    "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 faketime ";

TEST_CASE("calendarctl doctor: every check ok on the test stack, exit status 0") {
  const Run r = run(ctl() + socket_option() + " doctor 2>&1");
  CHECK_MESSAGE(r.exit_code == 0, r.out);
  for (const char* check : {"config", "database", "schema", "clocks", "privileges", "migrate privileges",
                            "time zone", "access log", "slow log", "socket"})
    CHECK_MESSAGE(!line_starting(r.out, std::string("ok: ") + check + ": ").empty(), check << "\n" << r.out);
  CHECK(r.out.find("failure") == std::string::npos);
}

TEST_CASE("calendarctl doctor: each broken fixture fails its check with the fix, exit status 1") {
  engine::sql(
      "CREATE DATABASE IF NOT EXISTS doctor_old; "
      "CREATE TABLE IF NOT EXISTS doctor_old.schema_migrations (version INT PRIMARY KEY); "
      "INSERT IGNORE INTO doctor_old.schema_migrations VALUES (1), (2), (3)");
  struct Case {
    const char* faketime;  // faketime's options, when the case needs another clock
    const char* options;
    const char* line;  // the start of the failing line
    const char* fix;   // part of its fix
  };
  static const Case kCases[] = {
      {"", "--database.socket=/nonexistent/mysqld.sock", "failure: database: cannot connect",
       "start the database"},
      {"", "--database.name=doctor_old", "failure: schema: version 3, this build expects",
       "calendarctl migrate"},
      {"", "--site.timezone=Mars/Olympus_Mons", "failure: time zone: [site] timezone Mars/Olympus_Mons",
       "install tzdata"},
      {"", "--log.access=/nonexistent/dir/access.log", "failure: access log: cannot write", "writable"},
      {"", "--log.slow=/nonexistent/dir/slow.log", "failure: slow log: cannot write", "writable"},
      {"", "--socket=unix:/nonexistent/calendar.sock", "failure: socket: nothing accepts connections",
       "start calendar-fcgi"},
      {"-f -30s ", "", "failure: clocks: the database's clock is +", "NTP"},
  };
  for (const Case& c : kCases) {
    const std::string options = c.options, prefix = *c.faketime ? kFaketime + c.faketime : "";
    CAPTURE(options);
    CAPTURE(prefix);
    const std::string socket = options.rfind("--socket", 0) == 0 ? "" : socket_option();
    const Run r = run(prefix + ctl() + socket + " " + options + " doctor 2>&1");
    CHECK_MESSAGE(r.exit_code == 1, r.out);
    const std::string line = line_starting(r.out, c.line);
    CHECK_MESSAGE(!line.empty(), r.out);
    CHECK_MESSAGE(line.find(std::string("; fix: ")) != std::string::npos, line);
    CHECK_MESSAGE(line.find(c.fix) != std::string::npos, line);
  }
  engine::sql("DROP DATABASE doctor_old");
}

TEST_CASE("calendarctl doctor: a clock a few seconds off warns, exit status 0") {
  const Run r = run(kFaketime + "-f -3s " + ctl() + socket_option() + " doctor 2>&1");
  CHECK_MESSAGE(r.exit_code == 0, r.out);
  CHECK_MESSAGE(!line_starting(r.out, "warning: clocks: the database's clock is +").empty(), r.out);
}

TEST_CASE("calendarctl doctor: an unknown option of the config file fails the config check, the rest run") {
  // The stack's own config with one misspelt option: every other check still has what it needs.
  std::string conf = read_text_file(test_stack_dir() + "/calendar.conf");
  const std::size_t server = conf.find("[server]\n");
  REQUIRE(server != std::string::npos);
  conf.insert(server + 9, "threadz = 4\n");
  const std::string path = test_stack_dir() + "/doctor-unknown.conf";
  std::ofstream(path) << conf;
  const std::string bin = ctl().substr(0, ctl().find(' '));
  const Run r = run(bin + " --config " + path + socket_option() + " doctor 2>&1");
  // Every other command still refuses such a file before doing anything, as calendar-fcgi does.
  const Run other = run(bin + " --config " + path + " user list 2>&1");
  std::remove(path.c_str());
  CHECK_MESSAGE(r.exit_code == 1, r.out);
  const std::string line = line_starting(r.out, "failure: config: unknown option server.threadz");
  CHECK_MESSAGE(line.find("; fix: ") != std::string::npos, r.out);
  for (const char* check : {"database", "schema", "privileges", "socket"})
    CHECK_MESSAGE(!line_starting(r.out, std::string("ok: ") + check + ": ").empty(), check << "\n" << r.out);
  CHECK(other.exit_code == 2);
  CHECK_MESSAGE(other.out.find("server.threadz") != std::string::npos, other.out);
}

}  // namespace caltest
