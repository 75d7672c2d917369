// The data version queries (see cal/store/data_version.h).
#include "cal/store/data_version.h"

namespace cal {

DataVersion read_data_version(Db& db, const std::optional<DataVersion>& previous) {
  DataVersion v;
  {
    // One scan of 16 rows; UNIX_TIMESTAMP() is the database's clock.
    Rows rows = db.query("SELECT CAST(SUM(version) AS SIGNED), UNIX_TIMESTAMP() FROM data_version");
    if (!rows.next()) return v;
    v.version = rows.integer(0);
    v.db_now = rows.integer(1);
  }
  if (previous && previous->version == v.version && previous->db_now <= v.db_now &&
      v.db_now < previous->next_change) {
    v.next_change = previous->next_change;
    return v;
  }
  // posts_status_date makes this one index dive. FROM_UNIXTIME reads in the session zone, which
  // Db sets to UTC.
  Rows rows = db.query(
      "SELECT UNIX_TIMESTAMP(MIN(date_utc)) FROM posts WHERE status = 'future' AND date_utc > "
      "FROM_UNIXTIME(?)",
      {v.db_now});
  if (rows.next() && !rows.is_null(0)) v.next_change = rows.integer(0);
  return v;
}

}  // namespace cal
