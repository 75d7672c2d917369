// Running shell commands from integration tests: calendarctl (its command line is in
// CAL_TEST_CTL, set by scripts/run-tests.sh) and other tools of the stack.
#pragma once

#include <string>

namespace caltest {

struct Run {
  int exit_code = -1;
  std::string out;  // standard output; standard error goes to the test log
};

// Runs `command` through the shell and waits for it.
Run run(const std::string& command);

// The calendarctl command line with --config of the stack under test.
std::string ctl();

}  // namespace caltest
