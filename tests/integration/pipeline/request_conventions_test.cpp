// Integration tests of the request conventions WordPress client libraries rely on: indexed arrays
// (`include[0]=5&include[1]=7`, as `qs` and `@wordpress/url` write them) in query strings and
// form bodies; multipart/form-data bodies (a browser's FormData); _fields and _envelope.
#include <doctest/doctest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;
using Ids = std::vector<long long>;

TEST_CASE("indexed arrays in query strings: include, categories, tags, status") {
  const std::string w = unique("indexed");
  const long long a = create_id(w + " a", "+3 days 10:00", "+3 days 11:00",
                                "\"categories\":[\"ica " + w + "\"],\"tags\":[\"ita " + w + "\"]");
  const long long b = create_id(w + " b", "+3 days 11:00", "+3 days 12:00",
                                "\"categories\":[\"icb " + w + "\"],\"tags\":[\"itb " + w + "\"]");
  const long long c = create_id(w + " c", "+3 days 12:00", "+3 days 13:00", "\"status\":\"draft\"");
  const std::string sa = std::to_string(a), sb = std::to_string(b);
  const std::string s = "search=" + w;
  CHECK(list_ids("include[0]=" + sa + "&include[1]=" + sb) == Ids{a, b});
  CHECK(list_ids("include%5B1%5D=" + sb + "&include%5B0%5D=" + sa) == Ids{a, b});
  CHECK(list_ids("include[0]=" + sa + "&include[5]=" + sb) == Ids{a, b});  // a gap
  CHECK(list_ids("include[0]=" + sb + "&include[0]=" + sa) == Ids{a});     // the last value of an index
  const rapidjson::Document ea = get(path_of(a)).json();
  const rapidjson::Document eb = get(path_of(b)).json();
  const std::string cat_a = std::to_string(int_at(ea, {"categories", "0", "id"}));
  const std::string cat_b_slug = string_at(eb, {"categories", "0", "slug"});
  const std::string tag_b = std::to_string(int_at(eb, {"tags", "0", "id"}));
  CHECK(list_ids(s + "&categories[0]=" + cat_a + "&categories[1]=" + cat_b_slug) == Ids{a, b});
  CHECK(list_ids(s + "&categories[0]=" + cat_a) == Ids{a});
  CHECK(list_ids(s + "&tags[0]=" + tag_b) == Ids{b});
  CHECK(list_ids(s + "&status[0]=draft&status[1]=publish", {admin()}) == Ids{a, b, c});
  CHECK(list_ids(s + "&status[0]=draft", {admin()}) == Ids{c});
  // A key that is not an index makes an object, which no list parameter takes.
  for (const std::string& bad :
       std::vector<std::string>{"include[x]=" + sa, "include[0]=" + sa + "&include[x]=" + sb,
                                "include[01]=" + sa, "status[0]=draft&status[s]=publish"}) {
    CAPTURE(bad);
    CHECK(error_mismatch(get(std::string(kEvents) + "?" + bad, {admin()}), 400, "rest_invalid_param") == "");
  }
}

TEST_CASE("indexed arrays in form bodies: an event's tags and organizers") {
  const std::string title = unique("Indexed form");
  const std::string dates = "&start_date=" + enc("2041-07-11 09:00") + "&end_date=" + enc("2041-07-11 10:00");
  std::vector<long long> organizers;
  for (const char* n : {"one", "two"}) {
    const HttpResponse o =
        post_json("/cal/events/v1/organizers", "{\"organizer\":\"" + title + " " + n + "\"}", {admin()});
    REQUIRE_MESSAGE(o.status == 201, describe(o));
    organizers.push_back(id_of(o.json()));
  }
  const HttpResponse r = post_form(
      kEvents,
      "title=" + enc(title) + dates + "&tags[1]=" + enc("ifb " + title) + "&tags[0]=" + enc("ifa " + title) +
          "&organizer[1]=" + std::to_string(organizers[1]) + "&organizer[0]=" + std::to_string(organizers[0]),
      {admin()});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  const rapidjson::Document e = r.json();
  CHECK(array_size(e, {"tags"}) == 2);
  CHECK(int_at(e, {"organizer", "0", "id"}) == organizers[0]);
  CHECK(int_at(e, {"organizer", "1", "id"}) == organizers[1]);
  // A named key where no object belongs: 400, and nothing is written.
  const std::string other = unique("Indexed bad");
  const HttpResponse bad = post_form(kEvents, "title[x]=" + enc(other) + dates, {admin()});
  CHECK(error_mismatch(bad, 400, "rest_invalid_param") == "");
  CHECK(list_ids("search=" + enc(other) + "&start_date=2041-07-11&end_date=2041-07-11", {admin()}).empty());
}

std::string multipart(const std::vector<std::pair<std::string, std::string>>& fields,
                      const std::string& file = "") {
  std::string body;
  for (const auto& [name, value] : fields)
    body +=
        "--FormBoundaryQ7\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n";
  if (!file.empty())
    body += "--FormBoundaryQ7\r\nContent-Disposition: form-data; name=\"" + file +
            "\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n";
  return body + "--FormBoundaryQ7--\r\n";
}

const std::string kMultipart = "Content-Type: multipart/form-data; boundary=FormBoundaryQ7";

TEST_CASE("multipart/form-data bodies are read like forms") {
  const std::string title = unique("Multipart");
  const std::vector<std::pair<std::string, std::string>> fields = {{"title", title},
                                                                   {"start_date", "2041-07-12 09:00"},
                                                                   {"end_date", "2041-07-12 10:00"},
                                                                   {"tags[1]", "mpb " + title},
                                                                   {"tags[0]", "mpa " + title},
                                                                   {"venue[venue]", "MV " + title},
                                                                   {"venue[city]", "Lyon"},
                                                                   {"description", "line one\r\nline two"}};
  const HttpResponse r = request("POST", kEvents, multipart(fields), {admin(), kMultipart});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  const rapidjson::Document e = r.json();
  CHECK(string_at(e, {"title"}) == title);
  CHECK(array_size(e, {"tags"}) == 2);
  CHECK(string_at(e, {"venue", "city"}) == "Lyon");
  CHECK(string_at(e, {"description"}).find("line two") != std::string::npos);
  // An update too (POST with a method override, as FormData clients send it).
  const HttpResponse u = request("POST", path_of(id_of(e)) + "?_method=PATCH",
                                 multipart({{"title", title + " 2"}}), {admin(), kMultipart});
  CHECK_MESSAGE(u.status == 200, describe(u));
  CHECK(string_at(get(path_of(id_of(e))).json(), {"title"}) == title + " 2");
}

TEST_CASE("multipart/form-data: a file part is 400 naming it, malformed bodies 400, nothing written") {
  const std::string title = unique("Multipart bad");
  const std::vector<std::pair<std::string, std::string>> fields = {
      {"title", title}, {"start_date", "2041-07-13 09:00"}, {"end_date", "2041-07-13 10:00"}};
  const HttpResponse file = request("POST", kEvents, multipart(fields, "image"), {admin(), kMultipart});
  CHECK(error_mismatch(file, 400, "rest_invalid_param") == "");
  CHECK(find(file.json(), {"data", "params", "image"}) != nullptr);
  const std::string body = multipart(fields);
  CHECK(error_mismatch(request("POST", kEvents, body, {admin(), "Content-Type: multipart/form-data"}), 400,
                       "rest_invalid_multipart") == "");
  CHECK(error_mismatch(request("POST", kEvents, body.substr(0, body.size() - 20), {admin(), kMultipart}), 400,
                       "rest_invalid_multipart") == "");
  CHECK(error_mismatch(
            request("POST", kEvents, body, {admin(), "Content-Type: multipart/form-data; boundary=Other"}),
            400, "rest_invalid_multipart") == "");
  CHECK(list_ids("search=" + enc(title) + "&start_date=2041-07-13&end_date=2041-07-13", {admin()}).empty());
  // The body limit (1 MiB) holds as for every body.
  const std::string big = multipart({{"title", title}, {"description", std::string(1100000, 'x')}});
  CHECK(error_mismatch(request("POST", kEvents, big, {admin(), kMultipart}), 413, "rest_body_too_large") ==
        "");
  // Other media types are still 415, now naming multipart too.
  const HttpResponse other = request("POST", kEvents, "x", {admin(), "Content-Type: text/plain"});
  CHECK(error_mismatch(other, 415, "rest_unsupported_media_type") == "");
  CHECK(string_at(other.json(), {"message"}).find("multipart/form-data") != std::string::npos);
}

std::vector<std::string> keys(const rapidjson::Value& v) {
  std::vector<std::string> out;
  if (v.IsObject())
    for (const auto& m : v.GetObject()) out.emplace_back(m.name.GetString());
  return out;
}

TEST_CASE("_fields: the named fields of an item and of every record of a list; totals and headers stay") {
  const std::string w = unique("fields");
  const long long a = create_id(w + " a", "+3 days 10:00", "+3 days 11:00",
                                "\"venue\":{\"venue\":\"FV " + w +
                                    "\",\"city\":\"Lyon\"},\"organizer\":[{\"organizer\":\"FO " + w + "\"}]");
  create_id(w + " b", "+3 days 11:00", "+3 days 12:00");
  const HttpResponse item = get(path_of(a) + "?_fields=id,title,venue.city,organizer.id");
  REQUIRE_MESSAGE(item.status == 200, describe(item));
  const rapidjson::Document d = item.json();
  CHECK(keys(d) == std::vector<std::string>{"id", "title", "venue", "organizer"});
  CHECK(keys(*find(d, {"venue"})) == std::vector<std::string>{"city"});
  CHECK(string_at(d, {"venue", "city"}) == "Lyon");
  CHECK(keys(*find(d, {"organizer", "0"})) == std::vector<std::string>{"id"});
  // The ETag is the filtered body's, and revalidates like any other.
  const std::string tag = item.header("etag");
  CHECK(tag != get(path_of(a)).header("etag"));
  CHECK(get(path_of(a) + "?_fields=id,title,venue.city,organizer.id", {"If-None-Match: " + tag}).status ==
        304);
  // Array form, as qs writes it.
  CHECK(keys(get(path_of(a) + "?_fields[0]=id&_fields[1]=slug").json()) ==
        std::vector<std::string>{"id", "slug"});
  // A list: each record filtered, the rest of the body and the headers as without _fields.
  const std::string q = std::string(kEvents) + "?search=" + w + "&per_page=1";
  const HttpResponse full = get(q);
  const HttpResponse cut = get(q + "&_fields=id");
  REQUIRE_MESSAGE(cut.status == 200, describe(cut));
  const rapidjson::Document l = cut.json();
  CHECK(array_size(l, {"events"}) == 1);
  CHECK(keys(*find(l, {"events", "0"})) == std::vector<std::string>{"id"});
  CHECK(int_at(l, {"total"}) == 2);
  CHECK(string_at(l, {"next_rest_url"}) == string_at(full.json(), {"next_rest_url"}));
  CHECK(cut.header("x-wp-total") == "2");
  CHECK(cut.header("link") == full.header("link"));
  CHECK(cut.body.size() < full.body.size() / 4);
  // Term and venue lists too.
  const rapidjson::Document terms = get("/cal/events/v1/categories?_fields=id,name").json();
  if (const rapidjson::Value* first = find(terms, {"categories", "0"}))
    CHECK(keys(*first) == std::vector<std::string>{"id", "name"});
  const rapidjson::Document venues = get("/cal/events/v1/venues?_fields=venue").json();
  REQUIRE(find(venues, {"venues", "0"}) != nullptr);
  CHECK(keys(*find(venues, {"venues", "0"})) == std::vector<std::string>{"venue"});
  // Errors are not filtered.
  CHECK(error_mismatch(get(path_of(999999999) + "?_fields=id"), 404, "rest-event-not-found") == "");
  // Writes answer filtered too.
  const HttpResponse patched =
      patch_json(path_of(a) + "?_fields=id,title", "{\"title\":\"" + w + " a2\"}", {admin()});
  CHECK(keys(patched.json()) == std::vector<std::string>{"id", "title"});
}

TEST_CASE("_envelope: 200 with body, status and headers, errors included") {
  const std::string w = unique("envelope");
  create_id(w + " a", "+3 days 10:00", "+3 days 11:00");
  create_id(w + " b", "+3 days 11:00", "+3 days 12:00");
  const HttpResponse list = get(std::string(kEvents) + "?search=" + w + "&per_page=1&_envelope&_fields=id");
  REQUIRE_MESSAGE(list.status == 200, describe(list));
  const rapidjson::Document l = list.json();
  CHECK(int_at(l, {"status"}) == 200);
  CHECK(keys(*find(l, {"body", "events", "0"})) == std::vector<std::string>{"id"});
  CHECK(string_at(l, {"headers", "X-WP-Total"}) == "2");
  CHECK(string_at(l, {"headers", "Link"}).find("rel=\"next\"") != std::string::npos);
  const HttpResponse missing = get(path_of(999999999) + "?_envelope=1");
  CHECK(missing.status == 200);
  const rapidjson::Document m = missing.json();
  CHECK(int_at(m, {"status"}) == 404);
  CHECK(string_at(m, {"body", "code"}) == "rest-event-not-found");
  CHECK(int_at(m, {"body", "data", "status"}) == 404);
  // Asked twice, the enveloped error is computed again, never served from a cache as a 200.
  CHECK(int_at(get(path_of(999999999) + "?_envelope=1").json(), {"status"}) == 404);
  const HttpResponse denied = post_json(std::string(kEvents) + "?_envelope", "{}");
  CHECK(denied.status == 200);
  CHECK(int_at(denied.json(), {"status"}) == 401);
}

TEST_CASE("the OpenAPI document describes If-Match, 412, multipart bodies, _fields and _envelope") {
  const HttpResponse r = get("/cal/events/v1/doc");
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  const rapidjson::Document doc = r.json();
  auto names = [&](std::initializer_list<std::string_view> path) {
    std::vector<std::string> out;
    if (const rapidjson::Value* ps = find(doc, path))
      for (const auto& p : ps->GetArray()) out.emplace_back(p["name"].GetString());
    return out;
  };
  auto has = [](const std::vector<std::string>& v, const char* n) {
    return std::find(v.begin(), v.end(), n) != v.end();
  };
  const auto patch = names({"paths", "/events/{id}", "patch", "parameters"});
  CHECK(has(patch, "If-Match"));
  CHECK(has(patch, "_fields"));
  CHECK(has(names({"paths", "/tags/{id}", "delete", "parameters"}), "If-Match"));
  CHECK_FALSE(has(names({"paths", "/events", "post", "parameters"}), "If-Match"));
  const auto list = names({"paths", "/events", "get", "parameters"});
  CHECK(has(list, "_fields"));
  CHECK(has(list, "_envelope"));
  CHECK(find(doc, {"paths", "/venues/{id}", "put", "responses", "412"}) != nullptr);
  CHECK(find(doc, {"paths", "/events/{id}", "delete", "responses", "412"}) != nullptr);
  CHECK(find(doc, {"paths", "/events", "post", "requestBody", "content", "multipart/form-data"}) != nullptr);
}

}  // namespace
}  // namespace caltest
