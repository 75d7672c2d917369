// Read replicas (docs/scaling-out.md): which replica may serve a read, GTID positions
// for read-your-writes, and the process-wide health of each replica.
//
// Lag is measured on the positions, not on Seconds_Behind_Master (NULL while replication is
// stopped, and relative to the relay log only): about once a second the checker reads the
// primary's @@gtid_binlog_pos and each replica's @@gtid_slave_pos; a replica lags by the age of
// the oldest primary position it has not reached. A replica that cannot be reached, or lags more
// than max_replica_lag, is out of rotation until a later check finds it healthy. While the primary
// cannot be reached, every reachable replica serves (stale answers rather than none).
#pragma once

#include "cal/core/config.h"
#include "cal/store/db.h"

#include <chrono>
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cal {

// A GTID position ("0-1-42,1-2-7") as domain -> sequence number; malformed parts are ignored.
std::map<long long, long long> parse_gtid_position(std::string_view text);

// Whether `position` has reached every domain's sequence number of `target`.
bool gtid_reached(std::string_view position, std::string_view target);

// The connection settings of the replica `address` (a socket path or host:port), with the
// primary's user, password and name; its sessions are read-only.
DatabaseConfig replica_config(const DatabaseConfig& primary, const std::string& address);

// The GTID of this session's last committed transaction ("" when none; SELECT @@last_gtid).
std::string last_gtid(Db& db);

// On a replica: waits up to `seconds` until it has applied `gtid`; false on timeout or a
// malformed position (MASTER_GTID_WAIT).
bool wait_for_gtid(Db& replica, const std::string& gtid, double seconds);

class ReplicaSet {
 public:
  using Clock = std::chrono::steady_clock;

  explicit ReplicaSet(const DatabaseConfig& primary);
  ~ReplicaSet();

  std::size_t size() const { return configs_.size(); }
  const DatabaseConfig& config(std::size_t k) const { return configs_[k]; }

  // A replica that may serve a read now (round robin over the healthy ones), checking them first
  // when the last check is older than a second; nullopt: read from the primary.
  std::optional<std::size_t> pick();

  // A request lost replica k's connection: out of rotation until the next check finds it well.
  void report_failure(std::size_t k);

  // Runs the checks now (tests; pick() calls it when due).
  void check();

  // What the last check found of each replica, in configuration order (the health check,
  // docs/operations.md), checking first when the last check is older than a second.
  struct State {
    bool reachable = false;
    bool serving = false;    // in rotation: reachable and within max_replica_lag
    double lag_seconds = 0;  // behind the primary, as measured on the positions
  };
  std::vector<State> states();
  std::chrono::seconds max_lag() const { return max_lag_; }

 private:
  struct Sample {
    Clock::time_point at;
    std::string position;
  };
  struct Health {
    bool healthy = false;
    bool reachable = false;
    double lag_seconds = 0;
  };
  // Runs check() when the last one is older than a second, unless another thread is running one.
  void check_if_due();

  std::vector<DatabaseConfig> configs_;
  DatabaseConfig primary_config_;
  std::chrono::seconds max_lag_;

  std::mutex check_mutex_;  // one checker at a time; it owns the check connections and samples
  std::unique_ptr<Db> primary_check_;
  std::vector<std::unique_ptr<Db>> replica_checks_;
  std::deque<Sample> samples_;  // the primary's positions, oldest first

  std::mutex state_mutex_;  // the state requests read
  std::vector<Health> health_;
  Clock::time_point checked_at_{};
  std::size_t next_ = 0;
};

}  // namespace cal
