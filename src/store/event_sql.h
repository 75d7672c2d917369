// Internal to src/store/ (and its unit test): an EventFilter as the SQL pieces of the list
// query. Values only ever go into `from_args` and `where.args`; the text depends on the filter's
// shape alone.
#pragma once

#include "store/sql_where.h"
#include "cal/store/event_filter.h"

#include <string>

namespace cal {

struct EventSql {
  // kEventFrom (event_rows.h), or for a search the index narrows, the candidate events first.
  std::string from;
  std::vector<SqlValue> from_args;
  std::string joins;  // after `from`
  SqlWhere where;     // after "WHERE p.type = 'event'"

  // from_args, then where.args: the order of their placeholders in the statement.
  std::vector<SqlValue> args() const;
};

EventSql event_sql(const EventFilter& filter);

}  // namespace cal
