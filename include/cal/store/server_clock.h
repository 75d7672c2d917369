// The database server's clock, for `calendarctl doctor` (docs/operations.md): the service stamps
// dates with its own clock and the database with its own, so the two must agree.
#pragma once

namespace cal {

class Db;

// The database server's current time in seconds since the Unix epoch (microseconds included).
double database_unix_time(Db& db);

}  // namespace cal
