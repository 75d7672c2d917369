// Throttling of failed authentications (docs/reliability.md): failures are counted per
// client address and per login over a sliding window; once either count is at its limit, further
// FAILED attempts are answered 429 rest_too_many_requests with Retry-After instead of 401.
// Valid credentials always pass, so nobody can lock a user or an address out (application
// passwords carry 128 random bits: guessing gains nothing, the 429 tells clients to back off).
// The counts live in the database (table auth_failures, cal/store/auth_failures.h: fixed windows,
// shared by every process and web host, CGI mode included); AuthThrottle, in-process, thread-safe
// and bounded, counts only while that database cannot be written (the primary is down).
#pragma once

#include "cal/api/access/permissions.h"
#include "cal/core/i18n/i18n.h"
#include "cal/http/request.h"
#include "cal/store/db.h"

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace cal {

struct AuthThrottleLimits {
  int failures_per_login = 10;     // failures for one login (Basic), from any address
  int failures_per_address = 100;  // failures from one client address, any credentials (a NAT or
                                   // proxy address stands for many users, hence more)
  std::chrono::seconds window{60};
  std::size_t max_keys = 10000;  // per kind (addresses, logins); the stalest key goes first
};

class AuthThrottle {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  explicit AuthThrottle(AuthThrottleLimits limits = {}, Clock clock = &std::chrono::steady_clock::now);

  // Records one failed authentication from `address` naming `login` ("" when the credentials
  // name none, as with Bearer). Returns 0 when the failure is within the limits (answer 401), else
  // the whole seconds (>= 1) after which a failure from there would be within them again (answer
  // 429 with that Retry-After). A throttled failure counts too, so a client that keeps failing
  // stays throttled.
  int record_failure(std::string_view address, std::string_view login);

  // Keys currently held (addresses + logins), for tests of the memory bound.
  std::size_t tracked_keys() const;

  const AuthThrottleLimits& limits() const { return limits_; }

 private:
  using TimePoint = std::chrono::steady_clock::time_point;
  // The most recent failures of one key, oldest first, at most the kind's limit.
  using Failures = std::deque<TimePoint>;
  using Table = std::unordered_map<std::string, Failures>;

  int wait_seconds(const Table& table, const std::string& key, int limit, TimePoint now) const;
  void add(Table& table, const std::string& key, int limit, TimePoint now);

  AuthThrottleLimits limits_;
  Clock clock_;
  mutable std::mutex mutex_;
  Table by_address_;
  Table by_login_;
};

// The answer for a key that had `failures_before` failures in its current window with
// `seconds_left` of it to go: 0 (within `limit`: 401), else the Retry-After seconds (>= 1).
int throttle_wait(long long failures_before, int limit, long long seconds_left);

// Counts one failure of `address` and `login` ("" = none) in the database's shared counters;
// returns what record_failure() returns. Throws DatabaseUnavailable when it cannot write there.
int record_shared_failure(Db& db, std::string_view address, std::string_view login,
                          const AuthThrottleLimits& limits);

// The process-wide throttle the router uses.
AuthThrottle& auth_throttle();

// authenticate() (cal/api/access/auth.h) for this request's Authorization header, throttled: a 401
// rest_invalid_credentials becomes 429 rest_too_many_requests with Retry-After when the client
// address (Request::remote_addr) or the Basic login has failed too often: counted in `db`
// (record_shared_failure; in `counter_db`, the primary, when `db` is a replica's connection), or
// in `throttle` while that database cannot be written.
Caller authenticate_throttled(const Request& request, Db& db, const Locale& locale,
                              AuthThrottle& throttle = auth_throttle(), Db* counter_db = nullptr);

}  // namespace cal
