// The process's counters for the metrics endpoint (docs/operations.md): incremented where things
// happen (the FastCGI loop, the database connection, the pipeline), written out in Prometheus's
// text exposition format. Cheap enough to count always; served only with [metrics] enabled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cal::metrics {

// Events counted where they happen.
enum class Counter {
  kDbErrors,          // requests answered 503 for the database (lost, or conflicts past the retries)
  kDbReconnects,      // connections made again after one was lost or dropped
  kDbRetries,         // requests run again after a lost connection or a deadlock
  kAuthFailures,      // credentials refused (401)
  kAuthThrottled,     // failed authentications answered 429
  kBulkheadRefusals,  // expensive requests answered 503 rest_busy (no slot, or out of budget)
  kLeaseHeld,         // writes' answers held back to wait out the cache lease, their worker serving on
  kCount
};

void add(Counter counter, std::uint64_t n = 1);
std::uint64_t value(Counter counter);

// One answered request: its route template ("/cal/events/v1/events/{id}"; "" when none
// matched), method, status, seconds from arrival to answer, and statements run.
void observe_request(std::string_view route, std::string_view method, int status, double seconds,
                     std::size_t statements);

// Worker threads busy with a request: +1 when one starts, -1 when it is answered.
void worker_busy(int delta);

// Answers held back now (cal/http/release_queue.h): +1 when one is held, -1 when it is sent.
void answers_held(int delta);

// Appends every counter above (requests by route, method and status class; latency histograms per
// route; statements per request; the event counters; busy workers; the process's start time and
// resident memory) in the text exposition format, each family with HELP and TYPE.
void write_exposition(std::string& out);

// Appends one gauge family with a single sample (value printed as Prometheus reads it).
void write_gauge(std::string& out, std::string_view name, std::string_view help, double value);

}  // namespace cal::metrics
