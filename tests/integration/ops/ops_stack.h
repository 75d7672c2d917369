// A private stack for the operations tests (scripts/stack.sh in $CAL_TEST_DIR/ops-NAME) with
// settings of its own merged into its calendar.conf: started in the constructor, stopped in the
// destructor whatever happens. The logs and restart tests signal its calendar-fcgi.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>

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

  // Starts calendar-fcgi on calendar.conf as it stands, the way scripts/stack.sh does, without
  // the steps before it (migrate, the admin user): for a configuration whose database account may
  // run only the service's own statements. The one running before must have been stopped.
  void start_service_only() const {
    const Run started =
        run("rm -f " + dir_ + "/calendar.sock; setsid " + build_ + "/calendar-fcgi --config " + dir_ +
            "/calendar.conf --socket unix:" + dir_ + "/calendar.sock </dev/null >>" + dir_ +
            "/calendar-fcgi.log 2>&1 & echo $! > " + dir_ + "/calendar-fcgi.pid");
    REQUIRE(started.exit_code == 0);
    for (int i = 0; i < 300; ++i) {
      try {
        if (send({.url = url("/"), .timeout_ms = 2000}).status == 200) return;
      } catch (const std::exception&) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    FAIL("calendar-fcgi did not answer within 30 s:\n" << read_text_file(dir_ + "/calendar-fcgi.log"));
  }

  std::string url(std::string_view path) const {
    return "http://127.0.0.1:" + port_ + "/api" + std::string(path);
  }
  std::string admin() const { return bearer(token_); }
  const std::string& dir() const { return dir_; }
  // calendarctl with --config of this stack.
  std::string ctl() const { return build_ + "/calendarctl --config " + dir_ + "/calendar.conf"; }
  // One statement as MariaDB's root on this stack's server, its tab-separated rows without
  // headings; FAILs (with the client's message) when the statement fails.
  std::string sql(const std::string& statement) const {
    const Run r = run("mariadb --no-defaults --batch --skip-column-names --socket=" + dir_ +
                      "/mysqld.sock --user=root calendar -e \"" + statement + "\" 2>&1");
    REQUIRE_MESSAGE(r.exit_code == 0, statement << ": " << r.out);
    return r.out.substr(0, r.out.find_last_not_of('\n') + 1);
  }
  // The statements the server runs while `request` runs, from MariaDB's general log, one a line
  // (each ending in a newline); with `containing`, only those that contain it.
  template <typename Request>
  std::string logged_while(Request request, const std::string& containing = "") const {
    sql("SET GLOBAL log_output = 'TABLE'; TRUNCATE mysql.general_log; SET GLOBAL general_log = 1");
    request();
    sql("SET GLOBAL general_log = 0");
    std::string logged =
        sql("SELECT REPLACE(CONVERT(argument USING utf8mb4), '\\n', ' ') FROM mysql.general_log WHERE "
            "command_type IN ('Execute', 'Query') AND argument LIKE '%" +
            containing + "%'");
    sql("SET GLOBAL log_output = 'FILE'; TRUNCATE mysql.general_log");
    return logged.empty() ? logged : logged + "\n";
  }
  long long service_pid() const { return std::atoll(read_text_file(dir_ + "/calendar-fcgi.pid").c_str()); }
  // Stops calendar-fcgi and waits until it has exited.
  void stop_service() const {
    const long long pid = service_pid();
    REQUIRE(pid > 0);
    REQUIRE(kill(static_cast<pid_t>(pid), SIGTERM) == 0);
    for (int i = 0; i < 300 && kill(static_cast<pid_t>(pid), 0) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    REQUIRE(kill(static_cast<pid_t>(pid), 0) != 0);
  }
  // Restarts calendar-fcgi on the database account `user` (password `password`) instead of root.
  void serve_as(const std::string& user, const std::string& password) const {
    stop_service();
    const std::string conf = dir_ + "/calendar.conf";
    const Run edited = run("sed -i 's/^user = root$/user = " + user + "\\npassword = " + password + "/' " +
                           conf + " && grep -c '^user = " + user + "$' " + conf);
    REQUIRE_MESSAGE(edited.exit_code == 0, edited.out);
    start_service_only();
  }

 private:
  std::string build_, repo_, dir_, port_, token_, settings_;
};

}  // namespace caltest
