// The health check (docs/operations.md): whether this service can answer, for load balancers,
// monitoring and container health checks. The same checks serve GET /health and
// `calendar-fcgi --check`.
#pragma once

#include "cal/api/pipeline/context.h"

#include <string>
#include <string_view>
#include <vector>

namespace cal {

class ReplicaSet;

struct HealthCheck {
  std::string name;  // "database", "schema", "replicas"
  bool ok = false;
  std::string detail;  // one line for people: what was found, or what failed
};

struct HealthReport {
  std::vector<HealthCheck> checks;
  bool ok() const;
};

// Runs the checks: the database answers (one statement, which also reads the schema version),
// the schema is at kSchemaVersion, and with replicas at least one is serving (each listed with
// its lag, or as excluded). `replicas` may be null (none configured). Never throws.
HealthReport check_health(Db& db, ReplicaSet* replicas);

// The replica set GET /health reports on (main sets it once before serving; null: none).
void set_health_replicas(ReplicaSet* replicas);

// Whether `path` (below the REST root) is the health route: the pipeline answers it on the
// primary, never from the response cache.
bool is_health_path(std::string_view path);

// GET/HEAD /health: 200 {"status":"ok","checks":{...}} or 503 with "status":"failing" and each
// check's own status; Cache-Control: no-store. The report is kept for a second in the process, so
// a flood of probes costs the database one statement a second.
Response get_health(RequestContext& ctx);

}  // namespace cal
