// Helpers of the category and tag integration tests (terms/*_test.cpp): creating terms and
// events through the API, and reading ids and names out of lists.
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "support/client.h"

namespace caltest::terms {

inline constexpr const char* kCategories = "/cal/events/v1/categories";
inline constexpr const char* kTags = "/cal/events/v1/tags";
inline constexpr const char* kEvents = "/cal/events/v1/events";

// "Authorization: Bearer <admin password>".
inline std::string admin() { return bearer(admin_token()); }

// `text` as a JSON string literal, quotes included.
inline std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The REST root as the service itself names it in absolute URLs (the namespace index's
// `_links.up`), e.g. "http://127.0.0.1:8080/api"; read once.
inline const std::string& service_root() {
  static const std::string root = [] {
    const HttpResponse r = get("/cal/events/v1");
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    std::string href = string_at(r.json(), {"_links", "up", "0", "href"});
    if (!href.empty() && href.back() == '/') href.pop_back();
    return href;
  }();
  return root;
}

// The site URL the service derives when none is configured: the REST root without "/api".
inline std::string service_site_url() {
  const std::string& root = service_root();
  return root.substr(0, root.rfind("/api"));
}

// "collection/id".
inline std::string item_path(const char* collection, long long id) {
  return std::string(collection) + "/" + std::to_string(id);
}

// POST `json` to the collection as the admin (or with `auth`).
inline HttpResponse create_term(const char* collection, const std::string& json,
                                const std::string& auth = admin()) {
  return post_json(collection, json, {auth});
}

// Creates a term named `name` with extra JSON members (e.g. R"("parent": 5)"); returns its id.
inline long long make_term(const char* collection, const std::string& name, const std::string& extra = "") {
  const HttpResponse r =
      create_term(collection, "{\"name\": " + quoted(name) + (extra.empty() ? "" : ", " + extra) + "}");
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  const rapidjson::Document doc = r.json();
  REQUIRE(doc.HasMember("id"));
  return doc["id"].GetInt64();
}

// The id of a JSON record, or 0.
inline long long id_of(const rapidjson::Value& record) {
  const rapidjson::Value* id = find(record, {"id"});
  return id && id->IsInt64() ? id->GetInt64() : 0;
}

// The ids of the records in array `key` of a list body.
inline std::vector<long long> ids_in(const rapidjson::Value& body, std::string_view key) {
  std::vector<long long> out;
  const rapidjson::Value* list = find(body, {key});
  if (list && list->IsArray())
    for (const auto& item : list->GetArray()) out.push_back(id_of(item));
  return out;
}

// The `name` of each record in array `key` of a list body.
inline std::vector<std::string> names_in(const rapidjson::Value& body, std::string_view key) {
  std::vector<std::string> out;
  const rapidjson::Value* list = find(body, {key});
  if (list && list->IsArray())
    for (const auto& item : list->GetArray()) out.push_back(string_at(item, {"name"}));
  return out;
}

// GET the list at `path_and_query`, REQUIRE 200, and return the ids under `key`.
inline std::vector<long long> list_ids(const std::string& path_and_query, std::string_view key) {
  const HttpResponse r = get(path_and_query, {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  return ids_in(r.json(), key);
}

// The `count` of a term, read by id.
inline long long term_count(const char* collection, long long id) {
  const HttpResponse r = get(item_path(collection, id));
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  const rapidjson::Document doc = r.json();
  const rapidjson::Value* count = find(doc, {"count"});
  REQUIRE(count != nullptr);
  REQUIRE(count->IsInt64());
  return count->GetInt64();
}

// Creates an event (as the admin) with `status` and the raw JSON `categories`/`tags` values
// (e.g. "[3, 4]"; "" leaves one out); returns its id.
inline long long make_event(const std::string& status, const std::string& categories,
                            const std::string& tags) {
  std::string body = "{\"title\": " + quoted(unique("term_event")) +
                     ", \"start_date\": \"2031-03-04 10:00:00\", \"end_date\": \"2031-03-04 12:00:00\""
                     ", \"status\": " +
                     quoted(status);
  if (!categories.empty()) body += ", \"categories\": " + categories;
  if (!tags.empty()) body += ", \"tags\": " + tags;
  body += "}";
  const HttpResponse r = post_json(kEvents, body, {admin()});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  return id_of(r.json());
}

}  // namespace caltest::terms
