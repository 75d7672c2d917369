// Internal to src/store/: many rows written by one statement of one shape. The rows go to the
// server as one JSON array, the statement's one `?`, which it reads with JSON_TABLE: a statement
// of a thousand rows is neither a thousand placeholders to bind nor a UNION of a thousand SELECTs
// to plan at every execution, and a write of any number of rows prepares a single statement.
#pragma once

#include "cal/store/db.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace cal {

using JsonRowWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// `items` as one JSON array of arrays, one `write(json, item)` each: the text to bind to a
// JSON_TABLE's `?` in a statement of other parameters too.
template <typename T, typename Write>
std::string json_rows(const std::vector<T>& items, Write write, std::size_t first = 0,
                      std::size_t count = static_cast<std::size_t>(-1)) {
  rapidjson::StringBuffer out;
  JsonRowWriter json(out);
  json.StartArray();
  for (std::size_t i = first; i < items.size() && i - first < count; ++i) {
    json.StartArray();
    write(json, items[i]);
    json.EndArray();
  }
  json.EndArray();
  return std::string(out.GetString(), out.GetSize());
}

// Writes `items` in statements of at most 4,096 items: `sql` reads them (its one `?`) with
// JSON_TABLE. `after_each`, when given, runs after each statement (to read its last_insert_id(),
// say).
template <typename T, typename Write>
void execute_json_rows(Db& db, const std::string& sql, const std::vector<T>& items, Write write,
                       const std::function<void()>& after_each = {}) {
  constexpr std::size_t kRowsPerStatement = 4096;
  for (std::size_t at = 0; at < items.size(); at += kRowsPerStatement) {
    db.execute(sql, {json_rows(items, write, at, kRowsPerStatement)});
    if (after_each) after_each();
  }
}

inline void write_text(JsonRowWriter& json, const std::string& text) {
  json.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

inline void write_text(JsonRowWriter& json, const SqlValue& v) { write_text(json, std::get<std::string>(v)); }

}  // namespace cal
