// The schema version this binary expects, and the one a database has: the health check and
// `calendar-fcgi --check` compare them (docs/operations.md).
#pragma once

namespace cal {

class Db;

// The highest migration number of the schema.sql this binary was built with (a unit test holds it
// to the file). A database below it lacks tables or columns the code uses; one above it was
// migrated by a newer calendarctl.
inline constexpr long long kSchemaVersion = 23;

// The highest migration recorded in the database's schema_migrations; 0 when none. One statement.
// Throws DatabaseUnavailable as Db does, and std::exception for a database without the table.
long long applied_schema_version(Db& db);

}  // namespace cal
