// The database server's clock (see cal/store/server_clock.h).
#include "cal/store/server_clock.h"

#include "cal/store/db.h"

namespace cal {

double database_unix_time(Db& db) {
  Rows rows = db.query("SELECT UNIX_TIMESTAMP(NOW(6))");
  return rows.next() ? rows.number(0) : 0;
}

}  // namespace cal
