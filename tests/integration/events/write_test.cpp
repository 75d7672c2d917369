// Integration tests of event writes (docs/api.md §5, §6, §7): create with defaults and Location (JSON
// and form bodies), required fields, every field's validation, partial updates keeping omitted
// fields on every method by id and by slug, one-sided date updates, HTML sanitizing, read-only
// fields, and transactions leaving nothing half-written.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;
using Ids = std::vector<long long>;

// The record without the keys a write always changes.
std::string stable_part(const rapidjson::Value& record) {
  rapidjson::Document copy;
  copy.CopyFrom(record, copy.GetAllocator());
  for (const char* key : {"modified", "modified_utc", "json_ld"})
    if (copy.HasMember(key)) copy.EraseMember(key);
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  copy.Accept(w);
  return buffer.GetString();
}

TEST_CASE("create: 201, Location, defaults") {
  const std::string title = unique("Create Me");
  const HttpResponse r =
      post_json(kEvents, event_body(title, "2041-07-10 09:00", "2041-07-10 10:00"), {admin()});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  const rapidjson::Document e = r.json();
  const long long id = id_of(e);
  CHECK(r.header("location") == rest_root() + "/cal/events/v1/events/" + std::to_string(id));
  CHECK(string_at(e, {"rest_url"}) == r.header("location"));
  CHECK(string_at(e, {"status"}) == "publish");
  CHECK(string_at(e, {"slug"}) == slug_of(title));
  CHECK(flag_at(e, {"all_day"}) == "false");
  CHECK(flag_at(e, {"show_map"}) == "true");
  CHECK(flag_at(e, {"show_map_link"}) == "true");
  CHECK(flag_at(e, {"hide_from_listings"}) == "false");
  CHECK(flag_at(e, {"sticky"}) == "false");
  CHECK(flag_at(e, {"featured"}) == "false");
  CHECK(find(e, {"json_ld"}) == nullptr);
  CHECK(stable_part(get(path_of(id)).json()) == stable_part(e));
}

TEST_CASE("create: form bodies work too") {
  const std::string title = unique("Form");
  const HttpResponse r =
      post_form(kEvents,
                "title=" + enc(title) + "&start_date=" + enc("2041-07-10 09:00") +
                    "&end_date=" + enc("2041-07-10 10:00") + "&categories[]=" + enc("fc " + title) +
                    "&venue[venue]=" + enc("FV " + title) + "&venue[city]=Lyon&featured=1",
                {admin()});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  const rapidjson::Document e = r.json();
  CHECK(string_at(e, {"categories", "0", "name"}) == "fc " + title);
  CHECK(string_at(e, {"venue", "venue"}) == "FV " + title);
  CHECK(string_at(e, {"venue", "city"}) == "Lyon");
  CHECK(flag_at(e, {"featured"}) == "true");
}

TEST_CASE("create: required fields") {
  const HttpResponse r = post_json(kEvents, "{\"description\":\"x\"}", {admin()});
  CHECK(error_mismatch(r, 400, "rest_missing_callback_param") == "");
  std::vector<std::string> params = strings_at(r.json(), {"data", "params"});
  std::sort(params.begin(), params.end());
  CHECK(params == std::vector<std::string>{"end_date", "start_date", "title"});
  const HttpResponse only_title =
      post_json(kEvents, "{\"title\":\"x\",\"end_date\":\"2041-01-01\"}", {admin()});
  CHECK(error_mismatch(only_title, 400, "rest_missing_callback_param") == "");
  CHECK(strings_at(only_title.json(), {"data", "params"}) == std::vector<std::string>{"start_date"});
  CHECK(error_mismatch(post_json(kEvents, event_body("", "2041-07-10 09:00", "2041-07-10 10:00"), {admin()}),
                       400, "rest_invalid_param") == "");
  CHECK(error_mismatch(post_json(kEvents, event_body("x", "", "2041-07-10 10:00"), {admin()}), 400,
                       "rest_invalid_param") == "");
}

TEST_CASE("create: every invalid field value is 400 naming it, and stores nothing") {
  struct Case {
    const char* param;
    const char* extra;  // JSON members
    const char* start = "2041-07-10 09:00";
    const char* end = "2041-07-10 10:00";
  };
  const Case kCases[] = {
      {"timezone", "\"timezone\":\"Mars/Olympus\""},
      {"timezone", "\"timezone\":\"UTC+15\""},
      {"timezone", "\"timezone\":\"\""},
      {"start_date", "", "soonish", "2041-07-10 10:00"},
      {"start_date", "", "2041-02-30 10:00", "2041-07-10 10:00"},
      {"end_date", "", "2041-07-10 09:00", "2041-07-10 25:00"},
      {"end_date", "", "2041-07-10 09:00", "2041-07-10 08:59:59"},
      {"end_date", "\"timezone\":\"Europe/Berlin\"", "2041-07-10T09:00:00Z", "2041-07-10 10:59"},
      {"all_day", "\"all_day\":\"sometimes\""},
      {"status", "\"status\":\"archived\""},
      {"author", "\"author\":\"abc\""},
      {"author", "\"author\":999999999"},
      {"date", "\"date\":\"yesterdayish\""},
      {"date_utc", "\"date_utc\":\"2041-13-01\""},
      {"cost", "\"cost\":{\"a\":1}"},
      {"cost", "\"cost\":[1,{\"a\":2}]"},
      {"cost", "\"cost\":true"},
      {"website", "\"website\":\"not a url\""},
      {"website", "\"website\":\"ftp://example.org/x\""},
      {"website", "\"website\":42"},
      {"image", "\"image\":\"not-a-url\""},
      {"image", "\"image\":999999999"},
      {"image", "\"image\":{\"url\":\"x\"}"},
      {"show_map", "\"show_map\":\"perhaps\""},
      {"featured", "\"featured\":\"perhaps\""},
      {"sticky", "\"sticky\":2"},
      {"hide_from_listings", "\"hide_from_listings\":[]"},
      {"slug", "\"slug\":\"\""},
      {"title", "\"title\":12"},
      {"description", "\"description\":{\"x\":1}"},
      {"venue", "\"venue\":999999999"},
      {"venue", "\"venue\":{\"city\":\"no name\"}"},
      {"organizer", "\"organizer\":[999999999]"},
      {"categories", "\"categories\":[999999999]"},
      {"tags", "\"tags\":[999999999]"},
  };
  for (const Case& c : kCases) {
    CAPTURE(c.extra);
    const std::string title = unique("bad");
    std::string body = event_body(title, c.start, c.end, c.extra);
    if (std::string(c.param) == "title")
      body =
          std::string("{\"start_date\":\"") + c.start + "\",\"end_date\":\"" + c.end + "\"," + c.extra + "}";
    const HttpResponse r = post_json(kEvents, body, {admin()});
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
    CHECK(string_at(r.json(), {"data", "params", c.param}) != "");
    CHECK(list_ids("search=" + title + "&starts_after=1900-01-01&status=publish,draft,pending,future,private",
                   {admin()})
              .empty());
  }
}

TEST_CASE("a failing link rolls back the whole create: no event, no venue, no term") {
  const std::string title = unique("atomic");
  const std::string venue = "AV " + title;
  const std::string body = event_body(
      title, "2041-07-10 09:00", "2041-07-10 10:00",
      "\"venue\":{\"venue\":\"" + venue + "\"},\"categories\":[\"ac " + title + "\"],\"tags\":[999999999]");
  CHECK(error_mismatch(post_json(kEvents, body, {admin()}), 400, "rest_invalid_param") == "");
  CHECK(list_ids("search=" + title + "&starts_after=1900-01-01&status=publish,draft", {admin()}).empty());
  const HttpResponse venues = get("/cal/events/v1/venues?search=" + enc(venue), {admin()});
  REQUIRE_MESSAGE(venues.status == 200, describe(venues));
  CHECK(array_size(venues.json(), {"venues"}) == 0);
  const HttpResponse cats = get("/cal/events/v1/categories?hide_empty=false&search=" + enc("ac " + title));
  REQUIRE_MESSAGE(cats.status == 200, describe(cats));
  CHECK(array_size(cats.json(), {"categories"}) == 0);
}

TEST_CASE("a failing update changes nothing") {
  const rapidjson::Document before =
      create(event_body(unique("keep"), "2041-07-10 09:00", "2041-07-10 10:00",
                        "\"cost\":\"$5\",\"venue\":{\"venue\":\"KV " + unique("v") + "\"}"));
  const long long id = id_of(before);
  const std::string stable = stable_part(get(path_of(id)).json());
  for (const char* body :
       {R"({"title":"changed","end_date":"2041-07-10 08:00"})",
        R"({"title":"changed","categories":[999999999]})", R"({"title":"changed","venue":999999999})",
        R"({"title":"changed","website":"nope"})", R"({"title":"changed","timezone":"Nowhere/Land"})"}) {
    CAPTURE(body);
    CHECK(error_mismatch(post_json(path_of(id), body, {admin()}), 400, "rest_invalid_param") == "");
    CHECK(stable_part(get(path_of(id)).json()) == stable);
  }
}

TEST_CASE("update: only the fields sent change, on every method, by id and by slug") {
  const std::string word = unique("partial");
  const rapidjson::Document created = create(event_body(
      word, "2041-07-10 09:00", "2041-07-10 10:00",
      "\"description\":\"d\",\"excerpt\":\"x\",\"cost\":\"$9\",\"website\":\"https://w.example/\","
      "\"timezone\":\"Europe/Berlin\",\"featured\":true,\"sticky\":true,\"show_map\":false,"
      "\"venue\":{\"venue\":\"PV " +
          word + "\"},\"organizer\":[{\"organizer\":\"PO " + word +
          "\"}],"
          "\"categories\":[\"pc " +
          word + "\"],\"tags\":[\"pt " + word + "\"],\"image\":\"https://i.example/" + word + ".gif\""));
  const long long id = id_of(created);
  const std::string slug = string_at(created, {"slug"});
  std::string expected = stable_part(get(path_of(id)).json());

  struct Step {
    const char* method;
    bool by_slug;
  };
  const Step kSteps[] = {{"POST", false}, {"PUT", false}, {"PATCH", false},
                         {"POST", true},  {"PUT", true},  {"PATCH", true}};
  int n = 0;
  for (const Step& s : kSteps) {
    CAPTURE(s.method);
    CAPTURE(s.by_slug);
    const std::string title = word + " renamed " + std::to_string(++n);
    const HttpResponse r =
        request(s.method, s.by_slug ? slug_path(slug) : path_of(id), "{\"title\":" + quoted(title) + "}",
                {admin(), "Content-Type: application/json"});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    const rapidjson::Document after = r.json();
    CHECK(string_at(after, {"title"}) == title);
    CHECK(string_at(after, {"slug"}) == slug);  // a title change keeps the slug
    // Everything else is as before.
    const std::string old_title =
        "\"title\":" + quoted(n == 1 ? word : word + " renamed " + std::to_string(n - 1));
    std::string want = expected;
    REQUIRE(want.find(old_title) != std::string::npos);
    want.replace(want.find(old_title), old_title.size(), "\"title\":" + quoted(title));
    CHECK(stable_part(after) == want);
    expected = stable_part(after);
  }
}

TEST_CASE("update: one date kept when only the other is sent; zone change keeps the wall clock") {
  const long long id = create_id(unique("dates"), "2041-07-10 09:00", "2041-07-10 10:00");
  rapidjson::Document e = post_json(path_of(id), R"({"start_date":"2041-07-10 08:00"})", {admin()}).json();
  CHECK(string_at(e, {"start_date"}) == "2041-07-10 08:00:00");
  CHECK(string_at(e, {"end_date"}) == "2041-07-10 10:00:00");
  e = post_json(path_of(id), R"({"end_date":"2041-07-11 10:00"})", {admin()}).json();
  CHECK(string_at(e, {"start_date"}) == "2041-07-10 08:00:00");
  CHECK(string_at(e, {"end_date"}) == "2041-07-11 10:00:00");
  e = post_json(path_of(id), R"({"timezone":"America/New_York"})", {admin()}).json();
  CHECK(string_at(e, {"start_date"}) == "2041-07-10 08:00:00");
  CHECK(string_at(e, {"utc_start_date"}) == "2041-07-10 12:00:00");
  CHECK(string_at(e, {"timezone_abbr"}) == "EDT");
  CHECK(error_mismatch(post_json(path_of(id), R"({"start_date":"2041-07-12 08:00"})", {admin()}), 400,
                       "rest_invalid_param") == "");
  e = post_json(path_of(id), R"({"all_day":true})", {admin()}).json();
  CHECK(string_at(e, {"start_date"}) == "2041-07-10 00:00:00");
  CHECK(string_at(e, {"end_date"}) == "2041-07-11 23:59:59");
}

TEST_CASE("HTML from authors and contributors is sanitized; editors keep theirs") {
  const std::string html =
      "<p onclick=\"x()\">Hi<script>alert(1)</script> <a href=\"javascript:y()\">l</a></p>";
  const std::string author = bearer(create_user("htmla", "author"));
  const rapidjson::Document a =
      create(event_body(unique("html"), "2041-07-10 09:00", "2041-07-10 10:00",
                        "\"description\":" + quoted(html) + ",\"excerpt\":" + quoted(html)),
             author);
  for (const char* key : {"description", "excerpt"}) {
    CAPTURE(key);
    const std::string s = string_at(a, {key});
    CHECK(s.find("<script") == std::string::npos);
    CHECK(s.find("onclick") == std::string::npos);
    CHECK(s.find("javascript:") == std::string::npos);
    CHECK(s.find("Hi") != std::string::npos);
  }
  const std::string editor = bearer(create_user("htmle", "editor"));
  const rapidjson::Document e = create(
      event_body(unique("html"), "2041-07-10 09:00", "2041-07-10 10:00", "\"description\":" + quoted(html)),
      editor);
  CHECK(string_at(e, {"description"}) == html);
}

TEST_CASE("read-only fields in a body are ignored") {
  const rapidjson::Document e = create(event_body(
      unique("readonly"), "2041-07-10 09:00", "2041-07-10 10:00",
      "\"id\":5,\"url\":\"http://evil/\",\"rest_url\":\"x\",\"utc_start_date\":\"1999-01-01 00:00:00\","
      "\"timezone_abbr\":\"XXX\",\"cost_details\":{\"values\":[\"1\"]},\"global_id\":\"g\",\"json_ld\":{}"));
  CHECK(id_of(e) != 5);
  CHECK(string_at(e, {"utc_start_date"}) == "2041-07-10 09:00:00");
  CHECK(string_at(e, {"timezone_abbr"}) == "UTC");
  CHECK(array_size(e, {"cost_details", "values"}) == 0);
}

}  // namespace
}  // namespace caltest
