// Internal to src/store/ (and its unit test): an EventFilter as the SQL pieces of the list
// query. Values only ever go into `where.args`; the text depends on the filter's shape alone.
#pragma once

#include "store/sql_where.h"
#include "cal/store/event_filter.h"

#include <string>

namespace cal {

struct EventSql {
  std::string joins;  // after kEventFrom (event_rows.h)
  SqlWhere where;     // after "WHERE p.type = 'event'"
};

EventSql event_sql(const EventFilter& filter);

}  // namespace cal
