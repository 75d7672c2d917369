// A private stack for the operations tests (scripts/stack.sh in $CAL_TEST_DIR/ops-NAME) with
// settings of its own merged into its calendar.conf: started in the constructor, stopped in the
// destructor whatever happens. The logs and restart tests signal its calendar-fcgi.
#pragma once

#include <doctest/doctest.h>

#include <climits>
#include <cstdlib>
#include <string>
#include <string_view>

#include "support/client.h"
#include "support/commands.h"
#include "support/reliability.h"

namespace caltest {

class OpsStack {
 public:
  // `name` names the directory; `settings` is INI text merged into calendar.conf, where "@DIR@"
  // stands for the stack's directory.
  OpsStack(const std::string& name, std::string settings) {
    const std::string ctl = std::getenv("CAL_TEST_CTL") ? std::getenv("CAL_TEST_CTL") : "";
    build_ = ctl.substr(0, ctl.find(' '));
    build_ = build_.substr(0, build_.rfind('/'));
    // Under scripts/run-clock-tests.sh the build directory is a temporary one of symbolic links
    // to the real one, which sits in the repository.
    char real[PATH_MAX];
    const std::string calendarctl = realpath((build_ + "/calendarctl").c_str(), real) ? real : "";
    repo_ = calendarctl.empty() ? build_ + "/.." : calendarctl.substr(0, calendarctl.rfind('/')) + "/..";
    dir_ = test_stack_dir() + "/ops-" + name;
    for (std::size_t at; (at = settings.find("@DIR@")) != std::string::npos;) settings.replace(at, 5, dir_);
    settings_ = settings;
    const Run port = run(repo_ + "/scripts/stack.sh free-port");
    REQUIRE(port.exit_code == 0);
    port_ = port.out.substr(0, port.out.find('\n'));
    up();
    token_ = read_text_file(dir_ + "/admin.token");
    token_ = token_.substr(0, token_.find('\n'));
    REQUIRE(!token_.empty());
  }
  ~OpsStack() { down(); }
  OpsStack(const OpsStack&) = delete;
  OpsStack& operator=(const OpsStack&) = delete;

  // Starts whatever is not running (after a stop: calendar-fcgi), as scripts/stack.sh does.
  void up() const {
    char file[] = "/tmp/cal-ops-conf-XXXXXX";
    const int fd = mkstemp(file);
    REQUIRE(fd >= 0);
    REQUIRE(write(fd, settings_.data(), settings_.size()) == static_cast<ssize_t>(settings_.size()));
    close(fd);
    const Run r = run("STACK_CONF_EXTRA=\"$(cat " + std::string(file) + ")\" " + repo_ +
                      "/scripts/stack.sh up " + dir_ + " " + port_ + " " + build_ + " 2>&1");
    unlink(file);
    REQUIRE_MESSAGE(r.exit_code == 0, r.out);
  }
  void down() const { run(repo_ + "/scripts/stack.sh down " + dir_ + " >/dev/null 2>&1"); }

  std::string url(std::string_view path) const {
    return "http://127.0.0.1:" + port_ + "/api" + std::string(path);
  }
  std::string admin() const { return bearer(token_); }
  const std::string& dir() const { return dir_; }
  long long service_pid() const { return std::atoll(read_text_file(dir_ + "/calendar-fcgi.pid").c_str()); }

 private:
  std::string build_, repo_, dir_, port_, token_, settings_;
};

}  // namespace caltest
