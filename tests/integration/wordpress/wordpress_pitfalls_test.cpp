// import-wordpress and the pitfalls of WordPress + TEC data (docs/importing-wordpress.md,
// "What the importer repairs"): rows shaped like TEC's, each with a twist real sites have, added
// to TEC's Event Tickets dump; then a second run after edits, and a dry run.
#include "wordpress_source.h"

#include "support/client.h"
#include "support/commands.h"
#include "support/engine.h"

#include <doctest/doctest.h>

using wptest::Import;
using wptest::record;
using wptest::SourceDb;

namespace {

std::string str(const rapidjson::Value& v, const char* key) {
  REQUIRE_MESSAGE(v.HasMember(key), key);
  return v[key].IsString() ? v[key].GetString() : "";
}

std::string id(long long n) { return std::to_string(n); }

// The pitfall rows (ids 101..140), on a site with a manual UTC+5.5 offset and an editor.
void add_pitfalls(const SourceDb& src, const std::string& u) {
  src.sql(
      "UPDATE wp_options SET option_value = '5.5' WHERE option_name = 'gmt_offset';"
      "UPDATE wp_options SET option_value = '' WHERE option_name = 'timezone_string';"
      "INSERT INTO wp_users (ID, user_login, user_pass, user_nicename, user_email, user_registered, "
      "display_name) "
      "VALUES (7, 'ed" +
      u +
      "', '$P$x', 'ed', 'ed@example.test', '2019-01-01 00:00:00', 'Ed Itor');"
      "INSERT INTO wp_usermeta (user_id, meta_key, meta_value) VALUES "
      "(7, 'wp_capabilities', 'a:1:{s:6:\"editor\";b:1;}');");
  const std::map<std::string, std::string> by_editor = {{"post_author", "7"}};
  // Trashed: the status to restore and the slug from before the trash.
  src.add_post(101, "tribe_events", {{"post_status", "trash"}, {"post_name", "trashy-" + u + "__trashed"}});
  src.add_meta(101, {{"_EventStartDate", "2025-01-10 10:00:00"},
                     {"_EventEndDate", "2025-01-10 11:00:00"},
                     {"_wp_trash_meta_status", "private"},
                     {"_wp_desired_post_slug", "trashy-" + u}});
  // A draft: no slug yet, GMT date all zeros (WordPress's floating date).
  src.add_post(102, "tribe_events",
               {{"post_status", "draft"},
                {"post_name", ""},
                {"post_title", "Draft " + u},
                {"post_date", "2025-02-01 12:00:00"},
                {"post_date_gmt", "0000-00-00 00:00:00"}});
  src.add_meta(102, {{"_EventStartDate", "2025-01-10 10:00:00"}, {"_EventEndDate", "2025-01-10 11:00:00"}});
  // A decimal offset zone and no UTC dates.
  src.add_post(103, "tribe_events", {{"post_name", "offset-" + u}});
  src.add_meta(103, {{"_EventStartDate", "2025-01-10 10:00:00"},
                     {"_EventEndDate", "2025-01-10 11:00:00"},
                     {"_EventTimezone", "UTC+5.5"}});
  // Venue (legacy 'FALSE' flag) and three organizers.
  src.add_post(110, "tribe_venue", {{"post_title", "Hall " + u}, {"post_name", "hall-" + u}});
  src.add_meta(110, {{"_VenueCity", "Pune"}, {"_VenueShowMap", "FALSE"}});
  for (long long o : {111, 112, 113})
    src.add_post(o, "tribe_organizer",
                 {{"post_title", "Org " + id(o) + u}, {"post_name", "org-" + id(o) + u}});
  // The full one: duplicated keys, several costs, ordered organizers, flags, terms, an image.
  std::map<std::string, std::string> full = by_editor;
  full["menu_order"] = "-1";
  full["post_password"] = "secret";
  full["post_name"] = "full-" + u;
  src.add_post(104, "tribe_events", full);
  src.add_meta(104, {{"_EventStartDate", "2025-03-01 19:00:00"},
                     {"_EventEndDate", "2025-03-01 22:00:00"},
                     {"_EventStartDate", "2099-01-01 00:00:00"},  // a second row: the first one wins
                     {"_EventTimezone", "Asia/Kolkata"},
                     {"_EventStartDateUTC", "2025-03-01 13:30:00"},
                     {"_EventEndDateUTC", "2025-03-01 16:30:00"},
                     {"_EventCost", "25"},
                     {"_EventCost", "10"},
                     {"_EventCurrencySymbol", "€"},
                     {"_EventCurrencyPosition", "suffix"},
                     {"_EventOrganizerID", "112"},
                     {"_EventOrganizerID", "111"},
                     {"_EventOrganizerID", "999999"},
                     {"_EventOrganizerID", "113"},
                     {"_EventVenueID", "110"},
                     {"_EventShowMap", "FALSE"},
                     {"_EventShowMapLink", "0"},
                     {"_EventHideFromUpcoming", "yes"},
                     {"_tribe_featured", "1"},
                     {"_thumbnail_id", "120"}});
  src.add_post(120, "attachment",
               {{"post_status", "inherit"}, {"post_mime_type", "image/jpeg"}, {"post_name", "poster"}});
  src.add_meta(120, {{"_wp_attached_file", "2019/06/poster-" + u + ".jpg"}});
  // Recurrence rules stored by Pro before TEC 6.0, and one of its child occurrences.
  src.add_post(105, "tribe_events", {{"post_name", "series-" + u}});
  src.add_meta(105, {{"_EventStartDate", "2025-04-01 10:00:00"},
                     {"_EventEndDate", "2025-04-01 11:00:00"},
                     {"_EventRecurrence",
                      "a:3:{s:5:\"rules\";a:1:{i:0;a:1:{s:4:\"type\";s:5:\"Every\";}}"
                      "s:10:\"exclusions\";a:0:{}s:11:\"description\";s:0:\"\";}"}});
  src.add_post(133, "tribe_events", {{"post_parent", "105"}, {"post_name", "series-" + u + "-2"}});
  // All day with TEC's cutoff at 06:00: stored 06:00 to 05:59:59 the next day.
  src.add_post(107, "tribe_events", {{"post_name", "allday-" + u}});
  src.add_meta(107, {{"_EventStartDate", "2025-05-01 06:00:00"},
                     {"_EventEndDate", "2025-05-02 05:59:59"},
                     {"_EventAllDay", "yes"},
                     {"_EventTimezone", "UTC"}});
  // UTC dates that disagree with the zone (TEC's own remap records have such).
  src.add_post(108, "tribe_events", {{"post_name", "skewed-" + u}});
  src.add_meta(108, {{"_EventStartDate", "2025-06-01 10:00:00"},
                     {"_EventEndDate", "2025-06-01 11:00:00"},
                     {"_EventTimezone", "Europe/Paris"},
                     {"_EventStartDateUTC", "2025-06-01 10:00:00"},
                     {"_EventEndDateUTC", "2025-06-01 11:00:00"}});
  // Not ours: an auto-draft, a revision, an ignored event, an aggregator record.
  src.add_post(130, "tribe_events", {{"post_status", "auto-draft"}, {"post_name", ""}});
  src.add_post(131, "revision", {{"post_status", "inherit"}, {"post_parent", "104"}});
  src.add_post(132, "tribe_events", {{"post_status", "tribe-ignored"}});
  src.add_post(134, "tribe-ea-record", {{"post_status", "tribe-ea-success"}});
  // Terms: term_taxonomy_id differs from term_id; term 50 shared by a category and a tag (as
  // before WordPress 4.2); a child category; a tag no event uses.
  src.sql(
      "INSERT INTO wp_terms (term_id, name, slug, term_group) VALUES "
      "(50, 'Music &amp; Arts " +
      u + "', 'music-" + u + "', 0), (51, 'Jazz " + u + "', 'jazz-" + u +
      "', 0), "
      "(52, 'Unused', 'unused-" +
      u +
      "', 0);"
      "INSERT INTO wp_term_taxonomy (term_taxonomy_id, term_id, taxonomy, description, parent, count) VALUES "
      "(70, 50, 'tribe_events_cat', 'Programs &amp; more', 0, 0), (71, 51, 'tribe_events_cat', '', 50, 1), "
      "(72, 50, 'post_tag', '', 0, 1), (73, 52, 'post_tag', '', 0, 0);"
      "INSERT INTO wp_term_relationships (object_id, term_taxonomy_id, term_order) VALUES (104, 71, 0), "
      "(104, 72, 0);");
}

}  // namespace

TEST_CASE("wordpress: each pitfall of WordPress and TEC data arrives as TEC shows it, or is reported") {
  const std::string u = caltest::unique("p");
  const std::string site = "http://" + u + ".test";
  SourceDb src("et-dump-acceptance.sql", site);
  add_pitfalls(src, u);
  const Import imp = wptest::import(src);
  REQUIRE_MESSAGE(imp.exit_code == 0, imp.out << imp.err);
  CHECK(imp.report["site_timezone"].GetString() == std::string("UTC+5:30"));
  CHECK(caltest::engine::derived_data_mismatch() == "");

  SUBCASE("trash keeps the status before it and the slug from before") {
    // (The API answers a trashed event's GET with 403, as TEC does: read the row.)
    CHECK(wptest::target_sql(
              "SELECT CONCAT(status, ' ', status_before_trash, ' ', slug) FROM posts WHERE id = " +
              id(imp.id_of("event", 101))) == "trash private trashy-" + u);
  }
  SUBCASE("a draft without slug gets one from its title; its zero GMT date comes from the site zone") {
    const auto e = record("/events/" + id(imp.id_of("event", 102)));
    CHECK(str(e, "status") == "draft");
    std::string slug = "draft-" + u;
    for (char& c : slug) c = c == '_' ? '-' : c;
    CHECK(str(e, "slug") == slug);
    CHECK(str(e, "date") == "2025-02-01 12:00:00");
    CHECK(str(e, "date_utc") == "2025-02-01 06:30:00");
    CHECK(imp.changed("event", 102, "slug", "made from the title"));
  }
  SUBCASE("a UTC+5.5 zone is UTC+5:30 here, and missing UTC dates are computed from it") {
    const auto e = record("/events/" + id(imp.id_of("event", 103)));
    CHECK(str(e, "timezone") == "UTC+5:30");
    CHECK(str(e, "utc_start_date") == "2025-01-10 04:30:00");
    CHECK(imp.changed("event", 103, "timezone", "UTC+5:30"));
  }
  SUBCASE(
      "first meta row wins; costs, organizers in meta_id order, both truthiness rules, flags, terms, image") {
    const auto e = record("/events/" + id(imp.id_of("event", 104)) + "?password=secret");
    CHECK(str(e, "start_date") == "2025-03-01 19:00:00");
    CHECK(str(e, "utc_start_date") == "2025-03-01 13:30:00");
    CHECK(str(e, "timezone") == "Asia/Kolkata");
    CHECK(str(e, "cost") == "10€ – 25€");
    CHECK(imp.changed("event", 104, "cost", "2 _EventCost rows"));
    CHECK(e["show_map"].GetBool());  // 'FALSE' is true to PHP's (bool)
    CHECK_FALSE(e["show_map_link"].GetBool());
    CHECK(e["hide_from_listings"].GetBool());
    CHECK(e["sticky"].GetBool());
    CHECK(e["featured"].GetBool());
    REQUIRE(e["organizer"].Size() == 3);
    CHECK(e["organizer"][0]["id"].GetInt64() == imp.id_of("organizer", 112));
    CHECK(e["organizer"][1]["id"].GetInt64() == imp.id_of("organizer", 111));
    CHECK(e["organizer"][2]["id"].GetInt64() == imp.id_of("organizer", 113));
    CHECK(imp.changed("event", 104, "organizer", "999999"));
    REQUIRE(e["venue"].IsObject());
    CHECK(e["venue"]["id"].GetInt64() == imp.id_of("venue", 110));
    CHECK_FALSE(e["venue"]["show_map"].GetBool());  // 'FALSE' is false to tribe_is_truthy()
    CHECK(e["venue"]["show_map_link"].GetBool());   // absent: true
    REQUIRE(e["image"].IsObject());
    CHECK(str(e["image"], "url") == site + "/wp-content/uploads/2019/06/poster-" + u + ".jpg");
    CHECK(wptest::target_sql("SELECT password FROM posts WHERE id = " + id(imp.id_of("event", 104))) ==
          "secret");
    // Categories and tags through term_taxonomy_id; the shared term id went to the category.
    REQUIRE(e["categories"].Size() == 1);
    CHECK(str(e["categories"][0], "name") == "Jazz " + u);
    CHECK(e["categories"][0]["parent"].GetInt64() == imp.id_of("category", 50));
    REQUIRE(e["tags"].Size() == 1);
    CHECK(str(e["tags"][0], "name") == "Music &amp; Arts " + u);
    CHECK(str(e["tags"][0], "slug") == "music-" + u);
    CHECK(imp.changed("tag", 50, "id", "shared"));
    // Published events per term, kept by the import as the triggers would: the event counts.
    CHECK(record("/categories/" + std::to_string(e["categories"][0]["id"].GetInt64()))["count"].GetInt64() ==
          1);
    CHECK(record("/tags/" + std::to_string(e["tags"][0]["id"].GetInt64()))["count"].GetInt64() == 1);
    CHECK(wptest::target_sql("SELECT COUNT(*) FROM terms WHERE slug = 'unused-" + u + "'") == "0");
    // The author: a new user here with WordPress's role and a new application password, once.
    const long long author = e["author"].GetInt64();
    CHECK(author == imp.id_of("user", 7));
    CHECK(wptest::target_sql("SELECT CONCAT(login, ' ', role, ' ', display_name) FROM users WHERE id = " +
                             id(author)) == "ed" + u + " editor Ed Itor");
    CHECK(imp.out.find("new application password for ed" + u + ": ") != std::string::npos);
  }
  SUBCASE("a recurring series is its first occurrence, reported; its child occurrences are left out") {
    CHECK(imp.changed("event", 105, "", "first occurrence"));
    CHECK(imp.report["not_imported"]["occurrences of recurring events (child posts)"].GetInt64() == 1);
    CHECK(caltest::get("/cal/events/v1/events/by-slug/series-" + u + "-2",
                       {caltest::bearer(caltest::admin_token())})
              .status == 404);
  }
  SUBCASE("all day with a 06:00 cutoff keeps its stored days") {
    const auto e = record("/events/" + id(imp.id_of("event", 107)));
    CHECK(e["all_day"].GetBool());
    CHECK(str(e, "start_date").substr(0, 10) == "2025-05-01");
    CHECK(str(e, "end_date").substr(0, 10) == "2025-05-02");
  }
  SUBCASE("UTC dates that disagree with the zone are kept as stored, and reported") {
    const auto e = record("/events/" + id(imp.id_of("event", 108)));
    CHECK(str(e, "utc_start_date") == "2025-06-01 10:00:00");
    CHECK(imp.changed("event", 108, "utc_start_date", "disagree"));
  }
  SUBCASE("what is not ours is counted, not imported") {
    CHECK(imp.report["not_imported"]["auto-drafts"].GetInt64() == 1);
    CHECK(imp.report["not_imported"]["revisions"].GetInt64() == 1);
    CHECK(imp.report["not_imported"]["ignored events (tribe-ignored)"].GetInt64() == 1);
    CHECK(imp.report["not_imported"]["Event Aggregator records"].GetInt64() == 1);
    CHECK(imp.count("event", "skipped") == 3);  // auto-draft, tribe-ignored, the child occurrence
  }
}

TEST_CASE("wordpress: a second run updates what changed in WordPress, adds what is new, never duplicates") {
  const std::string u = caltest::unique("r");
  SourceDb src("et-dump-acceptance.sql", "http://" + u + ".test");
  add_pitfalls(src, u);
  const Import first = wptest::import(src);
  REQUIRE_MESSAGE(first.exit_code == 0, first.out << first.err);
  const long long events = first.count("event", "imported");
  const std::string mapped =
      wptest::target_sql("SELECT COUNT(*) FROM wordpress_imports WHERE source = 'http://" + u + ".test wp_'");

  src.sql(
      "UPDATE wp_posts SET post_title = 'Renamed' WHERE ID = 103;"
      "UPDATE wp_postmeta SET meta_value = '30' WHERE post_id = 104 AND meta_key = '_EventCost' AND "
      "meta_value = '25';"
      "UPDATE wp_terms SET name = 'Bebop " +
      u + "' WHERE term_id = 51;");
  // An imported event deleted here since: the next run brings it back.
  wptest::target_sql("DELETE FROM posts WHERE id = " + id(first.id_of("event", 107)));
  src.add_post(140, "tribe_events", {{"post_name", "new-" + u}});
  src.add_meta(140, {{"_EventStartDate", "2025-08-01 10:00:00"}, {"_EventEndDate", "2025-08-01 11:00:00"}});
  const Import second = wptest::import(src);
  REQUIRE_MESSAGE(second.exit_code == 0, second.out << second.err);
  CHECK(second.count("event", "imported") == 2);
  CHECK(second.count("event", "updated") == 2);
  CHECK(second.count("event", "unchanged") == events - 3);
  CHECK(record("/events/" + id(second.id_of("event", 107)))["all_day"].GetBool());
  CHECK(second.count("category", "updated") == 1);
  CHECK(second.count("user", "unchanged") == 2);
  CHECK(second.out.find("new application password") == std::string::npos);
  CHECK(str(record("/events/" + id(second.id_of("event", 103))), "title") == "Renamed");
  CHECK(str(record("/events/" + id(second.id_of("event", 104)) + "?password=secret"), "cost") == "10€ – 30€");
  CHECK(second.id_of("event", 104) == first.id_of("event", 104));
  CHECK(wptest::target_sql("SELECT COUNT(*) FROM posts WHERE type = 'event' AND slug LIKE 'full-" + u +
                           "%'") == "1");
  CHECK(wptest::target_sql("SELECT COUNT(*) FROM wordpress_imports WHERE source = 'http://" + u +
                           ".test wp_'") == std::to_string(std::stoll(mapped) + 1));

  // A third run with nothing changed writes nothing.
  const Import third = wptest::import(src);
  REQUIRE(third.exit_code == 0);
  CHECK(third.count("event", "imported") == 0);
  CHECK(third.count("event", "updated") == 0);
  CHECK(caltest::engine::derived_data_mismatch() == "");
}

TEST_CASE("wordpress: --dry-run reports what it would do and writes nothing") {
  const std::string u = caltest::unique("d");
  SourceDb src("et-dump-acceptance.sql", "http://" + u + ".test");
  add_pitfalls(src, u);
  const std::string before =
      wptest::target_sql("SELECT CONCAT(COUNT(*), ' ', COALESCE(MAX(id), 0)) FROM posts");
  const std::string users = wptest::target_sql("SELECT COUNT(*) FROM users");
  const Import imp = wptest::import(src, "--dry-run");
  REQUIRE_MESSAGE(imp.exit_code == 0, imp.out << imp.err);
  CHECK(imp.report["dry_run"].GetBool());
  CHECK(imp.count("event", "imported") >= 7);
  CHECK(imp.out.find("dry run") != std::string::npos);
  CHECK(imp.out.find("new application password") == std::string::npos);
  CHECK(wptest::target_sql("SELECT CONCAT(COUNT(*), ' ', COALESCE(MAX(id), 0)) FROM posts") == before);
  CHECK(wptest::target_sql("SELECT COUNT(*) FROM users") == users);
  CHECK(wptest::target_sql("SELECT COUNT(*) FROM wordpress_imports WHERE source = 'http://" + u +
                           ".test wp_'") == "0");
  // The real run afterwards imports the same counts.
  const Import real = wptest::import(src);
  REQUIRE(real.exit_code == 0);
  CHECK(real.count("event", "imported") == imp.count("event", "imported"));
}
