// The database server's time zone data (see cal/store/server_time_zones.h).
#include "cal/store/server_time_zones.h"

#include "cal/store/db.h"

namespace cal {

std::optional<std::string> database_local_time(Db& db, const std::string& zone, const std::string& utc) {
  // The session's time_zone is '+00:00' (Db::connect), so the string comes back as computed.
  Rows rows = db.query("SELECT DATE_FORMAT(CONVERT_TZ(?, '+00:00', ?), '%Y-%m-%d %H:%i:%s')", {utc, zone});
  if (!rows.next() || rows.is_null(0)) return std::nullopt;
  return rows.text(0);
}

}  // namespace cal
