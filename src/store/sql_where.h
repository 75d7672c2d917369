// Internal to src/store/: a WHERE clause built piece by piece with its bound values, and the
// SQL forms of the typed rules the list queries share (visibility, substring search). Values
// only ever go into `args`; the text depends on the shape of the filter alone.
#pragma once

#include "cal/store/db.h"
#include "cal/store/post_visibility.h"

#include <string>
#include <string_view>
#include <vector>

namespace cal {

struct SqlWhere {
  std::string sql;  // " AND ..." conditions, appended after a fixed "WHERE ..."
  std::vector<SqlValue> args;

  // Appends " AND <condition>" (the condition's `?` placeholders bound by later bind() calls).
  SqlWhere& add(std::string_view condition);
  SqlWhere& bind(SqlValue value);
  // Appends " AND <before>(?, ?, ...)<after>" with every id bound.
  SqlWhere& add_in(std::string_view before, const std::vector<long long>& ids, std::string_view after = ")");
};

// The status of posts alias `a` as read: a scheduled post whose date has passed is published.
std::string effective_status(std::string_view a);

// The rows of posts alias `a` the caller may see (docs/api.md §4.1), with the asked statuses when
// `with_statuses` (else every status but trash).
void add_visibility(SqlWhere& where, std::string_view a, const PostVisibility& v, bool with_statuses = true);

// A LIKE pattern matching `word` anywhere, for `LIKE ? ESCAPE '!'` (an explicit escape character,
// because the default backslash depends on the SQL mode): the store's one LIKE escaper.
std::string like_contains(std::string_view word);

}  // namespace cal
