// `calendarctl sql` (docs/calendarctl.md): the `mysql` client on the configured database, run as a real
// process against the test stack. The credentials must travel in a temporary option file of
// mode 0600 that is gone afterwards, never on a command line (where `ps` shows them to everyone).
#include "support/client.h"
#include "support/commands.h"

#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <vector>

using caltest::ctl;
using caltest::run;
using caltest::Run;

namespace {

std::string test_dir() {
  const char* dir = std::getenv("CAL_TEST_DIR");
  REQUIRE_MESSAGE(dir != nullptr, "scripts/run-tests.sh sets CAL_TEST_DIR");
  return dir;
}

// Runs statements as root on the stack's database (not through the command under test).
void root_sql(const std::string& statements) {
  const std::string file = test_dir() + "/" + caltest::unique("ctlsql") + ".sql";
  std::ofstream(file) << statements;
  const Run r = run("mariadb --no-defaults --default-character-set=utf8mb4 --socket='" + test_dir() +
                    "/mysqld.sock' --user=root calendar < '" + file + "' 2>&1");
  std::remove(file.c_str());
  REQUIRE_MESSAGE(r.exit_code == 0, r.out);
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") out.push_back(e->d_name);
    closedir(d);
  }
  return out;
}

// The command lines of every process of the machine, NULs as spaces, one per line.
std::string all_command_lines() {
  std::string out;
  for (const std::string& pid : files_in("/proc")) {
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in("/proc/" + pid + "/cmdline", std::ios::binary);
    std::string line((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (char& c : line)
      if (c == '\0') c = ' ';
    out += line + "\n";
  }
  return out;
}

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

TEST_CASE("calendarctl sql -e runs one statement: its output and exit status") {
  const Run ok = run(ctl() + " sql -e " + shell_quoted("SELECT 6 * 7 AS answer, 'Zürich — 東京' AS city"));
  CHECK(ok.exit_code == 0);
  CHECK(ok.out == "answer\tcity\n42\tZürich — 東京\n");
  // The views are there, on the configured database.
  const Run views = run(ctl() + " sql -e " +
                        shell_quoted("SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = "
                                     "DATABASE() AND TABLE_NAME LIKE 'calendar\\_%' ORDER BY 1"));
  CHECK(views.exit_code == 0);
  CHECK(views.out ==
        "TABLE_NAME\ncalendar_events\ncalendar_occurrences\ncalendar_organizers\ncalendar_series\ncalendar_"
        "terms\ncalendar_upcoming\ncalendar_venues\n");
  // The client's failure is the command's.
  const Run bad = run(ctl() + " sql -e 'SELECT * FROM no_such_table' 2>/dev/null");
  CHECK(bad.exit_code == 1);
  CHECK(bad.out.empty());
  CHECK(run(ctl() + " sql --execute='SELECT 1' >/dev/null").exit_code == 0);
  // Usage errors.
  CHECK(run(ctl() + " sql -e 2>/dev/null").exit_code == 2);
  CHECK(run(ctl() + " sql extra 2>/dev/null").exit_code == 2);
  CHECK(run(ctl() + " user list -e 'SELECT 1' 2>/dev/null").exit_code == 2);
}

TEST_CASE("calendarctl sql passes the password in a 0600 file it removes, never in process arguments") {
  // A database user with a password full of what quoting gets wrong.
  const std::string user = caltest::unique("viewer");
  const std::string password = "pw\"q\\b s'; é$" + caltest::unique("x");
  std::string sql_password;
  for (char c : password)
    sql_password += c == '\'' ? std::string("''") : c == '\\' ? std::string("\\\\") : std::string(1, c);
  root_sql("CREATE USER '" + user + "'@'localhost' IDENTIFIED BY '" + sql_password +
           "'; GRANT SELECT ON calendar.* TO '" + user + "'@'localhost';");
  // The stack's config with this user.
  const std::string dir = test_dir() + "/" + caltest::unique("sqltmp");
  REQUIRE(run("mkdir -p " + dir).exit_code == 0);
  std::ifstream in(test_dir() + "/calendar.conf");
  std::stringstream conf;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("user = ", 0) == 0 || line.rfind("password", 0) == 0) continue;
    conf << line << "\n";
    if (line == "[database]") conf << "user = " << user << "\npassword = " << password << "\n";
  }
  const std::string conf_file = dir + ".conf";
  std::ofstream(conf_file) << conf.str();
  const std::string binary = ctl().substr(0, ctl().find(' '));
  const std::string command = "TMPDIR=" + dir + " " + binary + " --config " + conf_file + " sql -e " +
                              shell_quoted("SELECT CURRENT_USER() AS who, SLEEP(3) AS slept");

  Run result;
  std::thread client([&] { result = run(command); });
  // While the statement runs: the file exists, only its owner may read it, it has the password;
  // no process has the password in its arguments, and the client was given the file.
  std::vector<std::string> seen;
  for (int i = 0; i < 200 && seen.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    seen = files_in(dir);
  }
  REQUIRE(seen.size() == 1);
  const std::string file = dir + "/" + seen[0];
  struct stat st {};
  REQUIRE(stat(file.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK(st.st_uid == geteuid());
  // The file is created before it is written: read it until it holds the user (or 2 s pass).
  std::string text;
  for (int i = 0; i < 200 && text.find("user=") == std::string::npos; ++i) {
    if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::ifstream opened(file);
    text.assign(std::istreambuf_iterator<char>(opened), std::istreambuf_iterator<char>());
  }
  CHECK(text.find("user=\"" + user + "\"") != std::string::npos);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const std::string processes = all_command_lines();
  CHECK(processes.find("--defaults-file=" + file) != std::string::npos);
  CHECK(processes.find(password) == std::string::npos);
  CHECK(processes.find(password.substr(password.size() - 12)) == std::string::npos);
  client.join();

  CHECK(result.exit_code == 0);
  CHECK(result.out == "who\tslept\n" + user + "@localhost\t0\n");
  CHECK(files_in(dir).empty());
  // A wrong password: the client's refusal is the command's, and the file goes all the same.
  std::string wrong = conf.str();
  wrong.replace(wrong.find("password = "), 11, "password = not-");
  std::ofstream(conf_file) << wrong;
  const Run refused =
      run("TMPDIR=" + dir + " " + binary + " --config " + conf_file + " sql -e 'SELECT 1' 2>/dev/null");
  CHECK(refused.exit_code == 1);
  CHECK(files_in(dir).empty());
  // What the client is given exactly: a stand-in `mysql` first on PATH notes its arguments and
  // the file (the real client hides a --password=... in its arguments once it runs, too late).
  const std::string stub = dir + "-stub";
  REQUIRE(run("mkdir -p " + stub).exit_code == 0);
  std::ofstream(stub + "/mysql") << "#!/bin/sh\nprintf '%s\\n' \"$@\" > " << stub
                                 << "/args\nfor a; do case $a in --defaults-file=*) f=${a#--defaults-file=}; "
                                    "stat -c %a \"$f\" > "
                                 << stub << "/mode; cp \"$f\" " << stub << "/copy;; esac; done\nexit 7\n";
  REQUIRE(run("chmod +x " + stub + "/mysql").exit_code == 0);
  std::ofstream(conf_file) << conf.str();
  const Run stubbed = run("PATH=" + stub + ":$PATH TMPDIR=" + dir + " " + binary + " --config " + conf_file +
                          " sql -e 'SELECT 1'");
  CHECK(stubbed.exit_code == 7);
  auto read_file = [](const std::string& path) {
    std::ifstream f(path);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  };
  const std::string args = read_file(stub + "/args");
  CHECK(args.find("--defaults-file=" + dir + "/") == 0);
  CHECK(args.find("\n--execute\nSELECT 1\n--database=calendar\n") != std::string::npos);
  CHECK(args.find(password) == std::string::npos);
  CHECK(args.find("password") == std::string::npos);
  CHECK(read_file(stub + "/mode") == "600\n");
  // The option file's quoting: backslash and double quote escaped, the rest as it is.
  CHECK(read_file(stub + "/copy").find("password=\"pw\\\"q\\\\b s'; é$") != std::string::npos);
  CHECK(files_in(dir).empty());
  // No client to run: status 1, and no file left behind.
  const Run missing = run("PATH=" + stub + "/none TMPDIR=" + dir + " " + binary + " --config " + conf_file +
                          " sql -e 'SELECT 1' 2>/dev/null");
  CHECK(missing.exit_code == 1);
  CHECK(files_in(dir).empty());
  run("rm -rf " + stub);
  root_sql("DROP USER '" + user + "'@'localhost';");
  std::remove(conf_file.c_str());
  run("rmdir " + dir);
}

TEST_CASE("calendarctl sql removes its option file when it is stopped with SIGTERM") {
  const std::string dir = test_dir() + "/" + caltest::unique("sqlterm");
  REQUIRE(run("mkdir -p " + dir).exit_code == 0);
  // The shell prints the background calendarctl's pid and exits; SLEEP keeps the client busy.
  const Run started =
      run("TMPDIR=" + dir + " " + ctl() + " sql -e 'SELECT SLEEP(3)' >/dev/null 2>&1 & echo $!");
  const pid_t pid = static_cast<pid_t>(std::stol(started.out));
  std::vector<std::string> seen;
  for (int i = 0; i < 300 && seen.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    seen = files_in(dir);
  }
  REQUIRE(seen.size() == 1);
  REQUIRE(kill(pid, SIGTERM) == 0);
  for (int i = 0; i < 200 && !files_in(dir).empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(files_in(dir).empty());
  // The client goes on to its end on its own; the directory is left for it to finish.
  std::this_thread::sleep_for(std::chrono::milliseconds(3500));
  run("rmdir " + dir);
}
