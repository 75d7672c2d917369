// import-wordpress against TEC's own test databases and records (tests/fixtures/wordpress/):
// every imported record read back through our API, field by field, against what TEC's REST API
// derives from the same rows (docs/importing-wordpress.md, "What TEC shows and what we show").
#include "wordpress_source.h"

#include "support/client.h"
#include "support/commands.h"
#include "support/engine.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using wptest::Import;
using wptest::record;
using wptest::SourceDb;

namespace {

// The remap records, and the id each is inserted under (three share TEC's id 8).
const std::pair<const char*, long long> kRemapEvents[] = {{"events-all-day-1.json", 1122},
                                                          {"events-featured-1.json", 7},
                                                          {"events-featured-2.json", 7689},
                                                          {"events-multiday-1.json", 1142},
                                                          {"events-single-1.json", 8},
                                                          {"events-single-2.json", 9},
                                                          {"events-single-3.json", 8234234},
                                                          {"events-single-4.json", 9234324},
                                                          {"events-single-canceled_status.json", 20},
                                                          {"events-single-postponed_status.json", 21},
                                                          {"events-single-website.json", 13}};

rapidjson::Document remap(const std::string& file) {
  std::ifstream in(wptest::fixtures_dir() + "/tec-remap/" + file);
  std::stringstream text;
  text << in.rdbuf();
  rapidjson::Document d;
  d.Parse(text.str().c_str());
  REQUIRE(d.IsObject());
  return d;
}

// The first stored value of a meta key, as get_post_meta(..., true) reads it; nullptr if none.
const char* meta(const rapidjson::Document& d, const char* key) {
  const auto& m = d["meta_input"];
  if (!m.HasMember(key) || m[key].Empty()) return nullptr;
  return m[key][0].GetString();
}

std::string str(const rapidjson::Value& v, const char* key) {
  REQUIRE_MESSAGE(v.HasMember(key), key);
  return v[key].IsString() ? v[key].GetString() : "";
}

// TEC's readings: tribe_is_truthy() for all-day, PHP's (bool) for the event map flags.
bool truthy(const char* v) {
  const std::string s = v ? v : "";
  return s == "1" || s == "yes" || s == "true";
}
bool php_bool(const char* v, bool absent) {
  return v ? std::string(v) != "" && std::string(v) != "0" : absent;
}

}  // namespace

TEST_CASE("wordpress: TEC's remap records and its Event Tickets site read back as TEC shows them") {
  const std::string site = "http://" + caltest::unique("remap") + ".test";
  SourceDb src("et-dump-acceptance.sql", site);
  for (const auto& [file, id] : kRemapEvents) src.add_post_json(file, id);
  src.add_post_json("venues-1.json");
  src.add_post_json("organizers-1.json");
  // Links as TEC writes them: the venue id, organizer ids one row each.
  src.add_meta(8, {{"_EventVenueID", "2233"}, {"_EventOrganizerID", "3344"}});

  const Import imp = wptest::import(src);
  REQUIRE_MESSAGE(imp.exit_code == 0, imp.out << imp.err);
  CHECK(imp.count("event", "imported") == 12);  // the 11 records and "RSVP Test"
  CHECK(imp.count("venue", "imported") == 1);
  CHECK(imp.count("organizer", "imported") == 1);
  CHECK(imp.report["not_imported"]["tickets and attendees"].GetInt64() == 1);  // the RSVP ticket post
  CHECK(imp.report["site_timezone"].GetString() == std::string("UTC"));
  const long long admin = caltest::user_id("admin");  // WordPress's admin: the login exists here

  for (const auto& [file, wp_id] : kRemapEvents) {
    CAPTURE(file);
    const rapidjson::Document d = remap(file);
    const long long id = imp.id_of("event", wp_id);
    const rapidjson::Document e = record("/events/" + std::to_string(id));
    CHECK(str(e, "title") == str(d, "post_title"));
    CHECK(str(e, "status") == str(d, "post_status"));
    CHECK(str(e, "date") == str(d, "post_date"));
    CHECK(str(e, "date_utc") == str(d, "post_date_gmt"));
    CHECK(str(e, "modified_utc") == str(d, "post_modified_gmt"));
    CHECK(str(e, "start_date") == meta(d, "_EventStartDate"));
    CHECK(str(e, "end_date") == meta(d, "_EventEndDate"));
    CHECK(str(e, "utc_start_date") == meta(d, "_EventStartDateUTC"));
    CHECK(str(e, "utc_end_date") == meta(d, "_EventEndDateUTC"));
    CHECK(e["all_day"].GetBool() == truthy(meta(d, "_EventAllDay")));
    CHECK(e["featured"].GetBool() ==
          (meta(d, "_tribe_featured") && std::string(meta(d, "_tribe_featured")) == "1"));
    CHECK(e["show_map"].GetBool() == php_bool(meta(d, "_EventShowMap"), true));
    CHECK(e["show_map_link"].GetBool() == php_bool(meta(d, "_EventShowMapLink"), true));
    CHECK(e["hide_from_listings"].GetBool() == false);
    CHECK(e["sticky"].GetBool() == (d["menu_order"].GetInt() == -1));
    CHECK(e["author"].GetInt64() == (str(d, "post_author") == "0" ? 0 : admin));
    // No _EventTimezone stored: TEC falls back to the site zone, which is UTC here.
    CHECK(str(e, "timezone") == "UTC");
    CHECK(imp.changed("event", wp_id, "timezone", "none stored"));
    if (const char* url = meta(d, "_EventURL")) CHECK(str(e, "website") == url);
    // Two pairs of records share slugs in TEC's files: the second of each gets a suffix, reported.
    const std::string slug = str(d, "post_name");
    if (imp.changed("event", wp_id, "slug", "taken here"))
      CHECK(str(e, "slug").rfind(slug + "-", 0) == 0);
    else
      CHECK(str(e, "slug") == slug);
  }
  CHECK(imp.changed("event", 8234234, "slug", "taken here"));
  CHECK(imp.changed("event", 20, "status", "canceled"));
  CHECK(imp.changed("event", 21, "status", "postponed"));

  // The linked venue and organizer, as TEC's REST shows them on the event.
  const rapidjson::Document e8 = record("/events/" + std::to_string(imp.id_of("event", 8)));
  REQUIRE(e8["venue"].IsObject());
  CHECK(e8["venue"]["id"].GetInt64() == imp.id_of("venue", 2233));
  REQUIRE(e8["organizer"].Size() == 1);
  CHECK(e8["organizer"][0]["id"].GetInt64() == imp.id_of("organizer", 3344));
  // The list by venue and by organizer reads the link rows' copies of the event (written by the
  // bulk insert instead of the triggers): the event is found there.
  for (const std::string& filter : {"venue=" + std::to_string(imp.id_of("venue", 2233)),
                                    "organizer=" + std::to_string(imp.id_of("organizer", 3344))}) {
    const rapidjson::Document list = record("/events?start_date=2019-06-01&end_date=2019-07-01&" + filter);
    REQUIRE_MESSAGE(list["events"].Size() == 1, filter);
    CHECK(list["events"][0]["id"].GetInt64() == imp.id_of("event", 8));
    CHECK(list["total"].GetInt64() == 1);
  }
  const rapidjson::Document v = record("/venues/" + std::to_string(imp.id_of("venue", 2233)));
  CHECK(str(v, "venue") == "Venue 2233 title");
  CHECK((str(v, "slug") == "venue-2233" || imp.changed("venue", 2233, "slug", "taken here")));
  CHECK(str(v, "address") == "100 Rue de Le Chat");
  CHECK(str(v, "city") == "Paris");
  CHECK(str(v, "country") == "France");
  CHECK(str(v, "province") == "Ile de France");
  CHECK(str(v, "state") == "Ile de France");
  CHECK(str(v, "stateprovince") == "Ile de France");
  CHECK(str(v, "zip") == "75019");
  CHECK(str(v, "phone") == "11223344");
  CHECK(str(v, "website") == "http://venue.org");
  CHECK(v["show_map"].GetBool());
  CHECK(v["show_map_link"].GetBool());
  // Pro's coordinates are kept (the API shows them while the geolocation extension is on).
  CHECK(wptest::target_sql("SELECT CONCAT(geo_lat, ',', geo_lng) FROM venue_details WHERE venue_id = " +
                           std::to_string(imp.id_of("venue", 2233))) == "48.8624784,2.3648085");
  const rapidjson::Document o = record("/organizers/" + std::to_string(imp.id_of("organizer", 3344)));
  CHECK(str(o, "organizer") == "Organizer 3344");
  CHECK(str(o, "phone") == "111223344");
  CHECK(str(o, "website") == "http://organizer.org");
  CHECK(str(o, "email") == "organizer@organizer.org");

  // Event Tickets' own event: block-editor content kept as HTML, cost '0' with its '$' → Free,
  // the empty _EventVenueID '0' and the stray empty venue keys on the event ignored.
  const rapidjson::Document rsvp = record("/events/" + std::to_string(imp.id_of("event", 1)));
  CHECK(str(rsvp, "title") == "RSVP Test");
  CHECK(str(rsvp, "description").find("<!-- wp:tribe/event-datetime /-->") != std::string::npos);
  CHECK(str(rsvp, "cost") == "Free");
  // The dump dates its event a week after the day it is loaded.
  CHECK(str(rsvp, "start_date") ==
        src.sql("SELECT postmeta.meta_value FROM wp_postmeta postmeta "
                "WHERE postmeta.post_id = 1 AND postmeta.meta_key = '_EventStartDate'"));
  CHECK(str(rsvp, "timezone") == "UTC");
  CHECK(rsvp["venue"].IsArray());
  CHECK(rsvp["venue"].Size() == 0);
  // The bulk insert kept the list engine's copies and rollups as the triggers would.
  CHECK(caltest::engine::derived_data_mismatch() == "");
}

TEST_CASE("wordpress: the other TEC dumps: a second install's prefix, a site zone with an empty gmt_offset") {
  SUBCASE("tec-dump.sql holds wp_ and test_; only test_ has The Events Calendar, so it is chosen") {
    SourceDb src("tec-dump.sql", "");
    src.sql("UPDATE test_options SET option_value = 'http://" + caltest::unique("tecdump") +
            ".test' WHERE option_name = 'siteurl'");
    const Import imp = wptest::import(src);
    REQUIRE_MESSAGE(imp.exit_code == 0, imp.out << imp.err);
    CHECK(imp.report["prefix"].GetString() == std::string("test_"));
    CHECK(imp.count("event", "imported") == 0);
  }
  SUBCASE("tec-restv1-dump.sql: America/Los_Angeles with gmt_offset ''; an event without a zone takes it") {
    SourceDb src("tec-restv1-dump.sql", "http://" + caltest::unique("restv1") + ".test");
    src.add_post(501, "tribe_events", {{"post_title", "Zone-less"}, {"post_name", "zone-less"}});
    // Stored before TEC 4.0: no zone and no UTC dates; both come from the site zone (PDT, -7).
    src.add_meta(501, {{"_EventStartDate", "2025-07-01 10:00:00"}, {"_EventEndDate", "2025-07-01 12:00:00"}});
    const Import imp = wptest::import(src);
    REQUIRE_MESSAGE(imp.exit_code == 0, imp.out << imp.err);
    CHECK(imp.report["site_timezone"].GetString() == std::string("America/Los_Angeles"));
    const rapidjson::Document e = record("/events/" + std::to_string(imp.id_of("event", 501)));
    CHECK(str(e, "timezone") == "America/Los_Angeles");
    CHECK(str(e, "utc_start_date") == "2025-07-01 17:00:00");
    CHECK(str(e, "utc_end_date") == "2025-07-01 19:00:00");
    CHECK(imp.changed("event", 501, "utc_start_date", "computed from the time zone"));
  }
  SUBCASE(
      "tec-ct1_migration-dump.sql: a series in TEC's custom tables becomes its first occurrence, reported") {
    SourceDb src("tec-ct1_migration-dump.sql", "http://" + caltest::unique("ct1") + ".test");
    src.add_post(601, "tribe_events", {{"post_title", "Weekly"}, {"post_name", "weekly"}});
    src.add_meta(601, {{"_EventStartDate", "2025-03-03 18:00:00"},
                       {"_EventEndDate", "2025-03-03 19:00:00"},
                       {"_EventTimezone", "Europe/Paris"},
                       {"_EventStartDateUTC", "2025-03-03 17:00:00"},
                       {"_EventEndDateUTC", "2025-03-03 18:00:00"}});
    src.sql(
        "INSERT INTO wp_tec_events (event_id, post_id, start_date, end_date, timezone, start_date_utc, "
        "end_date_utc, "
        "duration, hash) VALUES (1, 601, '2025-03-03 18:00:00', '2025-03-03 19:00:00', 'Europe/Paris', "
        "'2025-03-03 17:00:00', '2025-03-03 18:00:00', 3600, 'h');"
        "INSERT INTO wp_tec_occurrences (occurrence_id, event_id, post_id, start_date, start_date_utc, "
        "end_date, "
        "end_date_utc, duration, hash) VALUES (1, 1, 601, '2025-03-03 18:00:00', '2025-03-03 17:00:00', "
        "'2025-03-03 19:00:00', '2025-03-03 18:00:00', 3600, 'a'), (2, 1, 601, '2025-03-10 18:00:00', "
        "'2025-03-10 17:00:00', '2025-03-10 19:00:00', '2025-03-10 18:00:00', 3600, 'b');");
    const Import imp = wptest::import(src);
    REQUIRE_MESSAGE(imp.exit_code == 0, imp.out << imp.err);
    CHECK(imp.report["site_timezone"].GetString() == std::string("Europe/Paris"));
    CHECK(imp.changed("event", 601, "", "first occurrence"));
    const rapidjson::Document e = record("/events/" + std::to_string(imp.id_of("event", 601)));
    CHECK(str(e, "start_date") == "2025-03-03 18:00:00");
    CHECK(str(e, "utc_start_date") == "2025-03-03 17:00:00");
  }
}

TEST_CASE("wordpress: two installs with one URL (tec-dump.sql) are two sites: neither updates the other") {
  const std::string site = "http://" + caltest::unique("twins") + ".test";
  SourceDb src("tec-dump.sql", "");
  src.sql(
      "UPDATE wp_options SET option_value = '" + site + "' WHERE option_name = 'siteurl';" +
      "UPDATE test_options SET option_value = '" + site + "' WHERE option_name = 'siteurl';" +
      "INSERT INTO wp_posts (ID, post_author, post_date, post_date_gmt, post_content, post_title, "
      "post_excerpt, "
      "post_status, post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, "
      "post_type) SELECT 50, 0, '2025-01-01 10:00:00', '2025-01-01 10:00:00', '', 'In wp_', '', 'publish', "
      "'in-wp', '', '', '2025-01-01 10:00:00', '2025-01-01 10:00:00', '', 'tribe_events';"
      "INSERT INTO test_posts SELECT * FROM wp_posts WHERE ID = 50;"
      "UPDATE test_posts SET post_title = 'In test_', post_name = 'in-test' WHERE ID = 50;"
      "INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES (50, '_EventStartDate', '2025-01-01 "
      "10:00:00'), (50, '_EventEndDate', '2025-01-01 11:00:00');"
      "INSERT INTO test_postmeta (post_id, meta_key, meta_value) SELECT post_id, meta_key, meta_value FROM "
      "wp_postmeta WHERE post_id = 50;");
  const Import test = wptest::import(src, "--prefix test_");
  REQUIRE_MESSAGE(test.exit_code == 0, test.err);
  const Import wp = wptest::import(src, "--prefix wp_");
  REQUIRE_MESSAGE(wp.exit_code == 0, wp.err);
  CHECK(wp.count("event", "imported") == 1);
  CHECK(wp.count("event", "updated") == 0);
  CHECK(wp.id_of("event", 50) != test.id_of("event", 50));
  CHECK(str(record("/events/" + std::to_string(test.id_of("event", 50))), "title") == "In test_");
  CHECK(str(record("/events/" + std::to_string(wp.id_of("event", 50))), "title") == "In wp_");
}
