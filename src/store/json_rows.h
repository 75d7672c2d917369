// Internal to src/store/: many rows written by one statement of one shape. The rows go to the
// server as one JSON array, the statement's one `?`, which it reads with JSON_TABLE: a statement
// of a thousand rows is neither a thousand placeholders to bind nor a UNION of a thousand SELECTs
// to plan at every execution, and a write of any number of rows prepares a single statement.
#pragma once

#include "cal/store/db.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace cal {

using JsonRowWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// Writes `items` as JSON arrays, one `write(json, item)` each, in statements of at most 4,096
// items: `sql` reads the array (its one `?`) with JSON_TABLE. `after_each`, when given, runs after
// each statement (to read its last_insert_id(), say).
template <typename T, typename Write>
void execute_json_rows(Db& db, const std::string& sql, const std::vector<T>& items, Write write,
                       const std::function<void()>& after_each = {}) {
  constexpr std::size_t kRowsPerStatement = 4096;
  for (std::size_t at = 0; at < items.size(); at += kRowsPerStatement) {
    rapidjson::StringBuffer out;
    JsonRowWriter json(out);
    json.StartArray();
    for (std::size_t i = at; i < std::min(items.size(), at + kRowsPerStatement); ++i) {
      json.StartArray();
      write(json, items[i]);
      json.EndArray();
    }
    json.EndArray();
    db.execute(sql, {std::string(out.GetString(), out.GetSize())});
    if (after_each) after_each();
  }
}

inline void write_text(JsonRowWriter& json, const std::string& text) {
  json.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

inline void write_text(JsonRowWriter& json, const SqlValue& v) { write_text(json, std::get<std::string>(v)); }

}  // namespace cal
