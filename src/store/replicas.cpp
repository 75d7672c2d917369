// Read replicas: positions, waits and health checks (see cal/store/replicas.h).
#include "cal/store/replicas.h"

#include <algorithm>
#include <charconv>

namespace cal {
namespace {

// How often the health is checked, and how much of the primary's history is kept beyond the lag.
constexpr auto kCheckEvery = std::chrono::seconds(1);
constexpr auto kHistory = std::chrono::seconds(10);

long long number(std::string_view s) {
  long long v = -1;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && ptr == s.data() + s.size() ? v : -1;
}

}  // namespace

std::map<long long, long long> parse_gtid_position(std::string_view text) {
  std::map<long long, long long> out;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    std::string_view part = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    while (!part.empty() && (part.front() == ' ' || part.front() == '\n')) part.remove_prefix(1);
    while (!part.empty() && (part.back() == ' ' || part.back() == '\n')) part.remove_suffix(1);
    const std::size_t a = part.find('-');
    const std::size_t b = part.rfind('-');
    if (a == std::string_view::npos || a == b) continue;
    const long long domain = number(part.substr(0, a));
    const long long server = number(part.substr(a + 1, b - a - 1));
    const long long seq = number(part.substr(b + 1));
    if (domain < 0 || server < 0 || seq < 0) continue;
    out[domain] = std::max(out[domain], seq);
  }
  return out;
}

bool gtid_reached(std::string_view position, std::string_view target) {
  const auto have = parse_gtid_position(position);
  for (const auto& [domain, seq] : parse_gtid_position(target)) {
    const auto it = have.find(domain);
    if (it == have.end() || it->second < seq) return false;
  }
  return true;
}

DatabaseConfig replica_config(const DatabaseConfig& primary, const std::string& address) {
  DatabaseConfig c = primary;
  c.replicas.clear();
  c.read_only_session = true;
  if (!address.empty() && address.front() == '/') {
    c.socket = address;
  } else {
    c.socket.clear();
    const std::size_t colon = address.rfind(':');
    c.host = address.substr(0, colon);
    if (c.host.size() > 2 && c.host.front() == '[' && c.host.back() == ']')
      c.host = c.host.substr(1, c.host.size() - 2);
    const long long port = number(std::string_view(address).substr(colon + 1));
    c.port = port > 0 && port < 65536 ? static_cast<int>(port) : 3306;
  }
  return c;
}

std::string last_gtid(Db& db) {
  Rows rows = db.query("SELECT @@last_gtid");
  return rows.next() ? rows.text(0) : std::string();
}

bool wait_for_gtid(Db& replica, const std::string& gtid, double seconds) {
  Rows rows = replica.query("SELECT MASTER_GTID_WAIT(?, ?)", {gtid, seconds});
  return rows.next() && !rows.is_null(0) && rows.integer(0) == 0;
}

ReplicaSet::ReplicaSet(const DatabaseConfig& primary)
    : primary_config_(primary), max_lag_(std::chrono::seconds(primary.max_replica_lag)) {
  // The checks wait a second at most for an answer: a hung server is as good as a dead one.
  primary_config_.replicas.clear();
  primary_config_.read_timeout = 1;
  primary_check_ = std::make_unique<Db>(primary_config_);
  for (const std::string& address : primary.replicas) {
    configs_.push_back(replica_config(primary, address));
    DatabaseConfig check = configs_.back();
    check.read_timeout = 1;
    replica_checks_.push_back(std::make_unique<Db>(check));
  }
  health_.resize(configs_.size());
}

ReplicaSet::~ReplicaSet() = default;

void ReplicaSet::check() {
  std::lock_guard<std::mutex> lock(check_mutex_);
  const Clock::time_point now = Clock::now();
  bool primary_up = true;
  try {
    Rows rows = primary_check_->query("SELECT @@gtid_binlog_pos");
    if (rows.next()) samples_.push_back(Sample{now, rows.text(0)});
  } catch (const std::exception&) {
    primary_check_->reset();
    primary_up = false;
  } catch (const DatabaseUnavailable&) {
    primary_check_->reset();
    primary_up = false;
  }
  while (samples_.size() > 1 && samples_.front().at + max_lag_ + kHistory < now) samples_.pop_front();
  std::vector<Health> health(configs_.size());
  for (std::size_t k = 0; k < configs_.size(); ++k) {
    Db& db = *replica_checks_[k];
    std::string position;
    try {
      Rows rows = db.query("SELECT @@gtid_slave_pos");
      if (!rows.next()) continue;
      position = rows.text(0);
      health[k].reachable = true;
    } catch (const std::exception&) {
      db.reset();
      continue;
    } catch (const DatabaseUnavailable&) {
      db.reset();
      continue;
    }
    if (!primary_up) {
      health[k].healthy = true;  // stale answers rather than none
      continue;
    }
    // The age of the oldest primary position this replica has not reached.
    Clock::duration lag{0};
    for (const Sample& s : samples_)
      if (!gtid_reached(position, s.position)) {
        lag = now - s.at;
        break;
      }
    health[k].lag_seconds = std::chrono::duration<double>(lag).count();
    health[k].healthy = lag <= max_lag_;
  }
  std::lock_guard<std::mutex> state(state_mutex_);
  health_ = std::move(health);
  checked_at_ = Clock::now();
}

void ReplicaSet::check_if_due() {
  bool due;
  {
    std::lock_guard<std::mutex> state(state_mutex_);
    due = Clock::now() - checked_at_ >= kCheckEvery;
  }
  // One request runs a due check; the others go on with the last one's answer.
  if (due) {
    std::unique_lock<std::mutex> trying(check_mutex_, std::try_to_lock);
    if (trying.owns_lock()) {
      trying.unlock();
      check();
    }
  }
}

std::optional<std::size_t> ReplicaSet::pick() {
  if (configs_.empty()) return std::nullopt;
  check_if_due();
  std::lock_guard<std::mutex> state(state_mutex_);
  for (std::size_t i = 0; i < health_.size(); ++i) {
    const std::size_t k = (next_ + i) % health_.size();
    if (health_[k].healthy) {
      next_ = k + 1;
      return k;
    }
  }
  return std::nullopt;
}

std::vector<ReplicaSet::State> ReplicaSet::states() {
  check_if_due();
  std::lock_guard<std::mutex> state(state_mutex_);
  std::vector<State> out;
  for (const Health& h : health_) out.push_back(State{h.reachable, h.healthy, h.lag_seconds});
  return out;
}

void ReplicaSet::report_failure(std::size_t k) {
  std::lock_guard<std::mutex> state(state_mutex_);
  if (k < health_.size()) health_[k].healthy = false;
}

}  // namespace cal
