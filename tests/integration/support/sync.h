// Helpers of the incremental sync tests (docs/sync.md; sync/changes_test.cpp, sync/property_test.cpp): a
// mirror that keeps a copy of what one caller sees by applying GET /changes, and the same view
// read from the list routes, both as normalized record texts keyed by (kind, id). Header-only.
#pragma once

#include <doctest/doctest.h>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "support/client.h"

namespace caltest::sync {

inline constexpr const char* kNs = "/cal/events/v1";

using Key = std::pair<std::string, long long>;  // (kind, id)
using View = std::map<Key, std::string>;        // normalized record texts

inline std::string headers_text(const std::vector<std::string>& headers) {
  return headers.empty() ? "visitor" : headers.front().substr(0, 30);
}

// The ids of the objects in `v` (an array of records), or of `v` itself (one record); 0 for none.
inline void ids_of(const rapidjson::Value& v, rapidjson::Value& out, rapidjson::Document::AllocatorType& a) {
  out.SetArray();
  if (v.IsArray()) {
    for (const auto& item : v.GetArray())
      if (item.IsObject() && item.HasMember("id")) out.PushBack(rapidjson::Value(item["id"], a), a);
  } else if (v.IsObject() && v.HasMember("id")) {
    out.PushBack(rapidjson::Value(v["id"], a), a);
  }
}

// A record as compared: without `json_ld` (single reads have it, list items not); an event's
// embedded venue, organizers and terms as their ids (docs/sync.md: an
// embedded copy is as of the event's own last change; the embedded record's changes come as its
// own entries; terms as a set, see below).
inline std::string normalize(const std::string& kind, const rapidjson::Value& record) {
  rapidjson::Document d;
  d.CopyFrom(record, d.GetAllocator());
  if (d.IsObject()) {
    d.RemoveMember("json_ld");
    if (kind == "event") {
      for (const char* key : {"venue", "organizer", "categories", "tags"}) {
        if (!d.HasMember(key)) continue;
        rapidjson::Value ids;
        ids_of(d[key], ids, d.GetAllocator());
        // Terms are embedded in name order: a renamed term reorders them without a change of
        // the event, so they compare as sets. Organizers keep their (logged) link order.
        if (std::string(key) == "categories" || std::string(key) == "tags")
          std::sort(ids.Begin(), ids.End(), [](const rapidjson::Value& a, const rapidjson::Value& b) {
            return a.GetInt64() < b.GetInt64();
          });
        d[key] = ids;
      }
    }
  }
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  d.Accept(w);
  return buffer.GetString();
}

// The name a record shows (event title, venue or organizer name, term name).
inline std::string name_of(const std::string& kind, const rapidjson::Value& record) {
  const char* key = kind == "event"       ? "title"
                    : kind == "venue"     ? "venue"
                    : kind == "organizer" ? "organizer"
                                          : "name";
  return string_at(record, {key});
}

// One caller's copy, kept by GET /changes.
struct Mirror {
  std::vector<std::string> headers = {};  // the caller's Authorization header, or none
  std::string kinds = {};                 // "" or "&kinds=..."
  std::string token = {};
  View records = {};
  std::map<Key, std::string> names = {};
  long long polls = 0;

  // Starts from the current token (an empty copy: nothing the caller sees changed yet).
  void start() {
    const HttpResponse r =
        get(std::string(kNs) + "/changes" + (kinds.empty() ? "" : "?" + kinds.substr(1)), headers);
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    token = string_at(r.json(), {"next"});
    REQUIRE(!token.empty());
  }

  // Applies the changes since the token, `per_page` at most each answer, until `more` is false.
  void sync(long long per_page) {
    for (int round = 0; round < 100000; ++round) {
      const HttpResponse r =
          get(std::string(kNs) + "/changes?since=" + token + "&per_page=" + std::to_string(per_page) + kinds,
              headers);
      ++polls;
      REQUIRE_MESSAGE(r.status == 200, (describe(r) + " as " + headers_text(headers)));
      const rapidjson::Document d = r.json();
      const rapidjson::Value* changes = find(d, {"changes"});
      REQUIRE((changes && changes->IsArray()));
      for (const auto& c : changes->GetArray()) {
        const std::string kind = string_at(c, {"kind"});
        const Key key{kind, c["id"].GetInt64()};
        const std::string action = string_at(c, {"action"});
        if (action == "upsert") {
          REQUIRE(c.HasMember("record"));
          records[key] = normalize(kind, c["record"]);
          names[key] = name_of(kind, c["record"]);
        } else {
          REQUIRE(action == "delete");
          REQUIRE(!c.HasMember("record"));
          records.erase(key);
          names.erase(key);
        }
      }
      token = string_at(d, {"next"});
      const rapidjson::Value* more = find(d, {"more"});
      REQUIRE((more && more->IsBool()));
      if (!more->GetBool()) return;
    }
    FAIL("GET /changes never said more: false");
  }

  // The records whose name holds `word`.
  View with_word(const std::string& word) const {
    View out;
    for (const auto& [key, text] : records)
      if (const auto n = names.find(key); n != names.end() && n->second.find(word) != std::string::npos)
        out.emplace(key, text);
    return out;
  }
};

// What the list routes show `headers` of the records whose name holds `word` (every page; events
// of any date).
inline View listed(const std::vector<std::string>& headers, const std::string& word) {
  struct ListRoute {
    const char* kind;
    const char* path;
    const char* key;
    const char* extra;
  };
  static const ListRoute kRoutes[] = {
      {"event", "/events", "events", "&starts_after=1900-01-01"},
      {"venue", "/venues", "venues", ""},
      {"organizer", "/organizers", "organizers", ""},
      {"category", "/categories", "categories", "&hide_empty=false"},
      {"tag", "/tags", "tags", "&hide_empty=false"},
  };
  View out;
  for (const ListRoute& route : kRoutes) {
    for (int page = 1; page < 1000; ++page) {
      const HttpResponse r = get(std::string(kNs) + route.path + "?search=" + word +
                                     "&per_page=50&page=" + std::to_string(page) + route.extra,
                                 headers);
      REQUIRE_MESSAGE(r.status == 200, describe(r));
      const rapidjson::Document d = r.json();
      for (const auto& item : d[route.key].GetArray())
        if (name_of(route.kind, item).find(word) != std::string::npos)
          out.emplace(Key{route.kind, item["id"].GetInt64()}, normalize(route.kind, item));
      if (page >= d["total_pages"].GetInt64()) break;
    }
  }
  return out;
}

// "" when the two views hold the same records, else the first difference.
inline std::string view_mismatch(const View& mirror, const View& lists) {
  for (const auto& [key, text] : lists) {
    const auto it = mirror.find(key);
    if (it == mirror.end())
      return "the mirror lacks " + key.first + " " + std::to_string(key.second) + ": " + text;
    if (it->second != text)
      return key.first + " " + std::to_string(key.second) + " differs:\nmirror: " + it->second +
             "\nlists:  " + text;
  }
  for (const auto& [key, text] : mirror)
    if (!lists.count(key))
      return "the mirror has " + key.first + " " + std::to_string(key.second) +
             " the lists do not show: " + text;
  return "";
}

}  // namespace caltest::sync
