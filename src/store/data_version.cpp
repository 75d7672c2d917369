// The data version query (see cal/store/data_version.h).
#include "cal/store/data_version.h"

namespace cal {

DataVersion read_data_version(Db& db) {
  // posts_status_date turns the MIN() into one index dive. UNIX_TIMESTAMP(d) reads d in the
  // session zone, which Db sets to UTC.
  Rows rows = db.query(
      "SELECT CAST((SELECT SUM(version) FROM data_version) AS SIGNED), UNIX_TIMESTAMP(), "
      "(SELECT UNIX_TIMESTAMP(MIN(date_utc)) FROM posts WHERE status = 'future' AND date_utc > UTC_TIMESTAMP())",
      {});
  DataVersion v;
  if (!rows.next()) return v;
  v.version = rows.integer(0);
  v.db_now = rows.integer(1);
  if (!rows.is_null(2)) v.next_change = rows.integer(2);
  return v;
}

}  // namespace cal
