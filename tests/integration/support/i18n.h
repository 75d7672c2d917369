// Helpers shared by the language and OpenAPI integration tests: JSON values as text, the
// OpenAPI path of a namespace-index route key, the German site variant's URL.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>
#include <string_view>
#include <vector>

#include "support/client.h"

namespace caltest {

// The languages shipped (docs/api.md §9); the first is the source language.
inline const std::vector<std::string> kLanguages = {"en_US", "de_DE", "fr_FR", "es_ES"};

// "de-DE" for "de_DE".
inline std::string bcp47(std::string lang) {
  for (char& c : lang) c = c == '_' ? '-' : c;
  return lang;
}

// `path` + "?_locale=<lang>" (or "&..." when `path` has a query already).
inline std::string with_locale(const std::string& path, const std::string& lang) {
  return path + (path.find('?') == std::string::npos ? "?" : "&") + "_locale=" + lang;
}

// A JSON value as compact text ("" for nullptr), to compare values of any type.
inline std::string json_text(const rapidjson::Value* v) {
  if (v == nullptr) return "";
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  v->Accept(w);
  return buffer.GetString();
}

// The types of an OpenAPI schema as the root index writes them: "integer", or a list
// ["array","string"] for a oneOf of one schema per type.
inline std::string schema_types(const rapidjson::Value& schema) {
  if (!schema.HasMember("oneOf")) return json_text(schema.HasMember("type") ? &schema["type"] : nullptr);
  std::string list = "[";
  for (const auto& alternative : schema["oneOf"].GetArray())
    list += (list.size() > 1 ? ",\"" : "\"") + std::string(alternative["type"].GetString()) + "\"";
  return list + "]";
}

// The items schema of an array schema, or of the array alternative of a oneOf; else nullptr.
inline const rapidjson::Value* schema_items(const rapidjson::Value& schema) {
  if (schema.HasMember("items")) return &schema["items"];
  if (!schema.HasMember("oneOf")) return nullptr;
  for (const auto& alternative : schema["oneOf"].GetArray())
    if (alternative.HasMember("items")) return &alternative["items"];
  return nullptr;
}

// The allowed values of a schema: its own enum, its items' or its first alternative's with one.
inline const rapidjson::Value* schema_enum(const rapidjson::Value& schema) {
  if (schema.HasMember("enum")) return &schema["enum"];
  if (const rapidjson::Value* items = schema_items(schema); items && items != &schema)
    if (const rapidjson::Value* e = schema_enum(*items)) return e;
  if (schema.HasMember("oneOf"))
    for (const auto& alternative : schema["oneOf"].GetArray())
      if (alternative.HasMember("enum")) return &alternative["enum"];
  return nullptr;
}

// The OpenAPI path ("/events/{id}") of a root- or namespace-index route key
// ("/cal/events/v1/events/(?P<id>\d+)"). The REST root ("/") and the namespace index
// ("/cal/events/v1") keep their keys: their path items name the REST root as their server.
inline std::string doc_path(std::string key) {
  if (key == "/" || key == "/cal/events/v1") return key;
  key.erase(0, std::string_view("/cal/events/v1").size());
  for (const auto& [regex, templ] : {std::pair<std::string, std::string>{"(?P<id>\\d+)", "{id}"},
                                     std::pair<std::string, std::string>{"(?P<slug>[^/]+)", "{slug}"}}) {
    if (const size_t at = key.find(regex); at != std::string::npos) key.replace(at, regex.size(), templ);
  }
  return key;
}

// `path` (below the REST root, e.g. "/cal/events/v1") on the German site variant that
// nginx/calendar.conf serves at /de/api with `fastcgi_param CAL_LOCALE de_DE`: the client
// appends paths to CAL_TEST_BASE (".../api"), and curl resolves the dot segment (RFC 3986).
inline std::string german_site(const std::string& path) { return "/../de/api" + path; }

}  // namespace caltest
