// Helpers shared by the events integration tests (events/*_test.cpp): building event bodies,
// creating fixtures, listing ids, and reading records. Header-only.
#pragma once

#include <doctest/doctest.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "support/client.h"

namespace caltest {
namespace events {

inline constexpr const char* kEvents = "/cal/events/v1/events";

inline std::string admin() { return bearer(admin_token()); }

// The REST root as the service itself states it (the namespace index's `_links.up`, docs/api.md §8.1),
// without its trailing slash: the base of every absolute URL in records.
inline const std::string& rest_root() {
  static const std::string root = [] {
    const HttpResponse r = get("/cal/events/v1");
    std::string href = string_at(r.json(), {"_links", "up", "0", "href"});
    if (!href.empty() && href.back() == '/') href.pop_back();
    return href;
  }();
  return root;
}

// The site URL: the REST root without its "/api" mount point.
inline std::string site_url() { return rest_root().substr(0, rest_root().rfind("/api")); }

// `text` as a JSON string literal, quotes included.
inline std::string quoted(std::string_view text) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  return buffer.GetString();
}

// {"title": title, "start_date": start, "end_date": end, <extra members>}.
inline std::string event_body(std::string_view title, std::string_view start, std::string_view end,
                              std::string_view extra = "") {
  std::string body =
      "{\"title\":" + quoted(title) + ",\"start_date\":" + quoted(start) + ",\"end_date\":" + quoted(end);
  if (!extra.empty()) body += "," + std::string(extra);
  return body + "}";
}

// The UTC date of this test clock's present moment.
inline std::chrono::sys_days utc_today() {
  return std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
}

// "YYYY-MM-DD" of `day`.
inline std::string date_text(std::chrono::sys_days day) {
  const std::chrono::year_month_day ymd{day};
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return text;
}

// "YYYY-MM-DD <time>": `days` after the UTC date on which this test run first asked, an absolute
// date for fixtures a few days ahead, inside the default list window wherever the run goes on.
// Not "+N days <time>": the service reads that in each event's own zone (late in the UTC day,
// already a day later in Tokyo than in UTC) at each request's own instant (a day later once
// midnight passes between two requests), so the UTC order of such events depends on the hour.
inline std::string days_ahead(int days, std::string_view time) {
  static const std::chrono::sys_days first = utc_today();
  return date_text(first + std::chrono::days{days}) + " " + std::string(time);
}

// A record's "YYYY-MM-DD HH:MM:SS" read as if it were UTC, in seconds since the epoch; 0 when it
// is not of that form. The difference of a local and a UTC field is the zone's offset.
inline long long seconds_of(const std::string& text) {
  int y = 0;
  unsigned mo = 0, d = 0, h = 0, mi = 0, s = 0;
  char end = 0;
  if (std::sscanf(text.c_str(), "%4d-%2u-%2u %2u:%2u:%2u%c", &y, &mo, &d, &h, &mi, &s, &end) != 6) return 0;
  const std::chrono::sys_days day{std::chrono::year{y} / std::chrono::month{mo} / std::chrono::day{d}};
  return (day.time_since_epoch() + std::chrono::hours{h} + std::chrono::minutes{mi} +
          std::chrono::seconds{s}) /
         std::chrono::seconds{1};
}

inline std::string path_of(long long id) { return std::string(kEvents) + "/" + std::to_string(id); }
inline std::string slug_path(std::string_view slug) {
  return std::string(kEvents) + "/by-slug/" + std::string(slug);
}

// Creates an event as `auth` and returns its record; fails the test unless the answer is 201.
inline rapidjson::Document create(const std::string& body, const std::string& auth = admin()) {
  const HttpResponse r = post_json(kEvents, body, {auth});
  REQUIRE_MESSAGE(r.status == 201, ("create failed: " + describe(r) + " body: " + body));
  return r.json();
}

inline long long id_of(const rapidjson::Value& record) {
  const rapidjson::Value* id = find(record, {"id"});
  REQUIRE(id != nullptr);
  REQUIRE(id->IsInt64());
  return id->GetInt64();
}

// Creates a record of any collection (a path under the REST root) as the administrator and
// returns its id; fails the test unless the answer is 201.
inline long long made(const char* collection, const std::string& json) {
  const HttpResponse r = post_json(collection, json, {admin()});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  return id_of(r.json());
}

// Creates an event and returns its id.
inline long long create_id(std::string_view title, std::string_view start, std::string_view end,
                           std::string_view extra = "", const std::string& auth = admin()) {
  return id_of(create(event_body(title, start, end, extra), auth));
}

// The ids of `events` in a list response body, in order.
inline std::vector<long long> ids_in(const rapidjson::Value& list) {
  std::vector<long long> ids;
  const rapidjson::Value* events = find(list, {"events"});
  if (events == nullptr || !events->IsArray()) return ids;
  for (const auto& e : events->GetArray())
    if (e.IsObject() && e.HasMember("id") && e["id"].IsInt64()) ids.push_back(e["id"].GetInt64());
  return ids;
}

// GET /events?<query> as `headers`; fails unless 200; the ids in order.
inline std::vector<long long> list_ids(const std::string& query, std::vector<std::string> headers = {}) {
  const HttpResponse r = get(std::string(kEvents) + "?" + query, std::move(headers));
  REQUIRE_MESSAGE(r.status == 200, (describe(r) + " for ?" + query));
  return ids_in(r.json());
}

// The integer at `path`, or -1 when absent or not an integer.
inline long long int_at(const rapidjson::Value& v, std::initializer_list<std::string_view> path) {
  const rapidjson::Value* found = find(v, path);
  return found != nullptr && found->IsInt64() ? found->GetInt64() : -1;
}

// The boolean at `path`: "true", "false", "null", or "absent"/"other".
inline std::string flag_at(const rapidjson::Value& v, std::initializer_list<std::string_view> path) {
  const rapidjson::Value* found = find(v, path);
  if (found == nullptr) return "absent";
  if (found->IsBool()) return found->GetBool() ? "true" : "false";
  if (found->IsNull()) return "null";
  return "other";
}

// The member names of the object at `path`, in order.
inline std::vector<std::string> keys_at(const rapidjson::Value& v,
                                        std::initializer_list<std::string_view> path) {
  std::vector<std::string> keys;
  const rapidjson::Value* found = path.size() == 0 ? &v : find(v, path);
  if (found == nullptr || !found->IsObject()) return keys;
  for (const auto& m : found->GetObject()) keys.emplace_back(m.name.GetString(), m.name.GetStringLength());
  return keys;
}

// The size of the array at `path`, or -1 when it is not an array.
inline long long array_size(const rapidjson::Value& v, std::initializer_list<std::string_view> path) {
  const rapidjson::Value* found = find(v, path);
  return found != nullptr && found->IsArray() ? static_cast<long long>(found->Size()) : -1;
}

// The slug docs/api.md §5 generates from a title: lower-case ASCII, non-alphanumerics → '-'.
inline std::string slug_of(std::string title) {
  std::string out;
  for (char c : title) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u))
      out += static_cast<char>(std::tolower(u));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

// Percent-encodes a query value.
inline std::string enc(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace events
}  // namespace caltest
