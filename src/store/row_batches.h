// Internal to src/store/: the shapes of multi-row statements. A bulk write costs a statement per
// thousand rows, and at most four statement shapes of each kind are prepared per connection.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace cal {

// Runs `run(first, n)` over [0, total) in chunks of 1,000, then 100, 10, 1.
inline void in_chunks(std::size_t total, const std::function<void(std::size_t, std::size_t)>& run) {
  std::size_t at = 0;
  for (std::size_t size : {std::size_t{1000}, std::size_t{100}, std::size_t{10}, std::size_t{1}})
    for (; total - at >= size; at += size) run(at, size);
}

// "SELECT ? AS a, ? AS b UNION ALL SELECT ?, ? ...": `rows` rows of the named columns, as a derived
// table to join stored rows with.
inline std::string values_table(std::size_t rows, const std::vector<std::string>& columns) {
  std::string sql;
  for (std::size_t r = 0; r < rows; ++r) {
    sql += r == 0 ? "SELECT " : " UNION ALL SELECT ";
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (c) sql += ", ";
      sql += "?";
      if (r == 0) sql += " AS " + columns[c];
    }
  }
  return sql;
}

}  // namespace cal
