// Running processes from the integration tests (see commands.h).
#include "support/commands.h"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace caltest {

Run run(const std::string& command) {
  Run r;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  if (status == -1) return r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
  return r;
}

std::string ctl() {
  const char* c = std::getenv("CAL_TEST_CTL");
  REQUIRE_MESSAGE(c != nullptr, "CAL_TEST_CTL must name calendarctl with --config of the stack");
  return c;
}

std::string service_command() {
  // CAL_TEST_CTL is "<build>/calendarctl --config <file>": the service binary sits beside it.
  const std::string c = ctl();
  const size_t config = c.find("--config ");
  REQUIRE_MESSAGE(config != std::string::npos, "CAL_TEST_CTL names no --config: " << c);
  return c.substr(0, c.rfind('/', c.find(' '))) + "/calendar-fcgi --config " + c.substr(config + 9);
}

long long user_id(const std::string& login) {
  const Run list = run(ctl() + " user list");
  if (list.exit_code != 0) throw std::runtime_error("calendarctl user list failed: " + list.out);
  std::istringstream lines(list.out);
  long long id = 0;
  std::string name, role;
  while (lines >> id >> name >> role)
    if (name == login) return id;
  throw std::runtime_error("no user " + login + " in calendarctl user list");
}

}  // namespace caltest
