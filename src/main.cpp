// calendar-fcgi: the service binary. FastCGI server (threaded) or, started as plain CGI, the
// answer to the one request in its environment.
#include "cal/api/events/search_indexer.h"
#include "cal/api/ical/ical_library.h"
#include "cal/api/ops/health.h"
#include "cal/api/ops/metrics_endpoint.h"
#include "cal/api/pipeline/cache_watcher.h"
#include "cal/api/pipeline/router.h"
#include "cal/cache/response_cache.h"
#include "cal/core/config.h"
#include "cal/core/i18n/i18n.h"
#include "cal/http/fcgi_server.h"
#include "cal/http/request_log.h"
#include "cal/store/built_in_libraries.h"
#include "cal/store/db.h"
#include "cal/store/replicas.h"

#include <malloc.h>

#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr const char* kHelp =
    "Usage: calendar-fcgi [--config FILE] [--socket unix:PATH|HOST:PORT] [--threads N] [--check]\n"
    "Serves the calendar REST API over FastCGI. Without --socket it serves on the socket the web\n"
    "server handed over, or, started as plain CGI, answers the one request in its environment.\n"
    "CAL_CONFIG names the config file when --config is not given. --check runs the health checks\n"
    "of GET /health instead, prints one line per check and exits 0 when all pass, else 1.";

// Takes --check out of the arguments (the options shared with calendarctl do not know it).
bool take_check_flag(int& argc, char** argv) {
  bool found = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--check")
      found = true;
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  argv[argc] = nullptr;
  return found;
}

// calendar-fcgi --check: the health checks from the command line, for scripts and containers.
int run_checks(const cal::Config& config) {
  cal::DatabaseConfig database = config.database;
  database.read_timeout = 3;  // a hung server fails the check instead of hanging it
  cal::Db db(database);
  std::unique_ptr<cal::ReplicaSet> replicas;
  if (!config.database.replicas.empty()) replicas = std::make_unique<cal::ReplicaSet>(config.database);
  const cal::HealthReport report = cal::check_health(db, replicas.get());
  for (const cal::HealthCheck& c : report.checks)
    std::cout << c.name << ": " << (c.ok ? "ok" : "failing") << ": " << c.detail << "\n";
  // A CGI process reads only the catalog its request needs, so a broken one would show only in
  // answers: the check reads them all. Not a check of GET /health: a server reads them at start
  // and says so in its log, and a language answered in English is no reason to take it out of
  // a load balancer.
  const std::vector<std::string> unreadable = cal::unreadable_catalogs(config.site.locale_dir);
  std::cout << "catalogs: " << (unreadable.empty() ? "ok: every language's catalog reads" : "failing: ");
  for (std::size_t i = 0; i < unreadable.size(); ++i) std::cout << (i ? "; " : "") << unreadable[i];
  std::cout << "\n";
  // A warning, not a failure: the binary answers as well as before, but an update of the
  // system's OpenSSL or Connector/C does not reach the copies linked into it (the Makefile).
  const cal::BuiltInLibraries libraries = cal::check_built_in_libraries();
  std::cout << "libraries: " << (libraries.outdated ? "warning: " : "ok: ") << libraries.detail
            << (libraries.outdated ? "; build calendar-fcgi again to take the system's updates" : "") << "\n";
  return report.ok() && unreadable.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const bool check_only = take_check_flag(argc, argv);
  const cal::ConfigResult loaded = cal::load_config(argc, argv, kHelp, false);
  if (!loaded.config) {
    (loaded.exit_code == 0 ? std::cout : std::cerr) << loaded.message << "\n";
    return loaded.exit_code;
  }
  const cal::Config& config = *loaded.config;
  if (check_only) return run_checks(config);
  if (const std::string error = cal::open_request_logs(config.log); !error.empty()) {
    std::cerr << "calendar-fcgi: " << error << "\n";
    return 1;
  }
  const bool cgi = config.server.socket.empty() && cal::started_as_cgi();
  // Once, before any worker thread translates. A CGI process answers one request: it reads only
  // the catalog of that request's language, if any (docs/performance.md, "CGI").
  cal::load_catalogs(config.site.locale_dir,
                     cgi ? cal::CatalogLoading::kOnUse : cal::CatalogLoading::kAtStart);
  // One malloc arena for the few worker threads instead of glibc's 8 per core: each arena keeps
  // the memory of the largest answers its thread built, RSS for nothing; the threads spend their
  // time waiting on the database, not in malloc.
  mallopt(M_ARENA_MAX, 1);
  // The response cache serves a long-running process only (a CGI process answers once).
  // With replicas, each server's answers have a cache of their own, validated against that
  // server's data version (a replica's is an earlier state of the primary's); they share the budget.
  const std::size_t servers = 1 + config.database.replicas.size();
  const std::size_t cache_bytes = (static_cast<std::size_t>(config.server.response_cache_mb) << 20) / servers;
  std::unique_ptr<cal::ResponseCache> cache;
  std::vector<std::unique_ptr<cal::ResponseCache>> replica_caches;
  // Without the response cache's answers, its version reads still keep the fragments current.
  if (!cgi && (config.server.response_cache || config.server.fragment_cache_mb > 0)) {
    cache = std::make_unique<cal::ResponseCache>(cache_bytes);
    for (std::size_t k = 1; k < servers; ++k)
      replica_caches.push_back(std::make_unique<cal::ResponseCache>(cache_bytes));
    const std::size_t fragment_bytes =
        (static_cast<std::size_t>(config.server.fragment_cache_mb) << 20) / servers;
    cache->fragments().set_max_bytes(fragment_bytes);
    for (const auto& c : replica_caches) c->fragments().set_max_bytes(fragment_bytes);
  }
  std::unique_ptr<cal::CacheWatcher> watcher;
  if (cache && config.server.cache_lease_ms > 0)
    watcher = std::make_unique<cal::CacheWatcher>(*cache, config);
  // One connection per worker thread (and per replica), made on first use and kept for the thread's life.
  std::unique_ptr<cal::ReplicaSet> replica_set;
  if (!config.database.replicas.empty()) replica_set = std::make_unique<cal::ReplicaSet>(config.database);
  cal::set_health_replicas(replica_set.get());
  // The metrics endpoint counts a long-running process's requests; in CGI mode there is none.
  cal::MetricsSources metrics_sources{{}, replica_set.get()};
  if (cache) metrics_sources.caches.push_back(cache.get());
  for (const auto& c : replica_caches) metrics_sources.caches.push_back(c.get());
  const bool serve_metrics = !cgi && config.metrics.enabled;
  const cal::RequestHandler handler = [&config, &cache, &replica_set, &replica_caches, &metrics_sources,
                                       serve_metrics](const cal::Request& request, const std::string& id) {
    if (serve_metrics && cal::is_metrics_request(request))
      return cal::metrics_response(request, config, metrics_sources);
    thread_local cal::Db db(config.database);
    if (!replica_set) return cal::handle_request(request, db, config, id, cache.get());
    thread_local std::vector<std::unique_ptr<cal::Db>> replicas;
    if (replicas.empty())
      for (std::size_t k = 0; k < replica_set->size(); ++k)
        replicas.push_back(std::make_unique<cal::Db>(replica_set->config(k)));
    cal::Backends backends{db, replicas, *replica_set, cache.get(), {}};
    for (std::size_t k = 0; k < replica_set->size(); ++k)
      backends.replica_caches.push_back(k < replica_caches.size() ? replica_caches[k].get() : nullptr);
    return cal::handle_request(request, backends, config, id);
  };
  if (cgi) return cal::serve_cgi(config, handler);
  // A CGI process loads libical only for a feed or an import; a server loads it now, so its first
  // feed waits for nothing and a missing library is told at once (the rest of the API works).
  if (std::string error; !cal::load_ical_library(error))
    std::cerr << "calendar-fcgi: iCalendar feeds and imports unavailable: " << error << "\n";
  // Event writes leave their words to this thread (a CGI process indexes inline).
  std::unique_ptr<cal::SearchIndexer> indexer;
  if (config.search.index) indexer = std::make_unique<cal::SearchIndexer>(config);
  cal::set_search_indexer(indexer.get());
  const int status = cal::serve_fastcgi(config, handler);
  cal::set_search_indexer(nullptr);
  indexer.reset();
  watcher.reset();
  if (cache) {
    const cal::ResponseCache::Stats s = cache->stats();
    std::cerr << "calendar-fcgi: response cache: " << s.hits << " hits, " << s.misses << " misses; "
              << s.entries << " entries (" << s.compressed << " compressed) in " << s.bytes << " bytes\n";
    const cal::FragmentCache::Stats f = cache->fragments().stats();
    std::cerr << "calendar-fcgi: fragment cache: " << f.hits << " hits, " << f.misses << " misses, "
              << f.evictions << " evictions; linked rows " << f.row_hits << " hits, " << f.row_misses
              << " misses; " << f.entries << " records (" << f.compressed << " compressed) in " << f.bytes
              << " bytes\n";
  }
  return status;
}
