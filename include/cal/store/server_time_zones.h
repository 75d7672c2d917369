// The database server's own time zone data (mysql.time_zone*, loaded by mariadb-tzinfo-to-sql),
// for `calendarctl doctor` (docs/operations.md): the service converts with its own zone data, a
// reader of the tables in SQL with MariaDB's, and the two should agree.
#pragma once

#include <optional>
#include <string>

namespace cal {

class Db;

// The wall clock, "YYYY-MM-DD HH:MM:SS", that the server's CONVERT_TZ gives in `zone` (an IANA
// name) for the UTC wall clock `utc` in the same form; nullopt when the server has no data for
// the zone (its tables are empty or lack it).
std::optional<std::string> database_local_time(Db& db, const std::string& zone, const std::string& utc);

}  // namespace cal
