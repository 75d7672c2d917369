// calendarctl doctor (see doctor_command.h).
#include "doctor_command.h"
#include "doctor_checks.h"

#include "cal/core/dates/dates.h"
#include "cal/store/db.h"
#include "cal/store/schema_version.h"
#include "cal/store/server_clock.h"

#include <fcntl.h>
#include <netdb.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

namespace cal {
namespace {

// Whether a log destination can be written: "stderr" and "off" always; a file is opened for
// appending (created if missing) as the service would.
std::string log_problem(const std::string& where) {
  if (where.empty() || where == "stderr" || where == "off") return "";
  const int fd = ::open(where.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
  if (fd < 0) return std::strerror(errno);
  ::close(fd);
  return "";
}

// "" when something accepts connections on `spec` ("unix:PATH" or "HOST:PORT"), else why not.
std::string socket_problem(const std::string& spec) {
  int fd = -1;
  int rc = -1;
  if (spec.rfind("unix:", 0) == 0) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string path = spec.substr(5);
    if (path.size() >= sizeof addr.sun_path) return "path too long";
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    rc = connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  } else {
    const std::size_t colon = spec.rfind(':');
    if (colon == std::string::npos) return "not unix:PATH or HOST:PORT";
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(spec.substr(0, colon).c_str(), spec.substr(colon + 1).c_str(), &hints, &found) != 0 ||
        !found)
      return "cannot resolve " + spec;
    fd = socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    rc = connect(fd, found->ai_addr, found->ai_addrlen);
    freeaddrinfo(found);
  }
  const std::string why = rc == 0 ? "" : std::strerror(errno);
  if (fd >= 0) ::close(fd);
  return why;
}

void check_database(DoctorReport& t, const Config& config) {
  DatabaseConfig database = config.database;
  database.read_timeout = 5;
  Db db(database);
  const std::string where = config.database.socket.empty()
                                ? config.database.host + ":" + std::to_string(config.database.port)
                                : config.database.socket;
  try {
    db.connect();
  } catch (const DatabaseUnavailable& e) {
    t.line(Verdict::kFailure, "database",
           "cannot connect to " + where + " as " + config.database.user + ": " + e.detail,
           "start the database, or correct [database] socket, host, port, user, password and name");
    t.line(Verdict::kFailure, "schema", "not checked: no database", "fix the database first");
    t.line(Verdict::kFailure, "clocks", "not checked: no database", "fix the database first");
    t.line(Verdict::kFailure, "privileges", "not checked: no database", "fix the database first");
    t.line(Verdict::kFailure, "database time zones", "not checked: no database", "fix the database first");
    return;
  }
  t.line(Verdict::kOk, "database", "connected to " + where + " as " + config.database.user);
  try {
    const long long version = applied_schema_version(db);
    if (version == kSchemaVersion)
      t.line(Verdict::kOk, "schema", "version " + std::to_string(version));
    else
      t.line(Verdict::kFailure, "schema",
             "version " + std::to_string(version) + ", this build expects " + std::to_string(kSchemaVersion),
             version < kSchemaVersion ? "run calendarctl migrate" : "install the newer calendar-fcgi");
  } catch (const std::exception& e) {
    t.line(Verdict::kFailure, "schema", std::string("cannot read schema_migrations: ") + e.what(),
           "run calendarctl migrate (or let [database] user read its tables)");
  } catch (const DatabaseUnavailable& e) {
    t.line(Verdict::kFailure, "schema", "connection lost: " + e.detail, "check the database server's log");
  }
  try {
    const double here =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    const double skew = database_unix_time(db) - here;
    char text[64];
    std::snprintf(text, sizeof text, "the database's clock is %+.1f s from this host's", skew);
    const double off = std::fabs(skew);
    t.line(off <= 1   ? Verdict::kOk
           : off <= 5 ? Verdict::kWarning
                      : Verdict::kFailure,
           "clocks", text, "run an NTP client (chrony, systemd-timesyncd) on both hosts");
  } catch (const std::exception& e) {
    t.line(Verdict::kFailure, "clocks", std::string("cannot read the database's clock: ") + e.what(), "");
  } catch (const DatabaseUnavailable& e) {
    t.line(Verdict::kFailure, "clocks", "connection lost: " + e.detail, "check the database server's log");
  }
  try {
    check_privileges(t, db);
  } catch (const std::exception& e) {
    t.line(Verdict::kFailure, "privileges", std::string("cannot read them: ") + e.what(), "");
  } catch (const DatabaseUnavailable& e) {
    t.line(Verdict::kFailure, "privileges", "connection lost: " + e.detail,
           "check the database server's log");
  }
  try {
    check_database_time_zones(t, db, config);
  } catch (const std::exception& e) {
    t.line(Verdict::kFailure, "database time zones", std::string("cannot convert: ") + e.what(), "");
  } catch (const DatabaseUnavailable& e) {
    t.line(Verdict::kFailure, "database time zones", "connection lost: " + e.detail,
           "check the database server's log");
  }
}

}  // namespace

int run_doctor(const Config& config, const std::vector<std::string>& unknown_options,
               const std::optional<std::string>& site_url) {
  DoctorReport t;
  if (unknown_options.empty()) {
    t.line(Verdict::kOk, "config", "parsed, every option known");
  } else {
    std::string names;
    for (const std::string& o : unknown_options) names += (names.empty() ? "" : ", ") + o;
    t.line(Verdict::kFailure, "config",
           std::string(unknown_options.size() == 1 ? "unknown option " : "unknown options ") + names +
               " (calendar-fcgi refuses to start with it)",
           "remove it or correct its name: docs/configuration.md lists every option by section");
  }
  check_database(t, config);
  if (TimeZone::find(config.site.timezone))
    t.line(Verdict::kOk, "time zone", config.site.timezone + " found");
  else
    t.line(Verdict::kFailure, "time zone",
           "[site] timezone " + config.site.timezone + " is not in the zone database",
           "install tzdata, or correct [site] timezone (an IANA name such as Europe/Paris, or UTC+H)");
  for (const auto& [name, where] : {std::pair<const char*, std::string>{"access log", config.log.access},
                                    std::pair<const char*, std::string>{"slow log", config.log.slow}}) {
    const std::string problem = log_problem(where);
    if (problem.empty())
      t.line(Verdict::kOk, name, where + " writable");
    else
      t.line(Verdict::kFailure, name, "cannot write " + where + ": " + problem,
             "create its directory and make it writable by the service's user, or change [log]");
  }
  if (config.server.socket.empty()) {
    t.line(Verdict::kOk, "socket", "none configured (the web server hands one over, or CGI)");
  } else if (const std::string problem = socket_problem(config.server.socket); problem.empty()) {
    t.line(Verdict::kOk, "socket", config.server.socket + " accepts connections");
  } else {
    t.line(Verdict::kFailure, "socket",
           "nothing accepts connections on " + config.server.socket + ": " + problem,
           "start calendar-fcgi with --socket " + config.server.socket + ", or correct the --socket option");
  }
  if (site_url) check_web_server(t, *site_url);
  return t.failures > 0 ? 1 : 0;
}

}  // namespace cal
