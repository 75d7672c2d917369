// The health check (see cal/api/ops/health.h).
#include "cal/api/ops/health.h"

#include "cal/api/pipeline/json.h"
#include "cal/store/replicas.h"
#include "cal/store/schema_version.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>

namespace cal {
namespace {

constexpr auto kKeepReport = std::chrono::seconds(1);
constexpr std::string_view kHealthPath = "/cal/events/v1/health";

std::atomic<ReplicaSet*> g_replicas{nullptr};

HealthCheck replicas_check(ReplicaSet& set) {
  HealthCheck check{"replicas", false, ""};
  const std::vector<ReplicaSet::State> states = set.states();
  std::size_t serving = 0;
  for (std::size_t k = 0; k < states.size(); ++k) {
    const ReplicaSet::State& s = states[k];
    char lag[32];
    std::snprintf(lag, sizeof lag, "%.1f", s.lag_seconds);
    if (!check.detail.empty()) check.detail += "; ";
    check.detail += "replica " + std::to_string(k + 1) + " ";
    if (s.serving) {
      ++serving;
      check.detail += std::string("serving, ") + lag + " s behind";
    } else {
      check.detail += s.reachable ? std::string("excluded, ") + lag + " s behind (max " +
                                        std::to_string(set.max_lag().count()) + ")"
                                  : std::string("excluded, unreachable");
    }
  }
  // Excluded replicas leave their reads to the primary; with none serving, every read does.
  check.ok = serving > 0;
  return check;
}

void write_report(JsonWriter& w, const HealthReport& report) {
  w.StartObject();
  write_member(w, "status", report.ok() ? "ok" : "failing");
  write_key(w, "checks");
  w.StartObject();
  for (const HealthCheck& c : report.checks) {
    write_key(w, c.name);
    w.StartObject();
    write_member(w, "status", c.ok ? "ok" : "failing");
    write_member(w, "detail", c.detail);
    w.EndObject();
  }
  w.EndObject();
  w.EndObject();
}

}  // namespace

bool HealthReport::ok() const {
  for (const HealthCheck& c : checks)
    if (!c.ok) return false;
  return true;
}

HealthReport check_health(Db& db, ReplicaSet* replicas) {
  HealthReport report;
  HealthCheck database{"database", false, ""};
  HealthCheck schema{"schema", false, ""};
  try {
    const long long version = applied_schema_version(db);
    database.ok = true;
    database.detail = "answers";
    schema.ok = version == kSchemaVersion;
    schema.detail = "version " + std::to_string(version) + ", this binary expects " +
                    std::to_string(kSchemaVersion) +
                    (version < kSchemaVersion   ? " (run calendarctl migrate)"
                     : version > kSchemaVersion ? " (install the newer binary)"
                                                : "");
  } catch (const DatabaseUnavailable& e) {
    database.detail = "unreachable: " + e.detail;
    schema.detail = "not read: the database is unreachable";
  } catch (const StatementTimeout& e) {
    database.detail = "too slow: " + e.detail;
    schema.detail = "not read: the database is too slow";
  } catch (const DatabaseConflict& e) {
    database.detail = "conflict: " + e.detail;
    schema.detail = "not read: the database refused the statement";
  } catch (const std::exception& e) {
    // The server answered, but the statement failed: no schema_migrations table (wrong database
    // name, or never migrated) or no privilege to read it.
    database.ok = true;
    database.detail = "answers";
    schema.detail = std::string("cannot read schema_migrations (run calendarctl migrate): ") + e.what();
  }
  report.checks.push_back(std::move(database));
  report.checks.push_back(std::move(schema));
  if (replicas && replicas->size() > 0) report.checks.push_back(replicas_check(*replicas));
  return report;
}

void set_health_replicas(ReplicaSet* replicas) { g_replicas = replicas; }

bool is_health_path(std::string_view path) {
  if (!path.empty() && path.back() == '/') path.remove_suffix(1);
  return path == kHealthPath;
}

Response get_health(RequestContext& ctx) {
  static std::mutex mutex;
  static std::chrono::steady_clock::time_point checked_at{};
  static HealthReport kept;
  HealthReport report;
  {
    // Probes that arrive together wait for one check instead of each running their own.
    std::lock_guard<std::mutex> lock(mutex);
    const auto now = std::chrono::steady_clock::now();
    if (kept.checks.empty() || now - checked_at >= kKeepReport) {
      kept = check_health(ctx.db, g_replicas.load());
      checked_at = std::chrono::steady_clock::now();
    }
    report = kept;
  }
  JsonBuffer buffer;
  JsonWriter w(buffer);
  write_report(w, report);
  Response response = json_response(report.ok() ? 200 : 503, buffer);
  response.set_header("Cache-Control", "no-store");
  return response;
}

}  // namespace cal
