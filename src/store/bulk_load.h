// Internal to src/store/: the session variable @cal_bulk_load, which the row triggers of the
// event and search tables test (schema.sql). While it is set they do nothing, and the writer does
// their work itself, once for all its rows: per row they cost more than the inserts themselves.
#pragma once

#include "cal/store/db.h"

namespace cal {

// Sets @cal_bulk_load for the guard's life, or until end(). It counts the guards, so one inside
// another (the search index written by the demo loader) leaves it set for the outer one.
class BulkLoad {
 public:
  explicit BulkLoad(Db& db) : db_(db) { db_.execute("SET @cal_bulk_load = COALESCE(@cal_bulk_load, 0) + 1"); }
  ~BulkLoad() {
    try {
      end();
    } catch (const DatabaseUnavailable&) {
      // The connection is gone, and the variable with it.
    }
  }
  void end() {
    if (on_) db_.execute("SET @cal_bulk_load = NULLIF(@cal_bulk_load - 1, 0)");
    on_ = false;
  }
  BulkLoad(const BulkLoad&) = delete;
  BulkLoad& operator=(const BulkLoad&) = delete;

 private:
  Db& db_;
  bool on_ = true;
};

}  // namespace cal
