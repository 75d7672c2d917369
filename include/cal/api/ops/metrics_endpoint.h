// The Prometheus metrics endpoint (docs/operations.md): GET {rest root}/metrics with
// [metrics] enabled, for the addresses of [metrics] allow or with [metrics] token as a Bearer
// token. The counters are cal/core/ops/metrics.h's; the gauges are read when scraped.
#pragma once

#include "cal/core/config.h"
#include "cal/http/request.h"

#include <vector>

namespace cal {

class ReplicaSet;
class ResponseCache;

// What the process holds beside the counters: its response caches (the primary's first; entries
// may be null) and its replicas (null: none).
struct MetricsSources {
  std::vector<const ResponseCache*> caches;
  ReplicaSet* replicas = nullptr;
};

// Whether the request asks for the REST root's /metrics.
bool is_metrics_request(const Request& request);

// The exposition (text/plain; version=0.0.4) for a caller the configuration lets in; 403
// rest_forbidden for another address without a token, 401 for a wrong token (docs/api.md §2 shape).
Response metrics_response(const Request& request, const Config& config, const MetricsSources& sources);

}  // namespace cal
