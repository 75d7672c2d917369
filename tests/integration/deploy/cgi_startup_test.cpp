// What a plain CGI process reads besides its config (docs/performance.md, "CGI"): each request
// starts the program anew, so it opens the one zone file the request needs, not the whole time
// zone database, the catalog of the request's language only when it translates a text, not
// OpenSSL's config (the service makes no TLS connections), and no NSS module for the client
// library's lookup of the "mysql" service, and no shared library but glibc's (the rest is linked in;
// the Makefile says why). Seen with strace (installed by scripts/install-deps.sh) around one request.
#include <doctest/doctest.h>

#include <unistd.h>

#include <sstream>
#include <string>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/engine.h"

namespace caltest {
namespace {

TEST_CASE("a CGI request opens only the zone file it needs, no OpenSSL config, no NSS module") {
  REQUIRE_MESSAGE(run("command -v strace >/dev/null").exit_code == 0, "strace is not installed");
  const std::string trace = "/tmp/cal-cgi-startup-" + std::to_string(::getpid()) + ".trace";
  // Dates read in the site's zone, and a window no event is in (their zones would be read too).
  const Run cgi =
      run("env -i REQUEST_METHOD=GET SCRIPT_NAME=/api PATH_INFO=/cal/events/v1/events"
          " QUERY_STRING='start_date=1900-01-01&end_date=1900-01-02' HTTP_HOST=example.org"
          " strace -f -qq -e trace=open,openat -o " +
          trace + " " + service_command() + " --site.timezone=Europe/Berlin </dev/null 2>/dev/null");
  // Failed opens too: Debian's nsswitch.conf (`services: db files`) has glibc look for libnss_db
  // in every library directory, found or not.
  const Run nss = run("grep -c 'libnss_' " + trace);
  const Run opened = run("grep -v ENOENT " + trace + "; rm -f " + trace);
  CHECK_MESSAGE(cgi.out.rfind("Status: 200", 0) == 0, cgi.out.substr(0, 300));
  CHECK_MESSAGE(nss.out == "0\n", "NSS modules looked for: " << nss.out);
  std::vector<std::string> zone_opens;
  std::istringstream lines(opened.out);
  for (std::string line; std::getline(lines, line);) {
    CHECK_MESSAGE(line.find("openssl.cnf") == std::string::npos, line);
    if (line.find("/zoneinfo") != std::string::npos) zone_opens.push_back(line);
  }
  CAPTURE(opened.out);
  REQUIRE(zone_opens.size() == 1);
  CHECK(zone_opens[0].find("\"/usr/share/zoneinfo/Europe/Berlin\"") != std::string::npos);
  // An answer without a text to translate reads no catalog.
  CHECK(opened.out.find("calendar.mo") == std::string::npos);
}

TEST_CASE("a CGI request reads the catalog of its language only, and only to translate") {
  REQUIRE_MESSAGE(run("command -v strace >/dev/null").exit_code == 0, "strace is not installed");
  const std::string trace = "/tmp/cal-cgi-catalogs-" + std::to_string(::getpid()) + ".trace";
  const Run cgi =
      run("env -i REQUEST_METHOD=GET SCRIPT_NAME=/api PATH_INFO=/cal/events/v1/events/999999999"
          " HTTP_ACCEPT_LANGUAGE=de-DE HTTP_HOST=example.org strace -f -qq -e trace=open,openat -o " +
          trace + " " + service_command() + " </dev/null 2>/dev/null");
  const Run catalogs =
      run("grep -o '[a-z][a-z]_[A-Z][A-Z]/LC_MESSAGES/calendar.mo' " + trace + "; rm -f " + trace);
  CHECK_MESSAGE(cgi.out.rfind("Status: 404", 0) == 0, cgi.out.substr(0, 300));
  CHECK_MESSAGE(cgi.out.find("Die angeforderte Veranstaltung wurde nicht gefunden.") != std::string::npos,
                cgi.out);
  CHECK(catalogs.out == "de_DE/LC_MESSAGES/calendar.mo\n");
}

// MariaDB Connector/C is linked in, its authentication plugins are not: an account that logs in
// with ed25519 makes the process load client_ed25519.so (with its own libcrypto) at connect time.
TEST_CASE("a CGI process loads no shared library but glibc's, and still logs in with ed25519") {
  REQUIRE_MESSAGE(run("command -v strace >/dev/null").exit_code == 0, "strace is not installed");
  if (engine::sql("SELECT COUNT(*) FROM information_schema.PLUGINS WHERE PLUGIN_NAME = 'ed25519'") == "0")
    engine::sql("INSTALL SONAME 'auth_ed25519'");
  const std::string user = unique("cgi_ed");
  const std::string account = "'" + user + "'@'localhost'";
  const std::string password = "CgiEd25519Login1";
  engine::sql("CREATE USER " + account + " IDENTIFIED VIA ed25519 USING PASSWORD('" + password +
              "'); GRANT SELECT ON calendar.* TO " + account);
  const std::string trace = "/tmp/cal-cgi-libraries-" + std::to_string(::getpid()) + ".trace";
  const Run cgi =
      run("env -i REQUEST_METHOD=GET SCRIPT_NAME=/api PATH_INFO=/cal/events/v1/events"
          " QUERY_STRING='start_date=1900-01-01&end_date=1900-01-02' HTTP_HOST=example.org"
          " strace -f -qq -e trace=open,openat -o " +
          trace + " " + service_command() + " --database.user=" + user + " --database.password=" + password +
          " </dev/null 2>/dev/null");
  // The file names of the shared objects opened, one per line.
  const Run libraries = run("grep -v ENOENT " + trace +
                            " | grep -o '[^/\"]*[.]so[.0-9]*\"' | tr -d '\"' | sort -u; rm -f " + trace);
  engine::sql("DROP USER " + account);
  CHECK_MESSAGE(cgi.out.rfind("Status: 200", 0) == 0, cgi.out.substr(0, 300));
  CHECK(libraries.out.find("client_ed25519.so\n") != std::string::npos);
  // The sanitizer build links every library shared (the Makefile).
  const std::string binary = service_command().substr(0, service_command().find(' '));
  if (run("readelf -d " + binary + " | grep -q libasan").exit_code == 0) return;
  CHECK(libraries.out == "client_ed25519.so\nlibc.so.6\nlibcrypto.so.3\nlibm.so.6\n");
}

}  // namespace
}  // namespace caltest
