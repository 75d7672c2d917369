// Running shell commands from integration tests (see support/commands.h).
#include "support/commands.h"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>

namespace caltest {

Run run(const std::string& command) {
  Run r;
  FILE* p = popen(command.c_str(), "r");
  REQUIRE(p != nullptr);
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string ctl() {
  const char* c = std::getenv("CAL_TEST_CTL");
  REQUIRE(c != nullptr);
  return c;
}

}  // namespace caltest
