// The process's counters and their text exposition (see cal/core/ops/metrics.h). The HELP texts
// end without a period: po/catalogs.sh takes such literals of src/core for client messages.
#include "cal/core/ops/metrics.h"

#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <tuple>

namespace cal::metrics {
namespace {

// Seconds: from a cached answer (well under a millisecond) to a statement at its budget.
constexpr std::array<double, 12> kLatencyBuckets = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                    0.1,   0.25,   0.5,   1,    2.5,   10};
constexpr std::array<double, 8> kStatementBuckets = {0, 1, 2, 4, 8, 16, 32, 64};

template <std::size_t N>
struct Histogram {
  std::array<std::uint64_t, N> at_most{};  // per bucket, not yet cumulative
  std::uint64_t count = 0;
  double sum = 0;

  void observe(const std::array<double, N>& bounds, double v) {
    for (std::size_t i = 0; i < N; ++i)
      if (v <= bounds[i]) {
        ++at_most[i];
        break;
      }
    ++count;
    sum += v;
  }
};

struct Registry {
  std::mutex mutex;
  std::map<std::tuple<std::string, std::string, char>, std::uint64_t> requests;
  std::map<std::string, Histogram<kLatencyBuckets.size()>> latency;
  Histogram<kStatementBuckets.size()> statements;
};

Registry& registry() {
  static Registry r;
  return r;
}

std::array<std::atomic<std::uint64_t>, static_cast<std::size_t>(Counter::kCount)> g_counters{};
std::atomic<int> g_busy{0};
std::atomic<int> g_held{0};
const double g_started_at =
    std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();

// Only the methods of the API get a label of their own: any token a client sends would otherwise
// make a series.
std::string method_label(std::string_view method) {
  static constexpr std::string_view kKnown[] = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"};
  for (std::string_view m : kKnown)
    if (method == m) return std::string(m);
  return "other";
}

std::string escaped(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"')
      out += '\\', out += c;
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string number(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

void family(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

template <std::size_t N>
void write_histogram(std::string& out, std::string_view name, const std::string& labels,
                     const std::array<double, N>& bounds, const Histogram<N>& h) {
  const std::string prefix = labels.empty() ? "" : labels + ",";
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < N; ++i) {
    cumulative += h.at_most[i];
    out.append(name).append("_bucket{").append(prefix).append("le=\"").append(number(bounds[i]));
    out.append("\"} ").append(std::to_string(cumulative)).append("\n");
  }
  out.append(name).append("_bucket{").append(prefix).append("le=\"+Inf\"} ");
  out.append(std::to_string(h.count)).append("\n");
  const std::string braces = labels.empty() ? "" : "{" + labels + "}";
  out.append(name).append("_sum").append(braces).append(" ").append(number(h.sum)).append("\n");
  out.append(name).append("_count").append(braces).append(" ").append(std::to_string(h.count)).append("\n");
}

long resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long pages_total = 0, pages_resident = 0;
  if (!(statm >> pages_total >> pages_resident)) return 0;
  return pages_resident * sysconf(_SC_PAGESIZE);
}

}  // namespace

void add(Counter counter, std::uint64_t n) { g_counters[static_cast<std::size_t>(counter)] += n; }

std::uint64_t value(Counter counter) { return g_counters[static_cast<std::size_t>(counter)].load(); }

void observe_request(std::string_view route, std::string_view method, int status, double seconds,
                     std::size_t statements) {
  const std::string route_label = route.empty() ? "unmatched" : std::string(route);
  const char status_class = status >= 100 && status < 600 ? static_cast<char>('0' + status / 100) : '0';
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  ++r.requests[{route_label, method_label(method), status_class}];
  r.latency[route_label].observe(kLatencyBuckets, seconds);
  r.statements.observe(kStatementBuckets, static_cast<double>(statements));
}

void worker_busy(int delta) { g_busy += delta; }
void answers_held(int delta) { g_held += delta; }

void write_gauge(std::string& out, std::string_view name, std::string_view help, double value) {
  family(out, name, "gauge", help);
  out.append(name).append(" ").append(number(value)).append("\n");
}

void write_exposition(std::string& out) {
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    family(out, "calendar_requests_total", "counter",
           "Requests answered, by route template, method and status class");
    for (const auto& [key, count] : r.requests) {
      const auto& [route, method, status_class] = key;
      out.append("calendar_requests_total{route=\"").append(escaped(route)).append("\",method=\"");
      out.append(method).append("\",status=\"").append(1, status_class).append("xx\"} ");
      out.append(std::to_string(count)).append("\n");
    }
    family(out, "calendar_request_duration_seconds", "histogram",
           "Time from a request's arrival to its answer, by route template");
    for (const auto& [route, h] : r.latency)
      write_histogram(out, "calendar_request_duration_seconds", "route=\"" + escaped(route) + "\"",
                      kLatencyBuckets, h);
    family(out, "calendar_request_statements", "histogram", "SQL statements run per request");
    write_histogram(out, "calendar_request_statements", "", kStatementBuckets, r.statements);
  }
  struct Named {
    Counter counter;
    const char* name;
    const char* help;
  };
  static constexpr Named kCounters[] = {
      {Counter::kDbErrors, "calendar_database_errors_total",
       "Requests answered 503 for the database: connection lost, or conflicts past the retries"},
      {Counter::kDbReconnects, "calendar_database_reconnects_total",
       "Database connections made again after one was lost or dropped"},
      {Counter::kDbRetries, "calendar_database_retries_total",
       "Requests run again after a lost connection, a deadlock or a lock wait timeout"},
      {Counter::kAuthFailures, "calendar_auth_failures_total", "Credentials refused (401)"},
      {Counter::kAuthThrottled, "calendar_auth_throttled_total", "Failed authentications answered 429"},
      {Counter::kBulkheadRefusals, "calendar_bulkhead_refusals_total",
       "Expensive requests answered 503 rest_busy: no slot in time, or a statement out of its budget"},
      {Counter::kLeaseHeld, "calendar_lease_held_answers_total",
       "Answers to writes held back until the cache lease passed, their worker thread serving on meanwhile"},
  };
  for (const Named& n : kCounters) {
    family(out, n.name, "counter", n.help);
    out.append(n.name).append(" ").append(std::to_string(value(n.counter))).append("\n");
  }
  write_gauge(out, "calendar_workers_busy", "Worker threads answering a request now", g_busy.load());
  write_gauge(out, "calendar_lease_held_answers",
              "Answers to writes held back now until the cache lease passes", g_held.load());
  write_gauge(out, "process_start_time_seconds", "Start time of the process since the Unix epoch in seconds",
              g_started_at);
  write_gauge(out, "process_resident_memory_bytes", "Resident memory size in bytes",
              static_cast<double>(resident_bytes()));
}

}  // namespace cal::metrics
