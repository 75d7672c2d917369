// The data version the response cache validates against (issue 8; schema.sql `data_version`):
// the sum of the write counters that triggers bump on every row written, the database clock,
// and the next instant at which a scheduled (`future`) post comes due.
#pragma once

#include "cal/store/db.h"

#include <limits>
#include <optional>

namespace cal {

struct DataVersion {
  long long version = 0;  // SUM(data_version.version): changes with every committed write
  long long db_now = 0;   // the database's clock, Unix seconds
  // The first future post's date_utc after db_now (Unix seconds), when `future` rows start to
  // read as `publish`; max() when none is scheduled.
  long long next_change = std::numeric_limits<long long>::max();
};

// Reads the version: one statement, plus a second for next_change unless `previous` (an
// earlier read, on any connection) has the same version and its next_change is still ahead, in
// which case it still holds (the scheduled posts are what they were). Throws
// DatabaseUnavailable on connection loss and std::exception when the schema lacks the table (an
// unmigrated database).
DataVersion read_data_version(Db& db, const std::optional<DataVersion>& previous = std::nullopt);

}  // namespace cal
