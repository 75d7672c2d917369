// Integration tests of GET /events (docs/api.md §4, §4.1): envelope, paging and its 404, clamping,
// totals in body and headers, Link, rest_url with every effective parameter encoded, order, and
// the filters search, categories, tags, venue, organizer and featured with valid and invalid
// values (an invalid value of every list parameter is 400). See also events/filters_test.cpp.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

using Ids = std::vector<long long>;

// Splits "a=1&b=x%20y" into decoded pairs.
std::vector<std::pair<std::string, std::string>> query_pairs(const std::string& url) {
  std::vector<std::pair<std::string, std::string>> out;
  const size_t q = url.find('?');
  if (q == std::string::npos) return out;
  auto decode = [](const std::string& s) {
    std::string d;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '%' && i + 2 < s.size()) {
        d += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        d += s[i] == '+' ? ' ' : s[i];
      }
    }
    return d;
  };
  size_t pos = q + 1;
  while (pos <= url.size()) {
    size_t amp = url.find('&', pos);
    if (amp == std::string::npos) amp = url.size();
    const std::string item = url.substr(pos, amp - pos);
    const size_t eq = item.find('=');
    out.emplace_back(decode(item.substr(0, eq)), eq == std::string::npos ? "" : decode(item.substr(eq + 1)));
    pos = amp + 1;
  }
  return out;
}

// Five published events a few days ahead (inside the default window), in start order.
Ids five_events(const std::string& word) {
  Ids ids;
  for (int day = 1; day <= 5; ++day) {
    ids.push_back(create_id(word + " ev" + std::to_string(day), days_ahead(day + 2, "10:00"),
                            days_ahead(day + 2, "11:00")));
  }
  return ids;
}

TEST_CASE("list envelope: keys in order, totals in body and headers, empty list") {
  const std::string word = unique("envelope");
  const HttpResponse empty = get(std::string(kEvents) + "?search=" + word);
  REQUIRE_MESSAGE(empty.status == 200, describe(empty));
  const rapidjson::Document e = empty.json();
  CHECK(keys_at(e, {}) == std::vector<std::string>{"events", "rest_url", "total", "total_pages"});
  CHECK(array_size(e, {"events"}) == 0);
  CHECK(int_at(e, {"total"}) == 0);
  CHECK(int_at(e, {"total_pages"}) == 0);
  CHECK(empty.header("x-wp-total") == "0");
  CHECK(empty.header("x-wp-totalpages") == "0");
  CHECK(empty.header("x-tec-total") == "0");
  CHECK(empty.header("x-tec-totalpages") == "0");
  CHECK(empty.header("link") == "<" + base_url() + "/>; rel=\"https://api.w.org/\"");  // no page link
}

TEST_CASE("paging: pages, next/previous URLs, headers, Link, and 404 past the end") {
  const std::string word = unique("paging");
  const Ids ids = five_events(word);
  const std::string base = std::string(kEvents) + "?search=" + word + "&per_page=2";

  const HttpResponse p1 = get(base);
  REQUIRE_MESSAGE(p1.status == 200, describe(p1));
  const rapidjson::Document d1 = p1.json();
  CHECK(ids_in(d1) == Ids{ids[0], ids[1]});
  CHECK(keys_at(d1, {}) ==
        std::vector<std::string>{"events", "rest_url", "next_rest_url", "total", "total_pages"});
  CHECK(int_at(d1, {"total"}) == 5);
  CHECK(int_at(d1, {"total_pages"}) == 3);
  CHECK(p1.header("x-wp-total") == "5");
  CHECK(p1.header("x-wp-totalpages") == "3");
  CHECK(p1.header("x-tec-total") == "5");
  CHECK(p1.header("x-tec-totalpages") == "3");
  const std::string next1 = string_at(d1, {"next_rest_url"});
  CHECK(p1.header("link") == "<" + next1 + ">; rel=\"next\"");

  const HttpResponse p2 = get(base + "&page=2");
  const rapidjson::Document d2 = p2.json();
  CHECK(ids_in(d2) == Ids{ids[2], ids[3]});
  CHECK(keys_at(d2, {}) == std::vector<std::string>{"events", "rest_url", "next_rest_url",
                                                    "previous_rest_url", "total", "total_pages"});
  CHECK(string_at(d2, {"rest_url"}) == next1);
  const std::string prev2 = string_at(d2, {"previous_rest_url"});
  const std::string next2 = string_at(d2, {"next_rest_url"});
  CHECK(p2.header("link") == "<" + prev2 + ">; rel=\"prev\", <" + next2 + ">; rel=\"next\"");
  CHECK(query_pairs(prev2) == query_pairs(string_at(d1, {"rest_url"})));

  const HttpResponse p3 = get(base + "&page=3");
  const rapidjson::Document d3 = p3.json();
  CHECK(ids_in(d3) == Ids{ids[4]});
  CHECK(keys_at(d3, {}) ==
        std::vector<std::string>{"events", "rest_url", "previous_rest_url", "total", "total_pages"});
  CHECK(p3.header("link") == "<" + string_at(d3, {"previous_rest_url"}) + ">; rel=\"prev\"");

  CHECK(error_mismatch(get(base + "&page=4"), 404, "event-archive-page-not-found") == "");
  CHECK(error_mismatch(get(base + "&page=400"), 404, "event-archive-page-not-found") == "");
  // Page 1 of an empty result is not an error.
  CHECK(get(std::string(kEvents) + "?search=" + unique("nothing") + "&page=1").status == 200);
  CHECK(error_mismatch(get(std::string(kEvents) + "?search=" + unique("nothing") + "&page=2"), 404,
                       "event-archive-page-not-found") == "");
}

TEST_CASE("per_page defaults to 10 and is clamped to 50") {
  const std::string word = unique("clamp");
  const rapidjson::Document d = get(std::string(kEvents) + "?search=" + word).json();
  const auto pairs = query_pairs(string_at(d, {"rest_url"}));
  CHECK(pairs == std::vector<std::pair<std::string, std::string>>{
                     {"page", "1"}, {"per_page", "10"}, {"search", word}});
  const rapidjson::Document big = get(std::string(kEvents) + "?search=" + word + "&per_page=500").json();
  CHECK(
      query_pairs(string_at(big, {"rest_url"})) ==
      std::vector<std::pair<std::string, std::string>>{{"page", "1"}, {"per_page", "50"}, {"search", word}});
}

TEST_CASE("rest_url keeps every effective filter, URL-encoded; next/previous change only page") {
  const std::string word = unique("resturl");
  const Ids ids = five_events(word);
  const std::string query = "search=" + enc(word) + "&per_page=1&page=2&start_date=" + enc("-1 day 10:00") +
                            "&strict_dates=true&featured=false&status=publish&ticketed=false";
  const HttpResponse r = get(std::string(kEvents) + "?" + query);
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  const rapidjson::Document d = r.json();
  CHECK(ids_in(d) == Ids{ids[1]});
  const std::string rest = string_at(d, {"rest_url"});
  CHECK(rest.rfind(rest_root() + "/cal/events/v1/events?", 0) == 0);
  CHECK(rest.find(' ') == std::string::npos);
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"page", "2"},    {"per_page", "1"},     {"start_date", "-1 day 10:00"}, {"strict_dates", "true"},
      {"search", word}, {"featured", "false"}, {"status", "publish"},          {"ticketed", "false"}};
  CHECK(query_pairs(rest) == expected);
  auto with_page = [&](const char* page) {
    auto e = expected;
    e[0].second = page;
    return e;
  };
  CHECK(query_pairs(string_at(d, {"next_rest_url"})) == with_page("3"));
  CHECK(query_pairs(string_at(d, {"previous_rest_url"})) == with_page("1"));

  // Values with reserved characters come back percent-encoded, not raw.
  const std::string odd = word + " x&y=z";
  const rapidjson::Document o = get(std::string(kEvents) + "?search=" + enc(odd)).json();
  const std::string odd_rest = string_at(o, {"rest_url"});
  CHECK(odd_rest.find("x&y") == std::string::npos);
  CHECK(odd_rest.find(' ') == std::string::npos);
  CHECK(query_pairs(odd_rest) ==
        std::vector<std::pair<std::string, std::string>>{{"page", "1"}, {"per_page", "10"}, {"search", odd}});
}

TEST_CASE("order: UTC start ascending, then id") {
  const std::string word = unique("order");
  // Same wall clock in different zones: UTC order differs from local order. Tokyo 12:00 is
  // 03:00 UTC, New York 08:00 is 12:00 or 13:00 UTC, the same day (absolute dates: "+5 days"
  // in Tokyo is the UTC day after "+5 days" in UTC from 15:00 UTC on, and in New York the UTC
  // day before it until 04:00 or 05:00 UTC).
  const long long tokyo = create_id(word + " tokyo", days_ahead(5, "12:00"), days_ahead(5, "13:00"),
                                    "\"timezone\":\"Asia/Tokyo\"");
  const long long ny = create_id(word + " ny", days_ahead(5, "08:00"), days_ahead(5, "09:00"),
                                 "\"timezone\":\"America/New_York\"");
  const long long utc1 = create_id(word + " utc1", days_ahead(5, "10:00"), days_ahead(5, "11:00"));
  const long long utc2 = create_id(word + " utc2", days_ahead(5, "10:00"), days_ahead(5, "10:30"));
  CHECK(list_ids("search=" + word) == Ids{tokyo, utc1, utc2, ny});
}

TEST_CASE("every list parameter rejects an invalid value with 400 naming it") {
  const std::pair<const char*, const char*> kCases[] = {
      {"page", "0"},
      {"page", "abc"},
      {"per_page", "0"},
      {"per_page", "-3"},
      {"per_page", "x"},
      {"start_date", "garbage"},
      {"end_date", "2025-02-30"},
      {"starts_before", "nope"},
      {"starts_after", "13/45/2025"},
      {"ends_before", "tomorrow-ish"},
      {"ends_after", "2025-13-01"},
      {"strict_dates", "maybe"},
      {"search", ""},
      {"categories", "999999999"},
      {"categories", "no-such-cat-slug-xyz"},
      {"tags", "999999999"},
      {"tags", "no-such-tag-slug-xyz"},
      {"venue", "abc"},
      {"venue", "999999999"},
      {"venue", "0"},
      {"organizer", "abc"},
      {"organizer", "999999999"},
      {"featured", "maybe"},
      {"status", "bogus"},
      {"status", "publish,bogus"},
      {"include", "abc"},
      {"include", "0"},
      {"post_parent", "abc"},
      {"post_parent", "0"},
      {"post_parent", "999999999"},
      {"ticketed", "maybe"},
      {"geoloc", "maybe"},
      {"geoloc_lat", "abc"},
      {"geoloc_lat", "91"},
      {"geoloc_lng", "-181"},
  };
  for (const auto& [name, value] : kCases) {
    CAPTURE(name);
    CAPTURE(value);
    const HttpResponse r = get(std::string(kEvents) + "?" + name + "=" + enc(value));
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
    CHECK(string_at(r.json(), {"data", "params", name}) != "");
  }
}

TEST_CASE("search: every word in title, description or excerpt, case-insensitive; -word excludes") {
  const std::string word = unique("search");
  const long long a = create_id(word + " Jazz Night", days_ahead(3, "10:00"), days_ahead(3, "11:00"));
  const long long b = create_id(word + " rock", days_ahead(3, "12:00"), days_ahead(3, "13:00"),
                                "\"description\":\"Some JAZZ too\"");
  const long long c = create_id(word + " quiet", days_ahead(3, "14:00"), days_ahead(3, "15:00"),
                                "\"excerpt\":\"jazz and rock\"");
  const long long d = create_id(word + " other", days_ahead(3, "16:00"), days_ahead(3, "17:00"));
  CHECK(list_ids("search=" + word) == Ids{a, b, c, d});
  CHECK(list_ids("search=" + enc(word + " jazz")) == Ids{a, b, c});
  CHECK(list_ids("search=" + enc(word + " JAZZ rock")) == Ids{b, c});
  CHECK(list_ids("search=" + enc(word + " jazz -rock")) == Ids{a});
  CHECK(list_ids("search=" + enc(word + " -jazz")) == Ids{d});
  CHECK(list_ids("search=" + enc(word + " night")) == Ids{a});
  // LIKE wildcards are literal.
  const long long e = create_id(word + " 100a5", days_ahead(3, "18:00"), days_ahead(3, "19:00"));
  CHECK(list_ids("search=" + enc(word + " 100a5")) == Ids{e});
  CHECK(list_ids("search=" + enc(word + " 100_5")).empty());
  CHECK(list_ids("search=" + enc(word + " 100%5")).empty());
  CHECK(list_ids("search=" + enc(word + " %")).empty());
}

TEST_CASE("categories and tags: ids or slugs, OR within a parameter, AND between them") {
  const std::string word = unique("terms");
  const rapidjson::Document a =
      create(event_body(word + " a", days_ahead(3, "10:00"), days_ahead(3, "11:00"),
                        "\"categories\":[\"c1 " + word + "\"],\"tags\":[\"t1 " + word + "\"]"));
  const rapidjson::Document b = create(event_body(word + " b", days_ahead(3, "11:00"), days_ahead(3, "12:00"),
                                                  "\"categories\":[\"c2 " + word + "\"]"));
  const rapidjson::Document c =
      create(event_body(word + " c", days_ahead(3, "12:00"), days_ahead(3, "13:00"),
                        "\"categories\":[\"c1 " + word + "\",\"c2 " + word + "\"]"));
  const long long ia = id_of(a), ib = id_of(b), ic = id_of(c);
  const std::string c1_id = std::to_string(int_at(a, {"categories", "0", "id"}));
  const std::string c1_slug = string_at(a, {"categories", "0", "slug"});
  const std::string c2_id = std::to_string(int_at(b, {"categories", "0", "id"}));
  const std::string t1_id = std::to_string(int_at(a, {"tags", "0", "id"}));
  const std::string t1_slug = string_at(a, {"tags", "0", "slug"});
  const std::string s = "search=" + word;
  CHECK(list_ids(s + "&categories=" + c1_id) == Ids{ia, ic});
  CHECK(list_ids(s + "&categories=" + c1_slug) == Ids{ia, ic});
  CHECK(list_ids(s + "&categories=" + c2_id) == Ids{ib, ic});
  CHECK(list_ids(s + "&categories=" + c1_id + "," + c2_id) == Ids{ia, ib, ic});
  CHECK(list_ids(s + "&categories[]=" + c1_slug + "&categories[]=" + c2_id) == Ids{ia, ib, ic});
  CHECK(list_ids(s + "&tags=" + t1_id) == Ids{ia});
  CHECK(list_ids(s + "&tags=" + t1_slug) == Ids{ia});
  CHECK(list_ids(s + "&categories=" + c2_id + "&tags=" + t1_id).empty());
  CHECK(list_ids(s + "&categories=" + c1_id + "&tags=" + t1_slug) == Ids{ia});
  // A tag id is not a category.
  CHECK(error_mismatch(get(std::string(kEvents) + "?" + s + "&categories=" + t1_id), 400,
                       "rest_invalid_param") == "");
}

TEST_CASE("venue and organizer filters: ids, OR within, unknown ids 400") {
  const std::string word = unique("links");
  const rapidjson::Document a = create(event_body(
      word + " a", days_ahead(3, "10:00"), days_ahead(3, "11:00"),
      "\"venue\":{\"venue\":\"V1 " + word + "\"},\"organizer\":[{\"organizer\":\"O1 " + word + "\"}]"));
  const long long v1 = int_at(a, {"venue", "id"});
  const long long o1 = int_at(a, {"organizer", "0", "id"});
  const rapidjson::Document b =
      create(event_body(word + " b", days_ahead(3, "11:00"), days_ahead(3, "12:00"),
                        "\"venue\":{\"venue\":\"V2 " + word + "\"},\"organizer\":[{\"organizer\":\"O2 " +
                            word + "\"}," + std::to_string(o1) + "]"));
  const long long v2 = int_at(b, {"venue", "id"});
  const long long o2 = int_at(b, {"organizer", "0", "id"});
  const long long c = create_id(word + " c", days_ahead(3, "12:00"), days_ahead(3, "13:00"));
  const long long ia = id_of(a), ib = id_of(b);
  const std::string s = "search=" + word;
  CHECK(list_ids(s) == Ids{ia, ib, c});
  CHECK(list_ids(s + "&venue=" + std::to_string(v1)) == Ids{ia});
  CHECK(list_ids(s + "&venue=" + std::to_string(v1) + "," + std::to_string(v2)) == Ids{ia, ib});
  CHECK(list_ids(s + "&organizer=" + std::to_string(o1)) == Ids{ia, ib});
  CHECK(list_ids(s + "&organizer=" + std::to_string(o2)) == Ids{ib});
  CHECK(list_ids(s + "&venue=" + std::to_string(v2) + "&organizer=" + std::to_string(o1)) == Ids{ib});
  // An event id is not a venue.
  CHECK(error_mismatch(get(std::string(kEvents) + "?" + s + "&venue=" + std::to_string(c)), 400,
                       "rest_invalid_param") == "");
  CHECK(error_mismatch(get(std::string(kEvents) + "?" + s + "&organizer=" + std::to_string(v1)), 400,
                       "rest_invalid_param") == "");
}

TEST_CASE("featured: true only featured, false only non-featured") {
  const std::string word = unique("featured");
  const long long f =
      create_id(word + " f", days_ahead(3, "10:00"), days_ahead(3, "11:00"), "\"featured\":true");
  const long long n = create_id(word + " n", days_ahead(3, "11:00"), days_ahead(3, "12:00"));
  CHECK(list_ids("search=" + word + "&featured=true") == Ids{f});
  CHECK(list_ids("search=" + word + "&featured=1") == Ids{f});
  CHECK(list_ids("search=" + word + "&featured=false") == Ids{n});
  CHECK(list_ids("search=" + word) == Ids{f, n});
}

}  // namespace
}  // namespace caltest
