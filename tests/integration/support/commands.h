// Running processes from the integration tests: calendarctl (its command line is in CAL_TEST_CTL,
// set by scripts/run-tests.sh), calendar-fcgi as plain CGI, the mariadb client, scripts/stack.sh,
// node and chromium. Every test that starts a process does it through run().
#pragma once

#include <chrono>
#include <string>

namespace caltest {

struct Run {
  // The exit status; 128 + N when signal N ended it (as a shell reports it); -1 when no shell
  // could be started or waited for.
  int exit_code = -1;
  // Standard output. Standard error goes to the test log unless the command redirects it
  // ("2>&1" to read it here, "2>/dev/null" to drop it).
  std::string out;
};

// Runs `command` through /bin/sh and waits for it. Never throws, so destructors may call it.
Run run(const std::string& command);

// The calendarctl command line with --config of the stack under test.
std::string ctl();

// The value of the first `name = value` line in a command's output (e.g. calendarctl db-account
// create's `password`); "" when there is none.
std::string line_value(const std::string& out, const std::string& name);

// The command line of calendar-fcgi (beside calendarctl) with --config of the stack under test,
// for running it as plain CGI: prefix the CGI variables, append options and redirections.
std::string service_command();

// The id of user `login`, from `calendarctl user list` ("<id> <login> <role>" lines). Throws
// std::runtime_error when there is none, as create_user() does, so threads may call it too.
long long user_id(const std::string& login);

// The stack's response cache lease: `[server] cache_lease_ms` of $CAL_TEST_DIR/calendar.conf,
// else the default `calendarctl --help` states.
std::chrono::milliseconds cache_lease();

// After a write made outside the service (SQL by hand): sleeps out the lease, after which every
// reader's answer includes the write (docs/api.md §12). calendarctl and the service's own writes
// wait it out themselves.
void wait_out_lease();

}  // namespace caltest
