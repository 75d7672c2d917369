// Integration tests of the event record (docs/api.md §3.1, §3.3, §3.4, §5 Events, §6): every key in
// order with its type, zero-padded details, time zones and abbreviations, all-day rounding,
// cost and cost_details, the website fallback, embedded venue/organizers/terms/image, and
// json_ld on single reads only. Images by URL or id: events/links_test.cpp.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

const std::vector<std::string> kEventKeys = {"id",
                                             "global_id",
                                             "global_id_lineage",
                                             "author",
                                             "status",
                                             "date",
                                             "date_utc",
                                             "modified",
                                             "modified_utc",
                                             "url",
                                             "rest_url",
                                             "title",
                                             "description",
                                             "excerpt",
                                             "slug",
                                             "image",
                                             "all_day",
                                             "start_date",
                                             "start_date_details",
                                             "end_date",
                                             "end_date_details",
                                             "utc_start_date",
                                             "utc_start_date_details",
                                             "utc_end_date",
                                             "utc_end_date_details",
                                             "timezone",
                                             "timezone_abbr",
                                             "cost",
                                             "cost_details",
                                             "website",
                                             "show_map",
                                             "show_map_link",
                                             "hide_from_listings",
                                             "sticky",
                                             "featured",
                                             "categories",
                                             "tags",
                                             "venue",
                                             "organizer",
                                             "series_id",
                                             "is_recurring",
                                             "is_exception",
                                             "original_start_date",
                                             "original_start_date_utc"};

std::vector<std::string> with_json_ld(std::vector<std::string> keys) {
  keys.push_back("json_ld");
  return keys;
}

// A rich event: inline venue, two inline organizers, a category, a tag, an image URL, a cost.
rapidjson::Document create_rich(const std::string& word) {
  const std::string extra =
      "\"description\":\"<p>Desc " + word + "</p>\",\"excerpt\":\"Ex " + word + "\"," +
      "\"timezone\":\"America/New_York\",\"cost\":\"$23\",\"website\":\"https://example.org/" + word + "\"," +
      "\"image\":\"https://img.example.org/" + word + ".jpg\"," + "\"venue\":{\"venue\":\"Hall " + word +
      "\",\"city\":\"Boston\",\"country\":\"United States\"}," + "\"organizer\":[{\"organizer\":\"Org B " +
      word + "\"},{\"organizer\":\"Org A " + word + "\"}]," + "\"categories\":[\"zeta " + word +
      "\",\"alpha " + word + "\"],\"tags\":[\"tag " + word + "\"]," + "\"featured\":true,\"sticky\":true";
  return create(event_body("Rich " + word, "2041-07-10 09:05:07", "2041-07-10 11:00:00", extra));
}

TEST_CASE("the event record has every key of docs/api.md §3.1 in order, json_ld only on single reads") {
  const std::string word = unique("rich");
  const rapidjson::Document created = create_rich(word);
  const long long id = id_of(created);
  CHECK(keys_at(created, {}) == kEventKeys);

  const HttpResponse single = get(path_of(id));
  REQUIRE_MESSAGE(single.status == 200, describe(single));
  const rapidjson::Document one = single.json();
  CHECK(keys_at(one, {}) == with_json_ld(kEventKeys));

  const HttpResponse list = get(std::string(kEvents) + "?include=" + std::to_string(id));
  REQUIRE_MESSAGE(list.status == 200, describe(list));
  const rapidjson::Document l = list.json();
  REQUIRE(array_size(l, {"events"}) == 1);
  CHECK(keys_at(l, {"events", "0"}) == kEventKeys);

  const HttpResponse by_slug = get(slug_path(string_at(one, {"slug"})));
  REQUIRE_MESSAGE(by_slug.status == 200, describe(by_slug));
  CHECK(keys_at(by_slug.json(), {}) == with_json_ld(kEventKeys));
}

TEST_CASE("the event record's values have the types and forms of docs/api.md §3.1") {
  const std::string word = unique("types");
  const long long id = id_of(create_rich(word));
  const rapidjson::Document e = get(path_of(id)).json();

  const std::string host = site_url().substr(site_url().find("://") + 3);
  CHECK(string_at(e, {"global_id"}) == host + "?id=" + std::to_string(id));
  CHECK(strings_at(e, {"global_id_lineage"}) == std::vector<std::string>{host + "?id=" + std::to_string(id)});
  REQUIRE(find(e, {"author"}) != nullptr);
  CHECK(find(e, {"author"})->IsInt64());
  CHECK(int_at(e, {"author"}) > 0);
  CHECK(string_at(e, {"status"}) == "publish");
  CHECK(string_at(e, {"title"}) == "Rich " + word);
  CHECK(string_at(e, {"description"}) == "<p>Desc " + word + "</p>");  // as stored, no wrapping
  CHECK(string_at(e, {"excerpt"}) == "Ex " + word);
  std::string slug = "rich-" + word;
  for (char& ch : slug)
    if (ch == '_') ch = '-';
  CHECK(string_at(e, {"slug"}) == slug);
  CHECK(string_at(e, {"url"}) == site_url() + "/event/" + string_at(e, {"slug"}) + "/");
  CHECK(string_at(e, {"rest_url"}) == rest_root() + "/cal/events/v1/events/" + std::to_string(id));
  for (const char* key : {"date", "date_utc", "modified", "modified_utc"}) {
    CAPTURE(key);
    CHECK(string_at(e, {key}).size() == 19);
  }
  CHECK(flag_at(e, {"all_day"}) == "false");
  CHECK(flag_at(e, {"show_map"}) == "true");
  CHECK(flag_at(e, {"show_map_link"}) == "true");
  CHECK(flag_at(e, {"hide_from_listings"}) == "false");
  CHECK(flag_at(e, {"sticky"}) == "true");
  CHECK(flag_at(e, {"featured"}) == "true");
  // Dates: wall clock in the event zone, details zero-padded strings, UTC copies.
  CHECK(string_at(e, {"start_date"}) == "2041-07-10 09:05:07");
  CHECK(keys_at(e, {"start_date_details"}) ==
        std::vector<std::string>{"year", "month", "day", "hour", "minutes", "seconds"});
  CHECK(string_at(e, {"start_date_details", "year"}) == "2041");
  CHECK(string_at(e, {"start_date_details", "month"}) == "07");
  CHECK(string_at(e, {"start_date_details", "day"}) == "10");
  CHECK(string_at(e, {"start_date_details", "hour"}) == "09");
  CHECK(string_at(e, {"start_date_details", "minutes"}) == "05");
  CHECK(string_at(e, {"start_date_details", "seconds"}) == "07");
  CHECK(string_at(e, {"end_date"}) == "2041-07-10 11:00:00");
  CHECK(string_at(e, {"end_date_details", "hour"}) == "11");
  CHECK(string_at(e, {"utc_start_date"}) == "2041-07-10 13:05:07");
  CHECK(string_at(e, {"utc_start_date_details", "hour"}) == "13");
  CHECK(string_at(e, {"utc_end_date"}) == "2041-07-10 15:00:00");
  CHECK(string_at(e, {"utc_end_date_details", "minutes"}) == "00");
  CHECK(string_at(e, {"timezone"}) == "America/New_York");
  CHECK(string_at(e, {"timezone_abbr"}) == "EDT");
  CHECK(string_at(e, {"website"}) == "https://example.org/" + word);
  // Image (docs/api.md §3.4).
  CHECK(keys_at(e, {"image"}) == std::vector<std::string>{"url", "id", "extension"});
  CHECK(string_at(e, {"image", "url"}) == "https://img.example.org/" + word + ".jpg");
  CHECK(string_at(e, {"image", "extension"}) == "jpg");
  CHECK(int_at(e, {"image", "id"}) > 0);
}

TEST_CASE("embedded venue, organizers and terms are the full records of docs/api.md §3.2/§3.3") {
  const std::string word = unique("embed");
  const long long id = id_of(create_rich(word));
  const rapidjson::Document e = get(path_of(id)).json();

  // Venue: an object, the same record /venues/{id} shows (without json_ld).
  const rapidjson::Value* venue = find(e, {"venue"});
  REQUIRE(venue != nullptr);
  REQUIRE(venue->IsObject());
  CHECK(string_at(e, {"venue", "venue"}) == "Hall " + word);
  CHECK(string_at(e, {"venue", "city"}) == "Boston");
  CHECK(find(e, {"venue", "json_ld"}) == nullptr);
  const long long venue_id = int_at(e, {"venue", "id"});
  const HttpResponse v = get("/cal/events/v1/venues/" + std::to_string(venue_id));
  REQUIRE_MESSAGE(v.status == 200, describe(v));
  std::vector<std::string> venue_keys = keys_at(v.json(), {});
  REQUIRE(!venue_keys.empty());
  if (venue_keys.back() == "json_ld") venue_keys.pop_back();
  CHECK(keys_at(e, {"venue"}) == venue_keys);

  // Organizers: an array in the given order.
  REQUIRE(array_size(e, {"organizer"}) == 2);
  CHECK(string_at(e, {"organizer", "0", "organizer"}) == "Org B " + word);
  CHECK(string_at(e, {"organizer", "1", "organizer"}) == "Org A " + word);
  CHECK(find(e, {"organizer", "0", "json_ld"}) == nullptr);
  CHECK(find(e, {"organizer", "0", "email"}) != nullptr);

  // Categories ordered by name, each a §3.3 term.
  REQUIRE(array_size(e, {"categories"}) == 2);
  CHECK(string_at(e, {"categories", "0", "name"}) == "alpha " + word);
  CHECK(string_at(e, {"categories", "1", "name"}) == "zeta " + word);
  CHECK(keys_at(e, {"categories", "0"}) == std::vector<std::string>{"id", "name", "slug", "taxonomy",
                                                                    "description", "parent", "count", "url",
                                                                    "urls"});
  CHECK(string_at(e, {"categories", "0", "taxonomy"}) == "cal_events_cat");
  REQUIRE(array_size(e, {"tags"}) == 1);
  CHECK(string_at(e, {"tags", "0", "name"}) == "tag " + word);
  CHECK(string_at(e, {"tags", "0", "taxonomy"}) == "post_tag");
}

TEST_CASE("an event without links has venue [], organizer [], categories [], tags [], image false") {
  const long long id = create_id(unique("bare"), "2041-07-10 09:00", "2041-07-10 10:00");
  const rapidjson::Document e = get(path_of(id)).json();
  CHECK(array_size(e, {"venue"}) == 0);
  CHECK(array_size(e, {"organizer"}) == 0);
  CHECK(array_size(e, {"categories"}) == 0);
  CHECK(array_size(e, {"tags"}) == 0);
  CHECK(flag_at(e, {"image"}) == "false");
  CHECK(string_at(e, {"cost"}) == "");
  CHECK(keys_at(e, {"cost_details"}) ==
        std::vector<std::string>{"currency_symbol", "currency_code", "currency_position", "values"});
  CHECK(array_size(e, {"cost_details", "values"}) == 0);
  CHECK(string_at(e, {"description"}) == "");
  CHECK(string_at(e, {"excerpt"}) == "");
}

TEST_CASE("website falls back to the event url") {
  const rapidjson::Document none = create(event_body(unique("web"), "2041-07-10 09:00", "2041-07-10 10:00"));
  CHECK(string_at(none, {"website"}) == string_at(none, {"url"}));
  const rapidjson::Document empty =
      create(event_body(unique("web"), "2041-07-10 09:00", "2041-07-10 10:00", "\"website\":\"\""));
  CHECK(string_at(empty, {"website"}) == string_at(empty, {"url"}));
  const rapidjson::Document given = create(event_body(unique("web"), "2041-07-10 09:00", "2041-07-10 10:00",
                                                      "\"website\":\"http://x.example/a?b=1\""));
  CHECK(string_at(given, {"website"}) == "http://x.example/a?b=1");
}

TEST_CASE("timezone_abbr is the abbreviation at the start instant; UTC± zones show themselves") {
  struct Case {
    const char* zone;
    const char* start;
    const char* abbr;
    const char* utc_start;
  };
  static const Case kCases[] = {
      {"America/New_York", "2041-01-15 09:00", "EST", "2041-01-15 14:00:00"},
      {"America/New_York", "2041-07-15 09:00", "EDT", "2041-07-15 13:00:00"},
      {"Europe/Berlin", "2041-07-15 09:00", "CEST", "2041-07-15 07:00:00"},
      {"Europe/Berlin", "2041-12-15 09:00", "CET", "2041-12-15 08:00:00"},
      {"UTC+5:30", "2041-07-15 09:00", "UTC+5:30", "2041-07-15 03:30:00"},
      {"UTC-3", "2041-07-15 09:00", "UTC-3", "2041-07-15 12:00:00"},
      {"UTC", "2041-07-15 09:00", "UTC", "2041-07-15 09:00:00"},
  };
  for (const Case& c : kCases) {
    CAPTURE(c.zone);
    CAPTURE(c.start);
    const rapidjson::Document e = create(event_body(unique("tz"), c.start, "2041-12-31 23:00",
                                                    std::string("\"timezone\":\"") + c.zone + "\""));
    CHECK(string_at(e, {"timezone"}) == c.zone);
    CHECK(string_at(e, {"timezone_abbr"}) == c.abbr);
    CHECK(string_at(e, {"utc_start_date"}) == c.utc_start);
    CHECK(string_at(e, {"start_date"}) == std::string(c.start) + ":00");
  }
}

TEST_CASE("dates with an offset or Z are that instant, shown in the event zone") {
  const rapidjson::Document e =
      create(event_body(unique("offset"), "2041-07-10T12:00:00Z", "2041-07-10T15:00:00+02:00",
                        "\"timezone\":\"Europe/Berlin\""));
  CHECK(string_at(e, {"start_date"}) == "2041-07-10 14:00:00");
  CHECK(string_at(e, {"utc_start_date"}) == "2041-07-10 12:00:00");
  CHECK(string_at(e, {"end_date"}) == "2041-07-10 15:00:00");
  CHECK(string_at(e, {"utc_end_date"}) == "2041-07-10 13:00:00");
}

TEST_CASE("a timezone-less event uses the site zone") {
  const rapidjson::Document e = create(event_body(unique("site"), "2041-07-10 09:00", "2041-07-10 10:00"));
  CHECK(string_at(e, {"timezone"}) == "UTC");
  CHECK(string_at(e, {"utc_start_date"}) == "2041-07-10 09:00:00");
}

TEST_CASE("all_day rounds start and end to their whole local days") {
  const rapidjson::Document e = create(event_body(unique("allday"), "2041-07-10 09:30", "2041-07-11 10:00",
                                                  "\"all_day\":true,\"timezone\":\"Asia/Tokyo\""));
  CHECK(flag_at(e, {"all_day"}) == "true");
  CHECK(string_at(e, {"start_date"}) == "2041-07-10 00:00:00");
  CHECK(string_at(e, {"end_date"}) == "2041-07-11 23:59:59");
  CHECK(string_at(e, {"utc_start_date"}) == "2041-07-09 15:00:00");
  CHECK(string_at(e, {"utc_end_date"}) == "2041-07-11 14:59:59");
}

TEST_CASE("relative date forms resolve in the event zone") {
  // One request, so one instant: "now" in New York, and "tomorrow" the New York day after it,
  // which from 00:00 to 04:00 or 05:00 UTC is the UTC day of "now", not the day after it.
  const rapidjson::Document e =
      create(event_body(unique("rel"), "now", "tomorrow 5pm", "\"timezone\":\"America/New_York\""));
  const std::string start = string_at(e, {"start_date"}), end = string_at(e, {"end_date"});
  CAPTURE(start);
  CAPTURE(end);
  CAPTURE(string_at(e, {"utc_start_date"}));
  const long long offset = seconds_of(string_at(e, {"utc_start_date"})) - seconds_of(start);
  CHECK((offset == 4 * 3600 || offset == 5 * 3600));
  CHECK(end.substr(11) == "17:00:00");
  const long long start_day = seconds_of(start.substr(0, 10) + " 00:00:00");
  CHECK(seconds_of(end.substr(0, 10) + " 00:00:00") - start_day == 86400);
}

TEST_CASE("cost and cost_details") {
  struct Case {
    const char* input;  // JSON value
    const char* cost;
    const char* symbol;
    const char* position;
    std::vector<std::string> values;
  };
  const Case kCases[] = {
      {"\"$23\"", "$23", "$", "prefix", {"23"}},
      {"\"20\xe2\x82\xac\"", "20\xe2\x82\xac", "\xe2\x82\xac", "postfix", {"20"}},
      {"\"0$, 20$, 30$\"", "Free \xe2\x80\x93 30$", "$", "postfix", {"0", "20", "30"}},
      {"15", "15", "", "", {"15"}},
      {"\"\"", "", "", "", {}},
  };
  for (const Case& c : kCases) {
    CAPTURE(c.input);
    const rapidjson::Document e = create(event_body(unique("cost"), "2041-07-10 09:00", "2041-07-10 10:00",
                                                    std::string("\"cost\":") + c.input));
    CHECK(string_at(e, {"cost"}) == c.cost);
    CHECK(string_at(e, {"cost_details", "currency_symbol"}) == c.symbol);
    CHECK(string_at(e, {"cost_details", "currency_position"}) == c.position);
    CHECK(strings_at(e, {"cost_details", "values"}) == c.values);
  }
}

TEST_CASE("json_ld is a schema.org Event with offsets, location, organizer and offers") {
  const std::string word = unique("ld");
  const long long id = id_of(create_rich(word));
  const rapidjson::Document e = get(path_of(id)).json();
  CHECK(string_at(e, {"json_ld", "@type"}) == "Event");
  CHECK(string_at(e, {"json_ld", "name"}) == "Rich " + word);
  CHECK(string_at(e, {"json_ld", "startDate"}) == "2041-07-10T09:05:07-04:00");
  CHECK(string_at(e, {"json_ld", "endDate"}) == "2041-07-10T11:00:00-04:00");
  CHECK(string_at(e, {"json_ld", "location", "@type"}) == "Place");
  CHECK(string_at(e, {"json_ld", "location", "name"}) == "Hall " + word);
  CHECK(find(e, {"json_ld", "organizer"}) != nullptr);
  CHECK(find(e, {"json_ld", "offers"}) != nullptr);
  CHECK(string_at(e, {"json_ld", "url"}) == string_at(e, {"url"}));

  const long long plain = create_id(unique("ld"), "2041-07-10 09:00", "2041-07-10 10:00");
  const rapidjson::Document p = get(path_of(plain)).json();
  CHECK(string_at(p, {"json_ld", "@type"}) == "Event");
  CHECK(find(p, {"json_ld", "offers"}) == nullptr);
  CHECK(find(p, {"json_ld", "location"}) == nullptr);
  CHECK(string_at(p, {"json_ld", "startDate"}) == "2041-07-10T09:00:00+00:00");
}

}  // namespace
}  // namespace caltest
