// import-wordpress refuses a source it cannot import with a clear message and changes nothing:
// unreachable, a wrong prefix (the ones found listed), no TEC data, a multisite database without
// --site (docs/importing-wordpress.md, "When it refuses"); and latin1 tables holding UTF-8, which it
// repairs.
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
  SUBCASE("an unreadable --password-file") {
    SourceDb src("et-dump-acceptance.sql", "http://" + caltest::unique("pw") + ".test");
    check_refused(wptest::import(src, "--password-file /nonexistent/pw"), 1, "cannot read --password-file");
  }
  CHECK(target_state() == before);
}

TEST_CASE(
    "wordpress: latin1 tables: UTF-8 text in them (double-encoded) is repaired, latin1 text read as it is") {
  SourceDb src("et-dump-acceptance.sql", "http://" + caltest::unique("l2") + ".test");
  // Event 1's title holds the UTF-8 bytes of "Café" in a latin1 column (a site written through
  // a latin1 connection), event 3's the latin1 byte of é; a meta value likewise.
  src.sql(
      "ALTER TABLE wp_posts MODIFY post_title TEXT CHARACTER SET latin1 NOT NULL;"
      "ALTER TABLE wp_postmeta MODIFY meta_value LONGTEXT CHARACTER SET latin1;"
      "UPDATE wp_posts SET post_title = CONVERT(UNHEX('436166C3A9') USING latin1) WHERE ID = 1;"
      "UPDATE wp_posts SET post_title = CONVERT(UNHEX('436166E9') USING latin1), post_type = 'tribe_events' "
      "WHERE ID = 3;"
      "DELETE FROM wp_postmeta WHERE post_id = 1 AND meta_key = '_EventURL';"
      "INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES (3, '_EventStartDate', '2025-01-01 "
      "10:00:00'), (3, '_EventEndDate', '2025-01-01 11:00:00'), (1, '_EventURL', "
      "CONVERT(UNHEX('687474703A2F2F6578616D706C652E746573742F63C3A9') USING latin1));");
  const Import imp = wptest::import(src);
  REQUIRE_MESSAGE(imp.exit_code == 0, imp.err);
  CHECK(imp.changed("site", 0, "charset", "wp_posts.post_title is latin1 but holds UTF-8 text in 1 rows"));
  CHECK(imp.changed("site", 0, "charset", "wp_postmeta.meta_value is latin1 but holds UTF-8 text in 1 rows"));
  const auto e = wptest::record("/events/" + std::to_string(imp.id_of("event", 1)));
  CHECK(std::string(e["title"].GetString()) == "Café");
  CHECK(std::string(e["website"].GetString()) == "http://example.test/cé");
  const auto other = wptest::record("/events/" + std::to_string(imp.id_of("event", 3)));
  CHECK(std::string(other["title"].GetString()) == "Café");
}

TEST_CASE("wordpress: one site of a multisite network, read by a user that may only SELECT") {
  const std::string u = caltest::unique("ms");
  SourceDb src("et-dump-acceptance.sql", "http://" + u + ".test");
  // Site 2 of the network: its own wp_2_ tables (here a copy of the main site's, with its own
  // event), the users shared, the role under wp_2_capabilities.
  std::string copy;
  for (const char* t : {"options", "posts", "postmeta", "terms", "term_taxonomy", "term_relationships"})
    copy += std::string("CREATE TABLE wp_2_") + t + " LIKE wp_" + t + "; INSERT INTO wp_2_" + t +
            " SELECT * FROM wp_" + t + ";";
  src.sql(copy +
          "CREATE TABLE wp_blogs (blog_id BIGINT PRIMARY KEY, domain VARCHAR(200));"
          "INSERT INTO wp_blogs VALUES (1, 'a.test'), (2, 'b.test');"
          "UPDATE wp_2_options SET option_value = 'http://" +
          u +
          ".test/two' WHERE option_name = 'siteurl';"
          "UPDATE wp_2_posts SET post_title = 'Only on site two' WHERE ID = 1;"
          "INSERT INTO wp_users (ID, user_login, user_pass, user_nicename, user_email, user_registered, "
          "display_name) "
          "VALUES (9, 'au" +
          u +
          "', '$P$x', 'au', 'au@example.test', '2019-01-01 00:00:00', 'Au Thor');"
          "INSERT INTO wp_usermeta (user_id, meta_key, meta_value) VALUES (9, 'wp_2_capabilities', "
          "'a:1:{s:6:\"author\";b:1;}'), (9, 'wp_capabilities', 'a:1:{s:13:\"administrator\";b:1;}');"
          "UPDATE wp_2_posts SET post_author = 9 WHERE ID = 1;");
  // A reader with a password and SELECT only: the import never writes to the source.
  const std::string reader = "r" + std::to_string(std::hash<std::string>{}(u) % 1000000);
  src.sql("CREATE USER '" + reader + "'@'localhost' IDENTIFIED BY 'pw-" + u + "'; GRANT SELECT ON " +
          src.name() + ".* TO '" + reader + "'@'localhost';");
  const std::string password_file = std::string(std::getenv("CAL_TEST_DIR")) + "/" + reader + ".pw";
  caltest::run("printf 'pw-" + u + "\\n' > " + password_file);
  const Import imp =
      wptest::import_raw("--from mysql://" + reader + "@localhost/" + src.name() + " --socket " +
                         wptest::socket_path() + " --password-file " + password_file + " --site 2");
  src.sql("DROP USER '" + reader + "'@'localhost';");
  caltest::run("rm -f " + password_file);
  REQUIRE_MESSAGE(imp.exit_code == 0, imp.out << imp.err);
  CHECK(imp.report["site"].GetInt64() == 2);
  CHECK(imp.report["source"].GetString() == "http://" + u + ".test/two");
  CHECK(imp.count("event", "imported") == 1);
  const auto e = wptest::record("/events/" + std::to_string(imp.id_of("event", 1)));
  CHECK(std::string(e["title"].GetString()) == "Only on site two");
  // Site two's role, not the main site's.
  CHECK(wptest::target_sql("SELECT role FROM users WHERE id = " + std::to_string(e["author"].GetInt64())) ==
        "author");
  // Progress went to standard error, the report to standard output.
  CHECK(imp.err.find("import-wordpress: 1 events") != std::string::npos);
  CHECK(imp.err.find("s left") != std::string::npos);
  CHECK(imp.out.find("(prefix wp_, site 2)") != std::string::npos);
}
