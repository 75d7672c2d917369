// calendarctl doctor's checks of what surrounds the service (docs/operations.md), each with a
// broken fixture on the test stack: an account created with too few privileges (and the GRANT the
// doctor prints, run, repairs it); MariaDB's zone tables lacking the site's zone, holding it in
// agreement, and holding another zone's rules under its name (loaded with mariadb-tzinfo-to-sql);
// the web server at the stack's site root, and a static web server that does not route to us.
#include <doctest/doctest.h>

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "support/client.h"
#include "support/commands.h"
#include "support/doctor.h"
#include "support/engine.h"
#include "support/reliability.h"

namespace caltest {
namespace {

using doctor::line_starting;

// Loads the zone file of `file_zone` into MariaDB's tables under the name `name`, once per server.
void load_zone(const std::string& file_zone, const std::string& name) {
  if (engine::sql("SELECT COUNT(*) FROM mysql.time_zone_name WHERE Name = '" + name + "'") != "0") return;
  const Run r =
      run("mariadb-tzinfo-to-sql /usr/share/zoneinfo/" + file_zone + " " + name +
          " | mariadb --no-defaults --socket='" + test_stack_dir() + "/mysqld.sock' --user=root mysql 2>&1");
  REQUIRE_MESSAGE(r.exit_code == 0, r.out);
}

// A web server of Python's standard library on a free port of 127.0.0.1, for as long as the object
// lives: either a site of its own (a page at /, 404 elsewhere) or, given a target site root, a
// proxy to it that passes every request header but Authorization.
constexpr const char* kNoService = R"(import http.server, sys, urllib.request, urllib.error
target = sys.argv[1] if len(sys.argv) > 1 else ""
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if not target:
            body = b"<p>another site</p>" if self.path == "/" else b"<p>not here</p>"
            self.send_response(200 if self.path == "/" else 404)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        headers = {k: v for k, v in self.headers.items() if k.lower() != "authorization"}
        try:
            answer = urllib.request.urlopen(urllib.request.Request(target + self.path[1:], headers=headers))
        except urllib.error.HTTPError as e:
            answer = e
        body = answer.read()
        self.send_response(answer.status)
        for k, v in answer.headers.items():
            if k.lower() in ("content-type", "link"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
)";
constexpr const char* kProxyWithoutAuthorization = kNoService;  // the same script, given a target

class WebServer {
 public:
  WebServer(const char* script, const std::string& target) {
    dir_ = test_stack_dir() + "/" + unique("doctor-web");
    REQUIRE(run("mkdir -p " + dir_).exit_code == 0);
    std::ofstream(dir_ + "/server.py") << script;
    const Run started =
        run("cd " + dir_ + " && { python3 server.py " + target + " > port 2> log < /dev/null & echo $!; }");
    pid_ = std::atol(started.out.c_str());
    REQUIRE(pid_ > 0);
    for (int i = 0; i < 200 && port_.empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
      const std::string text = read_text_file(dir_ + "/port");
      if (text.find('\n') != std::string::npos) port_ = text.substr(0, text.find('\n'));
    }
    REQUIRE_MESSAGE(!port_.empty(), read_text_file(dir_ + "/log"));
  }
  ~WebServer() { kill(static_cast<pid_t>(pid_), SIGTERM); }
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  std::string url() const { return "http://127.0.0.1:" + port_ + "/"; }

 private:
  std::string dir_, port_;
  long pid_ = 0;
};

}  // namespace

TEST_CASE("calendarctl doctor: an account with too few privileges fails with the GRANT that repairs it") {
  const std::string user = unique("doc_few");
  const std::string account = "'" + user + "'@'localhost'";
  const std::string password = "DoctorFewPrivileges1";
  // Reads everything; deletes from one table only; no INSERT or UPDATE at all.
  engine::sql("CREATE USER " + account + " IDENTIFIED BY '" + password + "'; GRANT SELECT ON calendar.* TO " +
              account + "; GRANT DELETE ON calendar.posts TO " + account);
  const std::string as_user =
      doctor::command() + " --database.user=" + user + " --database.password=" + password;
  const Run few = run(as_user + " doctor 2>&1");
  CHECK_MESSAGE(few.exit_code == 1, few.out);
  const std::string line =
      line_starting(few.out, "failure: privileges: " + account + " lacks INSERT on every table");
  CHECK_MESSAGE(!line.empty(), few.out);
  CHECK_MESSAGE(line.find("UPDATE on every table") != std::string::npos, line);
  // DELETE is missing on the tables but posts, where it was granted.
  const std::string deletes = line.substr(0, line.find(": the service")).substr(line.find("DELETE on "));
  CHECK_MESSAGE(deletes.find(" users,") != std::string::npos, line);
  CHECK_MESSAGE(deletes.find("posts") == std::string::npos, line);
  const std::string grant = "GRANT INSERT, UPDATE, DELETE ON `calendar`.* TO " + account;
  CHECK_MESSAGE(line.find("; fix: as an administrative account, " + grant) != std::string::npos, line);
  CHECK_MESSAGE(
      !line_starting(few.out, "warning: migrate privileges: calendarctl migrate as " + account).empty(),
      few.out);

  // The printed GRANT is the repair: the service's check passes, migrate's still warns (exit 0).
  engine::sql("GRANT INSERT, UPDATE, DELETE ON calendar.* TO " +
              account);  // the shell would take the backquotes
  const Run granted = run(as_user + " doctor 2>&1");
  CHECK_MESSAGE(granted.exit_code == 0, granted.out);
  CHECK_MESSAGE(
      !line_starting(granted.out, "ok: privileges: " + account + " may SELECT, INSERT, UPDATE, DELETE")
           .empty(),
      granted.out);
  const std::string migrate = line_starting(granted.out, "warning: migrate privileges: ");
  CHECK_MESSAGE(
      migrate.find(
          "lacks CREATE, ALTER, DROP, CREATE ROUTINE, ALTER ROUTINE, EXECUTE, TRIGGER, CREATE VIEW") !=
          std::string::npos,
      migrate);
  engine::sql("DROP USER " + account);
}

TEST_CASE("calendarctl doctor: the GRANT of its migrate warning is all calendarctl migrate needs") {
  const std::string user = unique("doc_mig");
  const std::string database = user + "_db";
  const std::string account = "'" + user + "'@'localhost'";
  const std::string password = "DoctorMigrate1234";
  engine::sql("CREATE DATABASE " + database + "; CREATE USER " + account + " IDENTIFIED BY '" + password +
              "'; GRANT SELECT ON " + database + ".* TO " + account);
  const std::string as_user = doctor::command() + " --database.user=" + user +
                              " --database.password=" + password + " --database.name=" + database;
  const Run before = run(as_user + " doctor 2>&1");
  const std::string warning =
      line_starting(before.out, "warning: migrate privileges: calendarctl migrate as " + account);
  const std::string grant =
      "GRANT INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, CREATE ROUTINE, ALTER ROUTINE, "
      "EXECUTE, TRIGGER, CREATE VIEW ON ";
  CHECK_MESSAGE(warning.find(grant + "`" + database + "`.* TO " + account) != std::string::npos, before.out);
  CHECK_MESSAGE(run(as_user + " migrate 2>&1").exit_code != 0, "migrate succeeded without the privileges");

  engine::sql(grant + database + ".* TO " + account);  // the warning's fix (the shell would take backquotes)
  const Run migrated = run(as_user + " migrate 2>&1");
  CHECK_MESSAGE(migrated.exit_code == 0, migrated.out);
  const Run after = run(as_user + " doctor 2>&1");
  CHECK_MESSAGE(after.exit_code == 0, after.out);
  CHECK_MESSAGE(
      !line_starting(after.out, "ok: migrate privileges: " + account + " may run calendarctl migrate")
           .empty(),
      after.out);
  CHECK_MESSAGE(!line_starting(after.out, "ok: schema: version ").empty(), after.out);
  engine::sql("DROP USER " + account + "; DROP DATABASE " + database);
}

TEST_CASE("calendarctl doctor: MariaDB's time zone data missing warns, disagreeing fails, agreeing is ok") {
  // Never loaded on the test server: the tables lack it (or are empty).
  const Run missing = run(doctor::command() + " --site.timezone=Pacific/Chatham doctor 2>&1");
  CHECK_MESSAGE(missing.exit_code == 0, missing.out);
  const std::string warning =
      line_starting(missing.out, "warning: database time zones: MariaDB's time zone tables");
  CHECK_MESSAGE(warning.find("; fix: load MariaDB's zone tables") != std::string::npos, missing.out);
  CHECK_MESSAGE(warning.find("mariadb-tzinfo-to-sql") != std::string::npos, warning);

  load_zone("Europe/Paris", "Europe/Paris");
  const Run agrees = run(doctor::command() + " --site.timezone=Europe/Paris doctor 2>&1");
  CHECK_MESSAGE(agrees.exit_code == 0, agrees.out);
  CHECK_MESSAGE(!line_starting(agrees.out, "ok: database time zones: MariaDB's Europe/Paris agrees").empty(),
                agrees.out);

  // Tokyo's rules under Kathmandu's name: 3 h 15 min apart all year.
  load_zone("Asia/Tokyo", "Asia/Kathmandu");
  const Run disagrees = run(doctor::command() + " --site.timezone=Asia/Kathmandu doctor 2>&1");
  CHECK_MESSAGE(disagrees.exit_code == 1, disagrees.out);
  const std::string failure = line_starting(disagrees.out, "failure: database time zones: MariaDB puts ");
  CHECK_MESSAGE(failure.find("in Asia/Kathmandu, the service at") != std::string::npos, disagrees.out);
  CHECK_MESSAGE(failure.find("; fix: update the tzdata package") != std::string::npos, failure);
}

TEST_CASE("calendarctl doctor --url: the stack's nginx passes; a server that does not route to us fails") {
  const std::string site = base_url().substr(0, base_url().find('/', 7)) + "/";
  const Run ok = run(doctor::command() + " --url " + site + " doctor 2>&1");
  CHECK_MESSAGE(ok.exit_code == 0, ok.out);
  CHECK_MESSAGE(
      !line_starting(ok.out, "ok: web server front page: " + site + " names the REST root " + site + "api/")
           .empty(),
      ok.out);
  CHECK_MESSAGE(
      !line_starting(ok.out, "ok: web server /api/: " + site + "api/ is this service's index").empty(),
      ok.out);
  CHECK_MESSAGE(!line_starting(ok.out,
                               "ok: web server Authorization: a wrong Bearer token is refused by the service "
                               "(rest_invalid_credentials)")
                     .empty(),
                ok.out);
  // The site's root without its final slash is the same site; --url belongs to doctor alone.
  const Run no_slash = run(doctor::command() + " --url " + site.substr(0, site.size() - 1) + " doctor 2>&1");
  CHECK_MESSAGE(no_slash.exit_code == 0, no_slash.out);
  CHECK_MESSAGE(!line_starting(no_slash.out, "ok: web server Authorization: ").empty(), no_slash.out);
  CHECK(run(ctl() + " --url " + site + " user list 2>&1").exit_code == 2);
  CHECK(run(ctl() + " doctor --url 2>&1").exit_code == 2);
  // Without --url the web server is not checked.
  CHECK(run(doctor::command() + " doctor 2>&1").out.find("web server front page") == std::string::npos);

  // A site that does not route to us: no Link, no index; Authorization then cannot be tried.
  {
    const WebServer other(kNoService, "");
    const Run r = run(doctor::command() + " --url " + other.url() + " doctor 2>&1");
    CHECK_MESSAGE(r.exit_code == 1, r.out);
    const std::string front =
        line_starting(r.out, "failure: web server front page: " + other.url() + " answered status 200");
    CHECK_MESSAGE(front.find("; fix: serve the front page with the header Link: <" + other.url() + "api/>") !=
                      std::string::npos,
                  r.out);
    const std::string api =
        line_starting(r.out, "failure: web server /api/: " + other.url() + "api/ answered status 404");
    CHECK_MESSAGE(api.find("; fix: pass " + other.url() + "api/ and every path below it to calendar-fcgi") !=
                      std::string::npos,
                  r.out);
    CHECK_MESSAGE(!line_starting(r.out, "failure: web server Authorization: not checked").empty(), r.out);
  }
  // A proxy in front of the stack that drops Authorization (as Apache does without CGIPassAuth):
  // everything routes, and the wrong token is answered 200.
  {
    const WebServer proxy(kProxyWithoutAuthorization, site);
    const Run r = run(doctor::command() + " --url " + proxy.url() + " doctor 2>&1");
    CHECK_MESSAGE(r.exit_code == 1, r.out);
    CHECK_MESSAGE(!line_starting(r.out, "ok: web server /api/: " + proxy.url() + "api/").empty(), r.out);
    const std::string line =
        line_starting(r.out, "failure: web server Authorization: " + proxy.url() + "api/");
    CHECK_MESSAGE(line.find("answered status 200") != std::string::npos, r.out);
    CHECK_MESSAGE(line.find("fastcgi_param HTTP_AUTHORIZATION") != std::string::npos, line);
  }
}

}  // namespace caltest
