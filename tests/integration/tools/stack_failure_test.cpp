// `make start` (scripts/devstack.sh start, scripts/stack.sh up) that fails half-way: it exits
// non-zero, names the step that failed, and stops exactly what it started: nothing of a fresh
// stack is left running, and a stack that was already running keeps its processes.
#include "support/commands.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <unistd.h>

using caltest::run;
using caltest::Run;

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  REQUIRE_MESSAGE(v != nullptr, name << " is not set (run through scripts/run-tests.sh)");
  return v;
}

// The pids of processes (other than this one) whose command line mentions `dir`.
std::set<long> processes_of(const std::string& dir) {
  std::set<long> pids;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const long pid = std::stol(name);
    if (pid == static_cast<long>(getpid())) continue;
    std::ifstream in(entry.path() / "cmdline", std::ios::binary);
    const std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (cmdline.find(dir) != std::string::npos) pids.insert(pid);
  }
  return pids;
}

struct BadStack {
  std::string build, repo, dir, port;
  BadStack() {
    const std::string ctl = env("CAL_TEST_CTL");
    build = ctl.substr(0, ctl.find(' '));
    build = build.substr(0, build.rfind('/'));
    repo = build + "/..";
    dir = env("CAL_TEST_DIR") + "/badstart";
    down();
    REQUIRE(run("rm -rf " + dir + " && mkdir -p " + dir).exit_code == 0);
    const Run p = run(repo + "/scripts/stack.sh free-port");
    REQUIRE(p.exit_code == 0);
    port = p.out.substr(0, p.out.find('\n'));
  }
  ~BadStack() { down(); }
  BadStack(const BadStack&) = delete;
  BadStack& operator=(const BadStack&) = delete;
  void down() const { run(repo + "/scripts/stack.sh down " + dir + " >/dev/null 2>&1"); }
  // `make start` on this directory, with `extra` merged into a new config.
  Run start(const std::string& extra) const {
    return run("cd " + repo + " && STACK_CONF_EXTRA='" + extra + "' DEVSTACK_DIR=" + dir +
               " DEVSTACK_BUILD=" + build + " scripts/devstack.sh start " + port + " 2>&1");
  }
};

TEST_CASE("stack start failure: a bad config stops what the start began and names the step") {
  BadStack stack;
  const Run r = stack.start("[server]\nno_such_option = 1");
  CAPTURE(r.out);
  CHECK(r.exit_code != 0);
  CHECK(r.out.find("up failed at step: calendarctl migrate") != std::string::npos);
  CHECK(r.out.find("no_such_option") != std::string::npos);
  CHECK(r.out.find("mariadbd stopped") != std::string::npos);
  CHECK(processes_of(stack.dir).empty());
}

TEST_CASE("stack start failure: a stack that was running keeps its processes") {
  BadStack stack;
  const Run good = stack.start("");
  REQUIRE_MESSAGE(good.exit_code == 0, good.out);
  const std::set<long> before = processes_of(stack.dir);
  CHECK(before.size() >= 3);  // mariadbd, calendar-fcgi, nginx (master and workers)
  // The config written once is edited by hand into one the service refuses.
  REQUIRE(run("printf '[server]\\nno_such_option = 1\\n' >> " + stack.dir + "/calendar.conf").exit_code == 0);
  const Run bad = stack.start("");
  CAPTURE(bad.out);
  CHECK(bad.exit_code != 0);
  CHECK(bad.out.find("up failed at step: calendarctl migrate") != std::string::npos);
  CHECK(bad.out.find("which this up started") == std::string::npos);
  CHECK(processes_of(stack.dir) == before);
  stack.down();
  CHECK(processes_of(stack.dir).empty());
}

}  // namespace
