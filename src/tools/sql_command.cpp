// `calendarctl sql` (see sql_command.h).
#include "sql_command.h"

#include "client_defaults_file.h"
#include "cal/store/schema.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace cal {
namespace {

int usage(const std::string& message) {
  std::cerr << "calendarctl: " << message << "\n(see calendarctl --help)\n";
  return 2;
}

// The option file's path for the signal handler, which may only unlink it.
char g_defaults_path[4096];

extern "C" void remove_defaults_and_die(int signal) {
  if (g_defaults_path[0] != '\0') unlink(g_defaults_path);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

// Holds SIGTERM and SIGHUP back while it lives; one that came meanwhile is delivered as it ends.
class HeldSignals {
 public:
  HeldSignals() {
    sigemptyset(&held_);
    sigaddset(&held_, SIGTERM);
    sigaddset(&held_, SIGHUP);
    sigprocmask(SIG_BLOCK, &held_, &before_);
  }
  ~HeldSignals() { sigprocmask(SIG_SETMASK, &before_, nullptr); }
  HeldSignals(const HeldSignals&) = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;

 private:
  sigset_t held_{}, before_{};
};

}  // namespace

bool take_sql_args(std::vector<const char*>& args, SqlArgs& out) {
  std::vector<const char*> rest;
  bool ok = true;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string arg = args[i];
    if (arg == "-e" || arg == "--execute") {
      if (i + 1 < args.size())
        out.execute = args[++i];
      else
        ok = false;
    } else if (arg.rfind("--execute=", 0) == 0) {
      out.execute = arg.substr(10);
    } else if (arg.size() > 2 && arg.rfind("-e", 0) == 0) {
      out.execute = arg.substr(2);
    } else {
      rest.push_back(args[i]);
    }
  }
  args = std::move(rest);
  return ok;
}

int run_sql(const Config& config, const std::vector<std::string>& positional, const SqlArgs& args) {
  if (positional.size() != 1) return usage("sql takes no arguments but -e STATEMENT");
  if (!valid_database_name(config.database.name)) return usage("database.name must be letters, digits and _");
  // A SIGTERM between the file's creation and its handler would leave the file (with the
  // password) behind: held back until the handler knows the path.
  std::optional<DefaultsFile> defaults;
  {
    const HeldSignals held;
    defaults.emplace(config.database);
    if (defaults->path().size() >= sizeof g_defaults_path) throw std::runtime_error("TMPDIR path too long");
    std::strcpy(g_defaults_path, defaults->path().c_str());
    std::signal(SIGTERM, remove_defaults_and_die);
    std::signal(SIGHUP, remove_defaults_and_die);
  }

  // --defaults-file (not --defaults-extra-file): only this file is read, so a ~/.my.cnf cannot
  // put other credentials over the configured ones.
  std::vector<std::string> argv = {"mysql", "--defaults-file=" + defaults->path()};
  if (args.execute) argv.insert(argv.end(), {"--execute", *args.execute});
  argv.push_back("--database=" + config.database.name);
  std::vector<char*> c_argv;
  for (std::string& a : argv) c_argv.push_back(a.data());
  c_argv.push_back(nullptr);

  std::cout.flush();
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (child == 0) {
    execvp(c_argv[0], c_argv.data());
    std::cerr << "calendarctl: cannot run mysql: " << std::strerror(errno) << "\n";
    _exit(127);
  }
  // Ctrl-C and Ctrl-\ are the client's (it cancels a running statement): calendarctl waits on.
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGQUIT, SIG_IGN);
  int status = 0;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
  for (int signal : {SIGINT, SIGQUIT, SIGTERM, SIGHUP}) std::signal(signal, SIG_DFL);
  g_defaults_path[0] = '\0';
  if (WIFEXITED(status)) {
    if (WEXITSTATUS(status) == 127) return 1;
    return WEXITSTATUS(status);
  }
  return 128 + WTERMSIG(status);
}

}  // namespace cal
