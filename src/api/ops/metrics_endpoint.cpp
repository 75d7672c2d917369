// The metrics endpoint (see cal/api/ops/metrics_endpoint.h).
#include "cal/api/ops/metrics_endpoint.h"

#include "cal/api/pipeline/bulkhead.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/json.h"
#include "cal/cache/response_cache.h"
#include "cal/core/i18n/i18n.h"
#include "cal/core/ops/metrics.h"
#include "cal/store/replicas.h"

#include <sodium.h>

#include <algorithm>

namespace cal {
namespace {

enum class Access { kGranted, kWrongToken, kRefused };

Access access_of(const Request& request, const MetricsConfig& config) {
  const std::string& authorization = request.header("authorization");
  constexpr std::string_view kBearer = "Bearer ";
  if (!config.token.empty() && authorization.rfind(kBearer, 0) == 0) {
    const std::string_view presented = std::string_view(authorization).substr(kBearer.size());
    if (presented.size() == config.token.size() &&
        sodium_memcmp(presented.data(), config.token.data(), presented.size()) == 0)
      return Access::kGranted;
    return Access::kWrongToken;
  }
  if (std::find(config.allow.begin(), config.allow.end(), request.remote_addr) != config.allow.end())
    return Access::kGranted;
  return Access::kRefused;
}

void counter(std::string& out, const char* name, const char* help, const std::string& samples) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" counter\n").append(samples);
}

void gauge(std::string& out, const char* name, const char* help, const std::string& samples) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" gauge\n").append(samples);
}

// "name{cache="k"} value" for each cache, `value_of` reading its statistics.
template <class Stats, class ValueOf>
std::string per_cache(const char* name, const std::vector<Stats>& stats, ValueOf value_of) {
  std::string samples;
  for (std::size_t k = 0; k < stats.size(); ++k)
    samples.append(name)
        .append("{cache=\"")
        .append(k == 0 ? "primary" : "replica-" + std::to_string(k))
        .append("\"} ")
        .append(std::to_string(value_of(stats[k])))
        .append("\n");
  return samples;
}

void write_caches(std::string& out, const MetricsSources& sources) {
  std::vector<ResponseCache::Stats> stats;
  for (const ResponseCache* c : sources.caches) stats.push_back(c ? c->stats() : ResponseCache::Stats{});
  if (stats.empty()) return;
  using S = ResponseCache::Stats;
  counter(out, "calendar_response_cache_hits_total", "Answers served from the response cache",
          per_cache("calendar_response_cache_hits_total", stats, [](const S& s) { return s.hits; }));
  counter(out, "calendar_response_cache_misses_total",
          "Cacheable requests the response cache could not answer",
          per_cache("calendar_response_cache_misses_total", stats, [](const S& s) { return s.misses; }));
  counter(
      out, "calendar_response_cache_version_reads_total",
      "Reads of the data version for the response cache (database round trips, the lease watcher's included)",
      per_cache("calendar_response_cache_version_reads_total", stats,
                [](const S& s) { return s.version_reads; }));
  counter(out, "calendar_response_cache_leased_total",
          "Cache lookups that rested on a data version read within the lease, without one of their own",
          per_cache("calendar_response_cache_leased_total", stats, [](const S& s) { return s.leased; }));
  counter(
      out, "calendar_response_cache_evictions_total", "Entries dropped to stay within the budget",
      per_cache("calendar_response_cache_evictions_total", stats, [](const S& s) { return s.evictions; }));
  gauge(out, "calendar_response_cache_entries", "Answers kept in the response cache",
        per_cache("calendar_response_cache_entries", stats, [](const S& s) { return s.entries; }));
  gauge(out, "calendar_response_cache_bytes", "Bytes the response cache holds",
        per_cache("calendar_response_cache_bytes", stats, [](const S& s) { return s.bytes; }));
}

// The rendered records (cal/cache/fragment_cache.h) of each server's cache.
void write_fragment_caches(std::string& out, const MetricsSources& sources) {
  std::vector<FragmentCache::Stats> stats;
  for (const ResponseCache* c : sources.caches)
    stats.push_back(c ? c->fragments().stats() : FragmentCache::Stats{});
  if (stats.empty()) return;
  using F = FragmentCache::Stats;
  counter(out, "calendar_fragment_cache_hits_total", "Records written from their kept rendering",
          per_cache("calendar_fragment_cache_hits_total", stats, [](const F& s) { return s.hits; }));
  counter(out, "calendar_fragment_cache_misses_total", "Records rendered because none was kept",
          per_cache("calendar_fragment_cache_misses_total", stats, [](const F& s) { return s.misses; }));
  counter(out, "calendar_fragment_cache_row_hits_total",
          "Venue, organizer, term and image rows a record was rendered from without reading them",
          per_cache("calendar_fragment_cache_row_hits_total", stats, [](const F& s) { return s.row_hits; }));
  counter(
      out, "calendar_fragment_cache_row_misses_total",
      "Venue, organizer, term and image rows read from the database to render a record",
      per_cache("calendar_fragment_cache_row_misses_total", stats, [](const F& s) { return s.row_misses; }));
  counter(
      out, "calendar_fragment_cache_evictions_total", "Renderings dropped to stay within the budget",
      per_cache("calendar_fragment_cache_evictions_total", stats, [](const F& s) { return s.evictions; }));
  counter(out, "calendar_fragment_cache_invalidations_total",
          "Renderings dropped because a record they show changed",
          per_cache("calendar_fragment_cache_invalidations_total", stats,
                    [](const F& s) { return s.invalidations; }));
  gauge(out, "calendar_fragment_cache_entries", "Renderings kept",
        per_cache("calendar_fragment_cache_entries", stats, [](const F& s) { return s.entries; }));
  gauge(out, "calendar_fragment_cache_bytes", "Bytes the kept renderings take",
        per_cache("calendar_fragment_cache_bytes", stats, [](const F& s) { return s.bytes; }));
}

void write_replicas(std::string& out, ReplicaSet* replicas) {
  if (!replicas || replicas->size() == 0) return;
  const std::vector<ReplicaSet::State> states = replicas->states();
  std::string lag, serving;
  for (std::size_t k = 0; k < states.size(); ++k) {
    const std::string label = "{replica=\"" + std::to_string(k + 1) + "\"} ";
    lag.append("calendar_replica_lag_seconds")
        .append(label)
        .append(std::to_string(states[k].lag_seconds))
        .append("\n");
    serving.append("calendar_replica_serving")
        .append(label)
        .append(states[k].serving ? "1" : "0")
        .append("\n");
  }
  gauge(out, "calendar_replica_lag_seconds", "How far each read replica is behind the primary", lag);
  gauge(out, "calendar_replica_serving", "1 while a replica serves reads, 0 while it is excluded", serving);
}

}  // namespace

bool is_metrics_request(const Request& request) {
  return request.path == "/metrics" || request.path == "/metrics/";
}

Response metrics_response(const Request& request, const Config& config, const MetricsSources& sources) {
  const Access access = access_of(request, config.metrics);
  if (access != Access::kGranted) {
    const Locale locale =
        choose_locale(request.site_locale, "", request.header("accept-language"), config.site.locale);
    Response refused = error_response(forbidden(locale, access == Access::kWrongToken ? 401 : 403));
    refused.set_header("Cache-Control", "no-store");
    refused.route = "/metrics";
    return refused;
  }
  if (request.method != "GET" && request.method != "HEAD") {
    const Locale locale =
        choose_locale(request.site_locale, "", request.header("accept-language"), config.site.locale);
    ApiError e{405, "rest_method_not_allowed", translate(locale, "Method not allowed for this route.")};
    e.allow = {"GET"};
    Response refused = error_response(e);
    refused.route = "/metrics";
    return refused;
  }
  std::string out;
  metrics::write_exposition(out);
  write_caches(out, sources);
  write_fragment_caches(out, sources);
  write_replicas(out, sources.replicas);
  const SlotPool& slots = expensive_slots(config);
  metrics::write_gauge(out, "calendar_bulkhead_slots_in_use", "Slots of expensive requests taken now",
                       slots.in_use());
  metrics::write_gauge(out, "calendar_bulkhead_slots", "Slots of expensive requests in this process",
                       slots.capacity());
  metrics::write_gauge(out, "calendar_bulkhead_waiting", "Expensive requests waiting for a slot now",
                       slots.waiting());
  Response response;
  response.set_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
  response.set_header("Cache-Control", "no-store");
  response.body = std::move(out);
  response.route = "/metrics";
  if (request.method == "HEAD") response.head_only = true;
  return response;
}

}  // namespace cal
