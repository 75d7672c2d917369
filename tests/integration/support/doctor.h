// Test support for `calendarctl doctor` (tests/integration/ops/doctor*_test.cpp): its lines, and
// the command line that points it at the test stack's calendar-fcgi.
#pragma once

#include <string>

#include "support/commands.h"
#include "support/reliability.h"

namespace caltest::doctor {

// The line of `out` starting with `prefix`, or "".
inline std::string line_starting(const std::string& out, const std::string& prefix) {
  const std::size_t at = out.rfind(prefix, 0) == 0 ? 0 : out.find("\n" + prefix);
  if (at == std::string::npos) return "";
  const std::size_t start = at == 0 ? 0 : at + 1;
  return out.substr(start, out.find('\n', start) - start);
}

// calendarctl on the test stack's config and socket (options and the command follow).
inline std::string command() { return ctl() + " --socket=unix:" + test_stack_dir() + "/calendar.sock"; }

}  // namespace caltest::doctor
