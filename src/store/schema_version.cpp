// The applied schema version (see cal/store/schema_version.h).
#include "cal/store/schema_version.h"

#include "cal/store/db.h"

namespace cal {

long long applied_schema_version(Db& db) {
  Rows rows = db.query("SELECT MAX(version) FROM schema_migrations");
  return rows.next() ? rows.integer(0) : 0;
}

}  // namespace cal
