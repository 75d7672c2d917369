// The health check (docs/operations.md): GET/HEAD /health through the stack, its one statement and
// its second in memory, that it reads no credentials (never 401, never throttled), that no cache
// keeps it; a 503 naming the failing check for an unreachable database and for a schema at another
// version (calendar-fcgi as CGI with a broken configuration), and `calendar-fcgi --check`.
#include <doctest/doctest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/engine.h"

namespace caltest {
namespace {

constexpr const char* kHealth = "/cal/events/v1/health";

// "" when `r` is a health answer with `status` whose check `name` is `check_status`.
std::string check_mismatch(const HttpResponse& r, long status, const std::string& name,
                           const std::string& check_status) {
  if (r.status != status) return "status " + std::to_string(r.status) + ": " + r.body;
  const rapidjson::Document doc = r.json();
  const std::string overall = status == 200 ? "ok" : "failing";
  if (string_at(doc, {"status"}) != overall) return "overall status: " + r.body;
  if (string_at(doc, {"checks", name, "status"}) != check_status) return name + ": " + r.body;
  return "";
}

// calendar-fcgi as CGI answering GET /health with extra `options` (a broken configuration).
struct CgiAnswer {
  int status = 0;
  std::string head;
  std::string body;
};
CgiAnswer cgi_health(const std::string& options) {
  const Run r =
      run("env -i REQUEST_METHOD=GET SCRIPT_NAME=/api PATH_INFO=" + std::string(kHealth) +
          " HTTP_HOST=example.org " + service_command() + " " + options + " </dev/null 2>/dev/null");
  CgiAnswer a;
  const size_t end = r.out.find("\r\n\r\n");
  REQUIRE_MESSAGE(end != std::string::npos, r.out);
  a.head = r.out.substr(0, end);
  a.body = r.out.substr(end + 4);
  REQUIRE_MESSAGE(a.head.rfind("Status: ", 0) == 0, r.out);
  a.status = std::stoi(a.head.substr(8));
  return a;
}

HttpResponse as_response(const CgiAnswer& a) {
  HttpResponse r;
  r.status = a.status;
  r.body = a.body;
  return r;
}

}  // namespace

TEST_CASE("GET /health answers 200 with every check ok, never stored, at most one statement a second") {
  const HttpResponse r = get(kHealth);
  CHECK(check_mismatch(r, 200, "database", "ok") == "");
  CHECK(check_mismatch(r, 200, "schema", "ok") == "");
  CHECK(r.header("cache-control") == "no-store");
  CHECK(r.header("etag") == "");
  CHECK(r.header("content-type").rfind("application/json", 0) == 0);
  // One statement at most; the report is kept for a second, so of quick repeats most run none.
  int without_statement = 0;
  for (int i = 0; i < 6; ++i) {
    const HttpResponse again = get(kHealth);
    CAPTURE(i);
    REQUIRE(again.status == 200);
    const std::string statements = again.header("x-cal-statements");
    REQUIRE(!statements.empty());
    CHECK(std::stoi(statements) <= 1);
    if (statements == "0") ++without_statement;
  }
  CHECK(without_statement >= 4);
  const HttpResponse head_answer = head(kHealth);
  CHECK(head_answer.status == 200);
  CHECK(head_answer.body.empty());
  CHECK(head_answer.header("cache-control") == "no-store");
}

TEST_CASE("the health route is in the namespace index and the OpenAPI document") {
  const rapidjson::Document index = get("/cal/events/v1").json();
  CHECK(find(index, {"routes", "/cal/events/v1/health"}) != nullptr);
  const rapidjson::Document doc = get("/cal/events/v1/doc").json();
  CHECK(find(doc, {"paths", "/health", "get"}) != nullptr);
}

TEST_CASE("the health check reads no credentials: wrong ones get 200, and so does a throttled address") {
  CHECK(check_mismatch(get(kHealth, {bearer("not-a-token")}), 200, "database", "ok") == "");
  CHECK(check_mismatch(get(kHealth, {basic("nobody-at-all", "wrong")}), 200, "database", "ok") == "");
  // Eleven failures for one login throttle it (access/auth_throttle_test.cpp); the probe with that
  // login's credentials still answers.
  const std::string login = unique("probe");
  long last = 0;
  for (int i = 0; i < 11; ++i) last = get("/cal/events/v1/events", {basic(login, "wrong")}).status;
  CHECK(last == 429);
  const HttpResponse probe = get(kHealth, {basic(login, "wrong")});
  CHECK(check_mismatch(probe, 200, "database", "ok") == "");
}

TEST_CASE("an unreachable database answers 503 naming the database check; --check exits 1") {
  const std::string broken = "--database.socket=/nonexistent/mysqld.sock";
  const CgiAnswer a = cgi_health(broken);
  CHECK(check_mismatch(as_response(a), 503, "database", "failing") == "");
  CHECK(a.head.find("Cache-Control: no-store") != std::string::npos);
  const Run check = run(service_command() + " --check " + broken + " 2>&1");
  CHECK(check.exit_code == 1);
  CHECK_MESSAGE(check.out.find("database: failing: unreachable") != std::string::npos, check.out);
}

TEST_CASE("a schema at another version answers 503 naming the schema check; --check says what to run") {
  engine::sql(
      "CREATE DATABASE IF NOT EXISTS health_old; "
      "CREATE TABLE IF NOT EXISTS health_old.schema_migrations (version INT PRIMARY KEY); "
      "INSERT IGNORE INTO health_old.schema_migrations VALUES (1), (2), (3)");
  const std::string old = "--database.name=health_old";
  const CgiAnswer a = cgi_health(old);
  CHECK(check_mismatch(as_response(a), 503, "schema", "failing") == "");
  CHECK(check_mismatch(as_response(a), 503, "database", "ok") == "");
  CHECK_MESSAGE(a.body.find("version 3") != std::string::npos, a.body);
  const Run check = run(service_command() + " --check " + old + " 2>&1");
  CHECK(check.exit_code == 1);
  CHECK_MESSAGE(check.out.find("schema: failing: version 3") != std::string::npos, check.out);
  CHECK_MESSAGE(check.out.find("calendarctl migrate") != std::string::npos, check.out);
  // A database without the table at all: reachable, schema failing.
  engine::sql("CREATE DATABASE IF NOT EXISTS health_empty");
  CHECK(check_mismatch(as_response(cgi_health("--database.name=health_empty")), 503, "schema", "failing") ==
        "");
  engine::sql("DROP DATABASE health_old; DROP DATABASE health_empty");
}

TEST_CASE("calendar-fcgi --check on a sound deployment prints one ok line per check and exits 0") {
  const Run check = run(service_command() + " --check 2>&1");
  CHECK_MESSAGE(check.exit_code == 0, check.out);
  CHECK_MESSAGE(check.out.rfind("database: ok", 0) == 0, check.out);
  CHECK_MESSAGE(check.out.find("\nschema: ok") != std::string::npos, check.out);
  CHECK_MESSAGE(check.out.find("\ncatalogs: ok") != std::string::npos, check.out);
  CHECK_MESSAGE(check.out.find("\nlibraries: ok: OpenSSL 3.") != std::string::npos, check.out);
}

// OpenSSL and Connector/C are linked into calendar-fcgi: a newer shared copy on the system (here
// a stand-in libcrypto.so.3 that says it is OpenSSL 3.99.1, found first through
// LD_LIBRARY_PATH) is an update the binary lacks until it is built again. A warning: exit 0.
TEST_CASE("calendar-fcgi --check warns when the system's OpenSSL is newer than the one built in") {
  const std::string dir = "/tmp/cal-check-libraries-" + std::to_string(::getpid());
  REQUIRE(run("mkdir -p " + dir +
              " && printf 'unsigned long OpenSSL_version_num(void) { return 0x36300010UL; }\\n' > " + dir +
              "/newer.c && cc -shared -fPIC -Wl,-soname,libcrypto.so.3 -o " + dir + "/libcrypto.so.3 " + dir +
              "/newer.c")
              .exit_code == 0);
  const Run check = run("LD_LIBRARY_PATH=" + dir + " " + service_command() + " --check 2>&1");
  run("rm -rf " + dir);
  const std::string service = service_command();
  if (run("readelf -d " + service.substr(0, service.find(' ')) + " | grep -q libcrypto").exit_code == 0) {
    // The sanitizer build links OpenSSL shared: the stand-in is what it runs with, built in or not.
    MESSAGE("calendar-fcgi links OpenSSL shared; nothing is built in to compare");
    return;
  }
  CHECK_MESSAGE(check.exit_code == 0, check.out);
  CHECK_MESSAGE(check.out.find("\nlibraries: warning: OpenSSL ") != std::string::npos, check.out);
  CHECK_MESSAGE(check.out.find(", the system has 3.99.1;") != std::string::npos, check.out);
  CHECK_MESSAGE(check.out.find("build calendar-fcgi again") != std::string::npos, check.out);
}

// A CGI process reads a catalog only when its request needs it: --check reads them all.
TEST_CASE("calendar-fcgi --check names an unreadable catalog and exits 1") {
  const std::string service = service_command();
  const std::string binary_dir = service.substr(0, service.rfind('/', service.find(' ')));
  const std::string dir = "/tmp/cal-check-catalogs-" + std::to_string(::getpid());
  REQUIRE(run("cp -r '" + binary_dir + "/locale' " + dir + " && printf 'not a catalog' > " + dir +
              "/fr_FR/LC_MESSAGES/calendar.mo")
              .exit_code == 0);
  const Run check = run(service + " --site.locale_dir=" + dir + " --check 2>&1");
  run("rm -rf " + dir);
  CHECK(check.exit_code == 1);
  CHECK_MESSAGE(check.out.find("\ncatalogs: failing: fr_FR: ") != std::string::npos, check.out);
  CHECK_MESSAGE(check.out.find("de_DE") == std::string::npos, check.out);
}

}  // namespace caltest
