// import-wordpress refuses a source it cannot import with a clear message and changes nothing:
// unreachable, a wrong prefix (the ones found listed), no TEC data, a multisite database without
// --site, latin1 tables holding UTF-8 (docs/importing-wordpress.md, "When it refuses").
#include "wordpress_source.h"

#include "support/client.h"
#include "support/commands.h"

#include <doctest/doctest.h>

using wptest::Import;
using wptest::SourceDb;

namespace {

// What the target holds: any write would change it.
std::string target_state() {
  return wptest::target_sql(
      "SELECT CONCAT((SELECT COUNT(*) FROM posts), ' ', (SELECT COUNT(*) FROM terms), ' ', (SELECT COUNT(*) "
      "FROM "
      "users), ' ', (SELECT COUNT(*) FROM wordpress_imports))");
}

void check_refused(const Import& imp, int status, const std::string& words) {
  CHECK_MESSAGE(imp.exit_code == status, imp.err);
  CHECK_MESSAGE(imp.err.find(words) != std::string::npos, imp.err);
  CHECK(imp.out.empty());
}

}  // namespace

TEST_CASE("wordpress: bad sources are refused with a clear message and nothing changes") {
  const std::string before = target_state();
  SUBCASE("an unreachable server") {
    check_refused(wptest::import_raw("--from mysql://root@127.0.0.1:1/wordpress"), 1,
                  "cannot reach the WordPress database");
  }
  SUBCASE("a --from that is no mysql:// URL, or holds a password") {
    check_refused(wptest::import_raw("--from http://example.test/wp"), 2, "mysql://USER@HOST[:PORT]/DB");
    check_refused(wptest::import_raw("--from mysql://root:pw@localhost/wp"), 2, "--password-file");
    check_refused(wptest::import_raw("--from mysql://root@localhost:99999/wp"), 2, "port");
    check_refused(wptest::import_raw(""), 2, "needs --from");
  }
  SUBCASE("a wrong prefix: the prefixes found are listed (one database, two installs)") {
    SourceDb src("tec-dump.sql", "");
    check_refused(wptest::import(src, "--prefix nope_"), 1,
                  "no WordPress tables with prefix nope_ in " + src.name() +
                      "; prefixes found: test_ (The Events Calendar), wp_");
  }
  SUBCASE("an install without The Events Calendar") {
    SourceDb src("tec-dump.sql", "");
    check_refused(wptest::import(src, "--prefix wp_"), 1,
                  "wp_ holds WordPress but no The Events Calendar data");
  }
  SUBCASE("no WordPress at all") {
    SourceDb src("", "");
    check_refused(wptest::import(src), 1, "no WordPress tables in " + src.name());
  }
  SUBCASE("a multisite database without --site, and a site that is not there") {
    SourceDb src("et-dump-acceptance.sql", "http://" + caltest::unique("ms") + ".test");
    src.sql(
        "CREATE TABLE wp_blogs (blog_id BIGINT PRIMARY KEY, domain VARCHAR(200));"
        "INSERT INTO wp_blogs VALUES (1, 'a.test'), (2, 'b.test');");
    check_refused(wptest::import(src), 1, "a multisite database with 2 sites: choose one with --site N");
    check_refused(wptest::import(src, "--site 2"), 1, "no tables of site 2 (wp_2_posts)");
    check_refused(wptest::import(src, "--site two"), 2, "--site must be a site number");
  }
  SUBCASE("a latin1 table holding UTF-8 text (double-encoded) is named") {
    SourceDb src("et-dump-acceptance.sql", "http://" + caltest::unique("l1") + ".test");
    src.sql(
        "ALTER TABLE wp_posts MODIFY post_title TEXT CHARACTER SET latin1 NOT NULL;"
        "UPDATE wp_posts SET post_title = CONVERT(UNHEX('436166C3A9') USING latin1) WHERE ID = 1;");
    check_refused(wptest::import(src), 1,
                  "table wp_posts is latin1 but its column post_title holds UTF-8 text in 1 rows");
  }
  SUBCASE("an unreadable --password-file") {
    SourceDb src("et-dump-acceptance.sql", "http://" + caltest::unique("pw") + ".test");
    check_refused(wptest::import(src, "--password-file /nonexistent/pw"), 1, "cannot read --password-file");
  }
  CHECK(target_state() == before);
}

TEST_CASE("wordpress: a latin1 table holding only latin1 text imports as it reads") {
  SourceDb src("et-dump-acceptance.sql", "http://" + caltest::unique("l2") + ".test");
  src.sql(
      "ALTER TABLE wp_posts MODIFY post_title TEXT CHARACTER SET latin1 NOT NULL;"
      "UPDATE wp_posts SET post_title = CONVERT(UNHEX('436166E9') USING latin1) WHERE ID = 1;");
  const Import imp = wptest::import(src);
  REQUIRE_MESSAGE(imp.exit_code == 0, imp.err);
  const auto e = wptest::record("/events/" + std::to_string(imp.id_of("event", 1)));
  CHECK(std::string(e["title"].GetString()) == "Café");
}
