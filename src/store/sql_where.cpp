// WHERE building and the shared list rules of the store (see sql_where.h).
#include "store/sql_where.h"

namespace cal {

SqlWhere& SqlWhere::add(std::string_view condition) {
  sql += " AND ";
  sql += condition;
  return *this;
}

SqlWhere& SqlWhere::bind(SqlValue value) {
  args.push_back(std::move(value));
  return *this;
}

SqlWhere& SqlWhere::add_in(std::string_view before, const std::vector<long long>& ids,
                           std::string_view after) {
  sql += " AND ";
  sql += before;
  sql += "(" + placeholders(ids.size());
  sql += after;
  args.insert(args.end(), ids.begin(), ids.end());
  return *this;
}

std::string effective_status(std::string_view a) {
  const std::string p(a);
  return "IF(" + p + ".status = 'future' AND " + p + ".date_utc <= UTC_TIMESTAMP(), 'publish', " + p +
         ".status)";
}

void add_visibility(SqlWhere& where, std::string_view a, const PostVisibility& v, bool with_statuses) {
  const std::string status = effective_status(a);
  if (with_statuses && !v.statuses.empty()) {
    where.sql += " AND " + status + " IN (" + placeholders(v.statuses.size()) + ")";
    for (const std::string& s : v.statuses) where.args.emplace_back(s);
  } else {
    where.add(std::string(a) + ".status <> 'trash'");
  }
  switch (v.scope) {
    case ReadScope::kAll:
      break;
    case ReadScope::kPublished:
      where.add(status + " = 'publish'");
      break;
    case ReadScope::kPublishedAndOwn:
      where.add("(" + status + " = 'publish' OR " + std::string(a) + ".author = ?)").bind(v.user_id);
      break;
  }
}

std::string like_contains(std::string_view word) {
  std::string out = "%";
  for (char c : word) {
    if (c == '!' || c == '%' || c == '_') out += '!';
    out += c;
  }
  return out + "%";
}

}  // namespace cal
