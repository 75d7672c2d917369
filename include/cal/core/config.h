// Service configuration: one struct filled from an INI file and the command line
// (Boost.Program_options), shared by calendar-fcgi and calendarctl.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cal {

struct DatabaseConfig {
  std::string socket;  // unix socket path; when set, host/port are not used
  std::string host = "127.0.0.1";
  int port = 3306;
  std::string user = "root";
  std::string password;
  std::string name = "calendar";
  // Seconds the service waits for an answer before the connection counts as lost (a request
  // then fails over to a retry or a 503); 0 = no limit, which calendarctl always uses: a
  // migration or a bulk load of a million events has statements that run for minutes.
  int read_timeout = 30;
  // Read replicas (docs/scaling-out.md): each a unix socket path (starting with '/')
  // or host:port, with this section's user, password and name. Reads that may be served from a
  // replica go to one whose lag is at most max_replica_lag seconds; everything else to the above.
  std::vector<std::string> replicas;
  int max_replica_lag = 2;
  // Set by the service on its replica connections: every transaction is READ ONLY, so nothing can
  // write to a replica even as a user whom the replica's read_only does not stop.
  bool read_only_session = false;
};

struct SiteConfig {
  std::string url;               // public site URL; empty = scheme/host/prefix of the request
  std::string rest_url;          // REST root URL; empty = derived like url
  std::string timezone = "UTC";  // IANA id or UTC±H[:MM]
  std::string locale = "en_US";
  std::string locale_dir;  // compiled catalogs (<lang>/LC_MESSAGES/calendar.mo); empty = <binary dir>/locale
  int per_page = 10;
  int per_page_max = 50;
  bool trust_proxy = false;     // honour X-Forwarded-Proto/-Host
  int import_max_events = 500;  // VEVENTs one text/calendar POST /events may import
};

struct ServerConfig {
  std::string socket;                   // "unix:PATH" or "HOST:PORT"; empty = socket handed over / CGI
  int threads = 0;                      // 0 = 2 x cores
  long max_body = 1024 * 1024;          // bytes
  bool statement_count_header = false;  // X-Cal-Statements on every response (tests, profiling)
  bool response_cache = true;           // FastCGI: keep GET answers in memory (cal/cache/response_cache.h)
  int response_cache_mb = 12;           // its budget in MiB
  int fragment_cache_mb = 32;  // rendered records' budget in MiB (cal/cache/fragment_cache.h); 0: off
  // 0: every cached answer waits for a version read that started after the request arrived.
  // N > 0: a cached answer may rest on a read that started up to N ms before (kept fresh by a
  // watcher thread), and every request that wrote answers no sooner than N ms after its commit,
  // so that no acknowledged write through the service is missed; a write made outside it (a
  // `mariadb` session) may be missed for up to N ms. The same value on every process of a site.
  // 10 by default: the watcher's reads (every 2.5 ms while requests come) cost the database far
  // less than one read per cached answer, and a writer's 10 ms are within a loaded POST's own time.
  int cache_lease_ms = 10;
  // SIGTERM: how long requests in flight may take to finish before the process exits anyway.
  int shutdown_seconds = 10;
};

// Bulkheads for expensive requests (docs/reliability.md): work whose plan grows with the
// data (a search that tests every event of the window, a long iCalendar feed, /changes from an
// old token) runs in a few slots, so it can never occupy every worker thread.
struct LimitsConfig {
  // Concurrent expensive requests per process; 0 = max(1, worker threads / 4).
  int expensive_slots = 0;
  // How long an expensive request waits for a free slot before it answers 503 rest_busy.
  int slot_wait_ms = 50;
  // Time budget of each SQL statement of an expensive request, in seconds (MariaDB
  // max_statement_time); running out answers 503 rest_busy. 0 = no budget.
  double statement_seconds = 2.0;
  // The Retry-After of a 503 rest_busy, in seconds.
  int retry_after = 2;
};

struct GeolocConfig {
  bool enabled = false;
  double geofence_km = 40;
};

// Incremental sync (GET /changes, docs/sync.md).
struct SyncConfig {
  // How long the change log is kept, in days (fractions allowed): a sync token older than this
  // answers 410 rest_sync_token_expired, and the log's older rows are deleted.
  double retention_days = 30;
};

// Cross-origin access for web pages (CORS): the origins whose pages may call the API.
struct CorsConfig {
  // "scheme://host[:port]" entries (credentialed calls allowed), or "*" (any other origin, for
  // reads without credentials). Empty: no CORS header is ever sent.
  std::vector<std::string> origins;
};

// The iCalendar feeds (docs/feeds.md).
struct IcalConfig {
  int max_events = 1000;     // events in a feed without page/per_page (X-WP-Total tells all)
  int refresh_minutes = 60;  // REFRESH-INTERVAL and X-PUBLISHED-TTL: how often clients reload
  std::string name;          // calendar name (X-WR-CALNAME); empty = the site's host
};

// The search index of event texts (docs/search.md).
struct SearchConfig {
  // false: writes leave events pending instead of indexing them, and every search tests each
  // event of its window with LIKE (answers stay the same; for measuring what the index costs).
  bool index = true;
};

// Recurring events (docs/recurring-events.md): how far ahead a rule without an end is
// materialised, and how many occurrences one series may have.
struct RecurrenceConfig {
  int horizon_months = 60;
  int max_instances = 3650;
  int max_horizon_years = 10;  // how far ahead of now a query may have infinite series extended
};

// The Prometheus metrics endpoint (docs/operations.md), at the REST root's /metrics.
struct MetricsConfig {
  bool enabled = false;
  // Client addresses (as the web server passes REMOTE_ADDR) that may read it without a token.
  std::vector<std::string> allow = {"127.0.0.1", "::1"};
  // When set, "Authorization: Bearer TOKEN" reads it from any address.
  std::string token;
};

// The service's logs (docs/operations.md). A destination is "stderr", "off", or a file path
// (appended to, reopened on SIGHUP).
struct LogConfig {
  std::string access = "stderr";       // one line per request
  std::string access_format = "text";  // "text": METHOD path status µs id; "json": JSON lines
  std::string slow = "stderr";         // the slow-request log
  int slow_ms = 0;                     // requests that take at least this long are logged there; 0: none
};

struct Config {
  DatabaseConfig database;
  SiteConfig site;
  ServerConfig server;
  LimitsConfig limits;
  GeolocConfig geoloc;
  CorsConfig cors;
  IcalConfig ical;
  SyncConfig sync;
  SearchConfig search;
  RecurrenceConfig recurrence;
  MetricsConfig metrics;
  LogConfig log;
};

// The outcome of reading options: either a config, or a message to print and an exit code
// (help text with 0, a usage error with 2).
struct ConfigResult {
  std::optional<Config> config;
  std::string message;
  int exit_code = 0;
  std::vector<std::string> positional;  // words left after the options (calendarctl's command)
  // Options of the config file that no section knows ("server.threadz"), when load_config was
  // asked to keep them rather than refuse the file; the config holds every other option.
  std::vector<std::string> unknown_options;
};

// Reads `--config FILE` (or $CAL_CONFIG when no --config is given) and every option also given on
// the command line, which wins over the file. `allow_positional` lets calendarctl take commands.
// `keep_unknown` lists unknown options of the file in `unknown_options` instead of refusing it
// (`calendarctl doctor` reports them as a failed check and still runs the others).
ConfigResult load_config(int argc, const char* const* argv, const std::string& program_help,
                         bool allow_positional, bool keep_unknown = false);

// Every option of the config file, grouped by section, with its type, default and meaning, as the
// Markdown page docs/configuration.md (`--config-reference`; `make docs` writes the page).
std::string config_reference_markdown();

}  // namespace cal
