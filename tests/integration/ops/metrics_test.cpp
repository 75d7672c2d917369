// The metrics endpoint (docs/operations.md) on the main stack, whose calendar.conf has
// [metrics] enabled and a token (scripts/run-tests.sh): Debian's promtool accepts the exposition,
// requests are counted by route template, method and status class, callers from other addresses
// get 403 and wrong tokens 401 in the JSON error shape, and a real Prometheus server scrapes it as
// configured. In CGI mode there is no /metrics (a process answers one request).
#include <doctest/doctest.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include <unistd.h>

#include "support/client.h"
#include "support/commands.h"
#include "support/events.h"
#include "support/metrics.h"
#include "support/reliability.h"

namespace caltest {
namespace {

// [metrics] token of the stack's calendar.conf (string search: std::regex trips GCC 12's
// maybe-uninitialized warning in the sanitizer build).
std::string metrics_token() {
  const std::string conf = read_text_file(test_stack_dir() + "/calendar.conf");
  const std::size_t section = conf.find("[metrics]");
  REQUIRE_MESSAGE(section != std::string::npos, conf);
  const std::size_t next_section = conf.find('[', section + 1);
  const std::size_t key = conf.find("token = ", section);
  REQUIRE_MESSAGE((key != std::string::npos && key < next_section), conf);
  const std::size_t start = key + std::string("token = ").size();
  std::size_t end = start;
  while (end < conf.size() && (std::isalnum(static_cast<unsigned char>(conf[end])) || conf[end] == '_'))
    ++end;
  REQUIRE_MESSAGE(end > start, conf);
  return conf.substr(start, end - start);
}

// `promtool check metrics` on `text`: its exit code and what it said.
Run promtool(const std::string& text) {
  char path[] = "/tmp/cal-metrics-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  close(fd);
  const Run r = run(std::string("promtool check metrics < ") + path + " 2>&1");
  std::remove(path);
  return r;
}

}  // namespace

TEST_CASE("GET /metrics: promtool accepts it; requests are counted by route template, method, status class") {
  const HttpResponse before = send({.url = metrics_url()});
  REQUIRE_MESSAGE(before.status == 200, describe(before));
  CHECK(before.header("content-type").rfind("text/plain; version=0.0.4", 0) == 0);
  CHECK(before.header("cache-control") == "no-store");
  const Run check = promtool(before.body);
  CHECK_MESSAGE(check.exit_code == 0, check.out);
  const std::string route = "route=\"/cal/events/v1/events/{id}\"";
  const std::string ok = "calendar_requests_total{" + route + ",method=\"GET\",status=\"2xx\"}";
  const std::string missing = "calendar_requests_total{" + route + ",method=\"GET\",status=\"4xx\"}";
  const std::string durations = "calendar_request_duration_seconds_count{" + route + "}";
  const double ok_before = std::max(0.0, metric_sample(before.body, ok));
  const double missing_before = std::max(0.0, metric_sample(before.body, missing));
  const double durations_before = std::max(0.0, metric_sample(before.body, durations));
  const double failures_before = metric_sample(before.body, "calendar_auth_failures_total");
  CHECK(failures_before >= 0);
  // Three answers of one route template: two 404s for ids no record has, one 401 for a bad token.
  CHECK(get("/cal/events/v1/events/999999991").status == 404);
  CHECK(get("/cal/events/v1/events/999999992").status == 404);
  CHECK(get("/cal/events/v1/events/999999993", {bearer("wrong-token")}).status == 401);
  const HttpResponse after = send({.url = metrics_url()});
  REQUIRE(after.status == 200);
  CHECK(std::max(0.0, metric_sample(after.body, ok)) == ok_before);
  CHECK(metric_sample(after.body, missing) == missing_before + 3);
  CHECK(metric_sample(after.body, durations) == durations_before + 3);
  CHECK(metric_sample(after.body, "calendar_auth_failures_total") == failures_before + 1);
  // The families the issue lists, each present.
  for (const char* name : {"calendar_request_statements_count",
                           "calendar_database_errors_total",
                           "calendar_database_reconnects_total",
                           "calendar_database_retries_total",
                           "calendar_auth_throttled_total",
                           "calendar_bulkhead_refusals_total",
                           "calendar_bulkhead_slots_in_use",
                           "calendar_workers_busy",
                           "process_start_time_seconds",
                           "process_resident_memory_bytes",
                           "calendar_response_cache_hits_total{cache=\"primary\"}",
                           "calendar_response_cache_misses_total{cache=\"primary\"}",
                           "calendar_response_cache_entries{cache=\"primary\"}",
                           "calendar_response_cache_bytes{cache=\"primary\"}",
                           "calendar_response_cache_evictions_total{cache=\"primary\"}",
                           "calendar_fragment_cache_hits_total{cache=\"primary\"}",
                           "calendar_fragment_cache_misses_total{cache=\"primary\"}",
                           "calendar_fragment_cache_evictions_total{cache=\"primary\"}",
                           "calendar_fragment_cache_invalidations_total{cache=\"primary\"}",
                           "calendar_fragment_cache_entries{cache=\"primary\"}",
                           "calendar_fragment_cache_bytes{cache=\"primary\"}",
                           "calendar_response_cache_version_reads_total{cache=\"primary\"}",
                           "calendar_response_cache_leased_total{cache=\"primary\"}"}) {
    CAPTURE(name);
    CHECK(metric_sample(after.body, name) >= 0);
  }
  CHECK(metric_sample(after.body, "process_resident_memory_bytes") > 1e6);
  CHECK(metric_sample(after.body, "calendar_workers_busy") >= 1);  // this scrape's own worker
  const HttpResponse head_answer = send({.url = metrics_url(), .method = "HEAD"});
  CHECK(head_answer.status == 200);
  CHECK(head_answer.body.empty());
}

TEST_CASE("/metrics counts the venue, organizer and term rows records are rendered from") {
  using namespace events;
  const std::string word = unique("rowmetric");
  const std::string extra = "\"venue\":{\"venue\":\"V " + word + "\"},\"categories\":[\"C " + word +
                            "\"],\"organizer\":[{\"organizer\":\"O " + word + "\"}]";
  const long long a = create_id("A " + word, days_ahead(7, "10:00"), days_ahead(7, "11:00"), extra);
  const long long b = create_id("B " + word, days_ahead(7, "12:00"), days_ahead(7, "13:00"), extra);
  const std::string hits = "calendar_fragment_cache_row_hits_total{cache=\"primary\"}";
  const std::string misses = "calendar_fragment_cache_row_misses_total{cache=\"primary\"}";
  const auto sample = [](const std::string& series) {
    const HttpResponse r = send({.url = metrics_url()});
    REQUIRE(r.status == 200);
    return metric_sample(r.body, series);
  };
  // a's first rendering reads the new venue, organizer and category: three rows missed. b names
  // the same three, kept since: three rows hit. Other tests only add to either counter.
  const double misses_before = sample(misses);
  REQUIRE(misses_before >= 0);
  REQUIRE(get(std::string(kEvents) + "?include=" + std::to_string(a)).status == 200);
  CHECK(sample(misses) >= misses_before + 3);
  const double hits_before = sample(hits);
  REQUIRE(hits_before >= 0);
  REQUIRE(get(std::string(kEvents) + "?include=" + std::to_string(b)).status == 200);
  CHECK(sample(hits) >= hits_before + 3);
}

TEST_CASE("/metrics refuses other addresses (403) and wrong tokens (401) in the JSON error shape") {
  const HttpResponse elsewhere = send({.url = metrics_url(), .source_ip = "127.0.0.77"});
  CHECK(error_mismatch(elsewhere, 403, "rest_forbidden") == "");
  CHECK(elsewhere.body.find("calendar_requests_total") == std::string::npos);
  const HttpResponse wrong =
      send({.url = metrics_url(), .headers = {bearer("not-" + metrics_token())}, .source_ip = "127.0.0.77"});
  CHECK(error_mismatch(wrong, 401, "rest_forbidden") == "");
  // A wrong token is refused even from an allowed address: it says the caller is misconfigured.
  CHECK(error_mismatch(send({.url = metrics_url(), .headers = {bearer("wrong")}}), 401, "rest_forbidden") ==
        "");
  const HttpResponse with_token =
      send({.url = metrics_url(), .headers = {bearer(metrics_token())}, .source_ip = "127.0.0.77"});
  CHECK(with_token.status == 200);
  CHECK(with_token.body.find("# TYPE calendar_requests_total counter") != std::string::npos);
  CHECK(error_mismatch(send({.url = metrics_url(), .method = "POST", .body = "x"}), 405,
                       "rest_method_not_allowed") == "");
}

TEST_CASE("a Prometheus server scrapes /metrics with the configured token") {
  const std::string dir = test_stack_dir() + "/prometheus";
  REQUIRE(run("mkdir -p '" + dir + "'").exit_code == 0);
  std::string port_digits = run("scripts/stack.sh free-port").out;
  while (!port_digits.empty() && port_digits.back() == '\n') port_digits.pop_back();
  REQUIRE(!port_digits.empty());
  const std::string base = base_url();  // http://127.0.0.1:PORT/api
  const std::string host = base.substr(7, base.find('/', 7) - 7);
  const std::string path = base.substr(base.find('/', 7)) + "/metrics";
  std::ofstream(dir + "/prometheus.yml")
      << "global:\n  scrape_interval: 1s\n"
         "scrape_configs:\n  - job_name: calendar\n"
         "    metrics_path: "
      << path << "\n    authorization:\n      credentials: " << metrics_token()
      << "\n    static_configs:\n      - targets: ['" << host << "']\n";
  REQUIRE(run("cd '" + dir +
              "' && (setsid prometheus --config.file=prometheus.yml --storage.tsdb.path=data "
              "--web.listen-address=127.0.0.1:" +
              port_digits + " >prometheus.log 2>&1 & echo $! > prometheus.pid)")
              .exit_code == 0);
  const std::string query = "http://127.0.0.1:" + port_digits +
                            "/api/v1/query?query=calendar_requests_total%7Bjob%3D%22calendar%22%7D";
  bool scraped = false;
  std::string last;
  for (int i = 0; i < 60 && !scraped; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    try {
      const HttpResponse r = send({.url = query, .timeout_ms = 2000});
      last = r.body;
      scraped =
          r.status == 200 && r.body.find("\"route\":\"/cal/events/v1/events/{id}\"") != std::string::npos;
    } catch (const std::exception& e) {
      last = e.what();
    }
  }
  const HttpResponse up =
      send({.url = "http://127.0.0.1:" + port_digits + "/api/v1/query?query=up", .timeout_ms = 2000});
  run("kill $(cat '" + dir + "/prometheus.pid') 2>/dev/null; sleep 0.5");
  CHECK_MESSAGE(scraped, last << "\n" << read_text_file(dir + "/prometheus.log"));
  CHECK_MESSAGE(up.body.find("\"value\":[") != std::string::npos, up.body);
  CHECK_MESSAGE(up.body.find(",\"1\"]") != std::string::npos, up.body);
}

TEST_CASE("as CGI there is no /metrics: one process answers one request, so it answers 404") {
  const Run r =
      run("env -i REQUEST_METHOD=GET SCRIPT_NAME=/api PATH_INFO=/metrics HTTP_HOST=example.org "
          "REMOTE_ADDR=127.0.0.1 " +
          service_command() + " --metrics.enabled=true </dev/null 2>/dev/null");
  CHECK_MESSAGE(r.out.rfind("Status: 404", 0) == 0, r.out);
  CHECK_MESSAGE(r.out.find("rest_no_route") != std::string::npos, r.out);
}

}  // namespace caltest
