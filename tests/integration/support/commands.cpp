// Running processes from the integration tests (see commands.h).
#include "support/commands.h"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

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

namespace {

// The number after `key` and then `before` in `text` ("" key: none), or -1.
long long number_after(const std::string& text, const std::string& key, const std::string& before) {
  const std::size_t at = text.find(key);
  if (at == std::string::npos) return -1;
  const std::size_t start = text.find(before, at + key.size());
  if (start == std::string::npos) return -1;
  return std::strtoll(text.c_str() + start + before.size(), nullptr, 10);
}

}  // namespace

std::chrono::milliseconds cache_lease() {
  static const std::chrono::milliseconds lease = [] {
    if (const char* dir = std::getenv("CAL_TEST_DIR")) {
      std::ifstream in(std::string(dir) + "/calendar.conf");
      const std::string conf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (const long long ms = number_after(conf, "\ncache_lease_ms", "="); ms >= 0)
        return std::chrono::milliseconds(ms);
    }
    const long long ms = number_after(run(ctl() + " --help").out, "--server.cache_lease_ms", "(=");
    REQUIRE_MESSAGE(ms >= 0, "calendarctl --help states no default of server.cache_lease_ms");
    return std::chrono::milliseconds(ms);
  }();
  return lease;
}

void wait_out_lease() { std::this_thread::sleep_for(cache_lease()); }

std::string line_value(const std::string& out, const std::string& name) {
  const std::string key = name + " = ";
  const std::size_t at = out.find(key);
  if (at == std::string::npos) return {};
  const std::size_t start = at + key.size();
  return out.substr(start, out.find('\n', start) - start);
}

}  // namespace caltest
