// Failed-authentication throttling (see cal/api/access/auth_throttle.h).
#include "cal/api/access/auth_throttle.h"

#include "cal/api/access/auth.h"
#include "cal/api/pipeline/error.h"
#include "cal/core/ops/metrics.h"
#include "cal/store/auth_failures.h"

#include <algorithm>

namespace cal {
namespace {

// Keys are bounded in length: a login longer than any stored one (VARCHAR(60)) names no user,
// and an address is at most an IPv6 text; longer input shares its truncated key.
constexpr std::size_t kMaxKeyBytes = 64;

std::string key_of(std::string_view text) { return std::string(text.substr(0, kMaxKeyBytes)); }

}  // namespace

AuthThrottle::AuthThrottle(AuthThrottleLimits limits, Clock clock)
    : limits_(limits), clock_(std::move(clock)) {}

int AuthThrottle::wait_seconds(const Table& table, const std::string& key, int limit, TimePoint now) const {
  const auto it = table.find(key);
  if (it == table.end() || static_cast<int>(it->second.size()) < limit) return 0;
  // The oldest of the last `limit` failures: once it leaves the window, fewer than `limit` remain.
  const auto until = it->second.front() + limits_.window;
  if (until <= now) return 0;
  const auto left = std::chrono::ceil<std::chrono::seconds>(until - now).count();
  return static_cast<int>(std::max<long long>(1, left));
}

void AuthThrottle::add(Table& table, const std::string& key, int limit, TimePoint now) {
  auto it = table.find(key);
  if (it == table.end()) {
    if (table.size() >= limits_.max_keys) {
      // Drop every key whose newest failure left the window; if none did, the stalest key.
      for (auto i = table.begin(); i != table.end();) {
        if (i->second.back() + limits_.window <= now)
          i = table.erase(i);
        else
          ++i;
      }
      if (table.size() >= limits_.max_keys) {
        const auto stalest = std::min_element(table.begin(), table.end(), [](const auto& a, const auto& b) {
          return a.second.back() < b.second.back();
        });
        table.erase(stalest);
      }
    }
    it = table.emplace(key, Failures{}).first;
  }
  Failures& failures = it->second;
  failures.push_back(now);
  while (static_cast<int>(failures.size()) > std::max(1, limit)) failures.pop_front();
}

int AuthThrottle::record_failure(std::string_view address, std::string_view login) {
  const TimePoint now = clock_();
  const std::string address_key = key_of(address);
  const std::string login_key = key_of(login);
  std::lock_guard<std::mutex> lock(mutex_);
  int wait = wait_seconds(by_address_, address_key, limits_.failures_per_address, now);
  if (!login.empty())
    wait = std::max(wait, wait_seconds(by_login_, login_key, limits_.failures_per_login, now));
  add(by_address_, address_key, limits_.failures_per_address, now);
  if (!login.empty()) add(by_login_, login_key, limits_.failures_per_login, now);
  return wait;
}

std::size_t AuthThrottle::tracked_keys() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return by_address_.size() + by_login_.size();
}

int throttle_wait(long long failures_before, int limit, long long seconds_left) {
  if (failures_before < limit) return 0;
  return static_cast<int>(std::clamp<long long>(seconds_left, 1, 24 * 3600));
}

int record_shared_failure(Db& db, std::string_view address, std::string_view login,
                          const AuthThrottleLimits& limits) {
  const int window = static_cast<int>(limits.window.count());
  const AuthFailureCount by_address = count_auth_failure(db, "a:" + key_of(address), window);
  int wait = throttle_wait(by_address.failures_before, limits.failures_per_address, by_address.seconds_left);
  if (!login.empty()) {
    const AuthFailureCount by_login = count_auth_failure(db, "l:" + key_of(login), window);
    wait = std::max(
        wait, throttle_wait(by_login.failures_before, limits.failures_per_login, by_login.seconds_left));
  }
  return wait;
}

AuthThrottle& auth_throttle() {
  static AuthThrottle throttle;
  return throttle;
}

Caller authenticate_throttled(const Request& request, Db& db, const Locale& locale, AuthThrottle& throttle,
                              Db* counter_db) {
  const std::string& authorization = request.header("authorization");
  try {
    return authenticate(authorization, db, locale);
  } catch (const ApiError& e) {
    if (e.status != 401) throw;
    metrics::add(metrics::Counter::kAuthFailures);
    const auto credentials = parse_authorization(authorization);
    const std::string login = credentials && credentials->login ? *credentials->login : std::string();
    int wait = 0;
    try {
      wait =
          record_shared_failure(counter_db ? *counter_db : db, request.remote_addr, login, throttle.limits());
    } catch (const DatabaseUnavailable&) {
      // No database to count in (the primary is down; or none at all): this process counts alone.
      wait = throttle.record_failure(request.remote_addr, login);
    } catch (const DatabaseConflict&) {
      wait = throttle.record_failure(request.remote_addr, login);
    } catch (const std::exception&) {
      wait = throttle.record_failure(request.remote_addr, login);  // e.g. a read-only server
    }
    if (wait == 0) throw;
    ApiError limited{429, "rest_too_many_requests",
                     translate(locale, "Too many failed authentication attempts; try again later.")};
    limited.retry_after = wait;
    metrics::add(metrics::Counter::kAuthThrottled);
    throw limited;
  }
}

}  // namespace cal
