// calendar-fcgi: the service binary. FastCGI server (threaded) or, started as plain CGI, the
// answer to the one request in its environment.
#include "cal/api/pipeline/cache_watcher.h"
#include "cal/api/pipeline/router.h"
#include "cal/cache/response_cache.h"
#include "cal/core/config.h"
#include "cal/core/i18n/i18n.h"
#include "cal/http/fcgi_server.h"
#include "cal/store/db.h"

#include <malloc.h>

#include <iostream>
#include <memory>

namespace {

constexpr const char* kHelp =
    "Usage: calendar-fcgi [--config FILE] [--socket unix:PATH|HOST:PORT] [--threads N]\n"
    "Serves the calendar REST API over FastCGI. Without --socket it serves on the socket the web\n"
    "server handed over, or, started as plain CGI, answers the one request in its environment.\n"
    "CAL_CONFIG names the config file when --config is not given.";

}  // namespace

int main(int argc, char** argv) {
  const cal::ConfigResult loaded = cal::load_config(argc, argv, kHelp, false);
  if (!loaded.config) {
    (loaded.exit_code == 0 ? std::cout : std::cerr) << loaded.message << "\n";
    return loaded.exit_code;
  }
  const cal::Config& config = *loaded.config;
  cal::load_catalogs(config.site.locale_dir);  // once, before any worker thread translates
  const bool cgi = config.server.socket.empty() && cal::started_as_cgi();
  // One malloc arena for the few worker threads instead of glibc's 8 per core: each arena keeps
  // the memory of the largest answers its thread built, which cost 3 MB of RSS for nothing
  // (make bench, issue 8); the threads spend their time waiting on the database, not in malloc.
  mallopt(M_ARENA_MAX, 1);
  // The response cache serves a long-running process only (a CGI process answers once).
  std::unique_ptr<cal::ResponseCache> cache;
  if (!cgi && config.server.response_cache)
    cache =
        std::make_unique<cal::ResponseCache>(static_cast<std::size_t>(config.server.response_cache_mb) << 20);
  std::unique_ptr<cal::CacheWatcher> watcher;
  if (cache && config.server.cache_lease_ms > 0)
    watcher = std::make_unique<cal::CacheWatcher>(*cache, config);
  // One connection per worker thread, made on first use and kept for the thread's life.
  const cal::RequestHandler handler = [&config, &cache](const cal::Request& request, const std::string& id) {
    thread_local cal::Db db(config.database);
    return cal::handle_request(request, db, config, id, cache.get());
  };
  if (cgi) return cal::serve_cgi(config, handler);
  const int status = cal::serve_fastcgi(config, handler);
  watcher.reset();
  if (cache) {
    const cal::ResponseCache::Stats s = cache->stats();
    std::cerr << "calendar-fcgi: response cache: " << s.hits << " hits, " << s.misses << " misses; "
              << s.entries << " entries (" << s.compressed << " compressed) in " << s.bytes << " bytes\n";
  }
  return status;
}
