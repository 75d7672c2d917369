// The option table of the INI file and the command line (Boost.Program_options). Each
// description is written for docs/configuration.md, which `calendar-fcgi --config-reference`
// prints from this table.
#include "config_options.h"

#include <boost/program_options.hpp>

namespace po = boost::program_options;

namespace cal {

po::options_description config_options(Config& c, std::string& cors_origins, std::string& replicas,
                                       std::string& metrics_allow) {
  po::options_description opts(
      "Configuration (INI sections [database] [site] [server] [limits] [geoloc] [ical] [sync] [search] "
      "[recurrence] [cors] [metrics] [log]; "
      "also accepted on the command line as --section.key=value)");
  auto add = opts.add_options();
  DatabaseConfig& d = c.database;
  add("database.socket", po::value(&d.socket),
      "MariaDB/MySQL unix socket path; when set, host and port are not used");
  add("database.host", po::value(&d.host)->default_value(d.host), "database server host (TCP)");
  add("database.port", po::value(&d.port)->default_value(d.port), "database server port (TCP)");
  add("database.user", po::value(&d.user)->default_value(d.user), "database user");
  add("database.password", po::value(&d.password), "database password (none when unset)");
  add("database.name", po::value(&d.name)->default_value(d.name), "database (schema) name");
  add("database.read_timeout", po::value(&d.read_timeout)->default_value(d.read_timeout),
      "seconds the service waits for a statement's answer before the connection counts as lost "
      "(the request is retried or answers 503); 0: no limit. calendarctl never has one");
  add("database.replicas", po::value(&replicas),
      "read replicas, separated by commas or spaces: unix socket paths (starting with /) or "
      "host:port, reached with this section's user, password and name (docs/scaling-out.md)");
  add("database.max_replica_lag", po::value(&d.max_replica_lag)->default_value(d.max_replica_lag),
      "seconds a replica may lag behind the primary and still serve reads");

  SiteConfig& s = c.site;
  add("site.url", po::value(&s.url),
      "public site URL, the base of the links in answers (unset: scheme, host and prefix of each request)");
  add("site.rest_url", po::value(&s.rest_url), "REST root URL (unset: derived from the request like url)");
  add("site.timezone", po::value(&s.timezone)->default_value(s.timezone),
      "the site's time zone, for local dates in and out: an IANA name (Europe/Paris) or UTC+H[:MM]");
  add("site.locale", po::value(&s.locale)->default_value(s.locale),
      "default language of messages and labels when a request names none (docs/languages.md)");
  add("site.locale_dir", po::value(&s.locale_dir),
      "directory of the compiled language catalogs, LANG/LC_MESSAGES/calendar.mo "
      "(unset: locale/ beside the binary)");
  add("site.per_page", po::value(&s.per_page)->default_value(s.per_page),
      "page size of a list without per_page");
  add("site.per_page_max", po::value(&s.per_page_max)->default_value(s.per_page_max),
      "largest per_page a list accepts");
  add("site.trust_proxy", po::value(&s.trust_proxy)->default_value(s.trust_proxy),
      "honour X-Forwarded-Proto and X-Forwarded-Host (only behind a proxy that sets them)");
  add("site.import_max_events", po::value(&s.import_max_events)->default_value(s.import_max_events),
      "most VEVENTs one text/calendar POST /events may import");

  ServerConfig& v = c.server;
  add("server.threads", po::value(&v.threads),
      "worker threads of the FastCGI server (unset or 0: 2 x cores)");
  add("server.max_body", po::value(&v.max_body)->default_value(v.max_body),
      "largest request body in bytes (larger ones answer 413)");
  add("server.statement_count_header",
      po::value(&v.statement_count_header)->default_value(v.statement_count_header),
      "add X-Cal-Statements (the SQL statements the request ran) to every response, and X-Cal-Wrote: 1 to "
      "those of requests that may have written (they wait out the cache lease), for tests and profiling");
  add("server.response_cache", po::value(&v.response_cache)->default_value(v.response_cache),
      "keep visitors' GET answers in memory while they are provably current (FastCGI only, not CGI)");
  add("server.response_cache_mb", po::value(&v.response_cache_mb)->default_value(v.response_cache_mb),
      "memory budget of the response cache in MiB (shared by the primary's and the replicas' caches)");
  add("server.fragment_cache_mb", po::value(&v.fragment_cache_mb)->default_value(v.fragment_cache_mb),
      "memory budget in MiB of the rendered records (events with their venue, organizers and terms, and "
      "those venues, organizers and terms as read) that lists and single reads reuse while they are "
      "provably current (FastCGI only; with response_cache = "
      "false too, each GET then reads the data version for them); 0: off. Kept compressed: about 1.3 KB a "
      "record (an event's list and single renderings are two), so 32 MiB hold about 24,000. Shared by the "
      "primary's and the replicas' caches");
  add("server.cache_lease_ms", po::value(&v.cache_lease_ms)->default_value(v.cache_lease_ms),
      "0 to 1000: a cached answer may rest on a data version read this many ms ago, and every write "
      "answers no sooner than this after its commit; a write made outside the service (by hand in SQL) "
      "may be missed for that long. The same value on every process of a site (0: every cached answer "
      "reads the version itself)");
  add("server.shutdown_seconds", po::value(&v.shutdown_seconds)->default_value(v.shutdown_seconds),
      "on SIGTERM the service stops accepting and finishes the requests in flight; after this many "
      "seconds it exits even if some are still running");

  add("geoloc.enabled", po::value(&c.geoloc.enabled)->default_value(c.geoloc.enabled),
      "enable the geolocation extension: the events' geoloc, geoloc_lat and geoloc_lng filters and venues' "
      "coordinates");
  add("geoloc.geofence_km", po::value(&c.geoloc.geofence_km)->default_value(c.geoloc.geofence_km),
      "radius in km around geoloc_lat/geoloc_lng within which an event's venue matches");

  add("ical.max_events", po::value(&c.ical.max_events)->default_value(c.ical.max_events),
      "events in an iCalendar feed without page/per_page (X-WP-Total tells how many there are)");
  add("ical.refresh_minutes", po::value(&c.ical.refresh_minutes)->default_value(c.ical.refresh_minutes),
      "how often calendar clients should reload a feed, in minutes (its refresh interval and "
      "X-PUBLISHED-TTL)");
  add("ical.name", po::value(&c.ical.name),
      "the feeds' calendar name, X-WR-CALNAME (unset: the site's host)");

  add("sync.retention_days", po::value(&c.sync.retention_days)->default_value(c.sync.retention_days),
      "days (fractions allowed, at most 36500) the change log of GET /changes is kept; an older sync "
      "token answers 410 rest_sync_token_expired");

  add("limits.expensive_slots", po::value(&c.limits.expensive_slots)->default_value(c.limits.expensive_slots),
      "how many expensive requests (a search the index cannot narrow, an iCalendar feed of more than "
      "100 events, /changes from a sync token over a day old) one process runs at once; others wait "
      "limits.slot_wait_ms, then answer 503 rest_busy (0: a quarter of the worker threads, at least 1)");
  add("limits.slot_wait_ms", po::value(&c.limits.slot_wait_ms)->default_value(c.limits.slot_wait_ms),
      "milliseconds an expensive request waits for a free slot before it answers 503 rest_busy");
  add("limits.statement_seconds",
      po::value(&c.limits.statement_seconds)->default_value(c.limits.statement_seconds),
      "time budget in seconds of each database statement of an expensive request (MariaDB's "
      "max_statement_time); a statement that runs out answers 503 rest_busy (0: no budget)");
  add("limits.retry_after", po::value(&c.limits.retry_after)->default_value(c.limits.retry_after),
      "seconds a 503 rest_busy answer asks the client to wait (Retry-After)");

  add("search.index", po::value(&c.search.index)->default_value(c.search.index),
      "keep the search index of event texts on writes and narrow searches with it (false: every "
      "search reads each event of its window, answers unchanged; run calendarctl search-index "
      "rebuild after turning it back on)");

  add("recurrence.horizon_months",
      po::value(&c.recurrence.horizon_months)->default_value(c.recurrence.horizon_months),
      "months ahead of now to which a recurring event without an end (no COUNT or UNTIL) is "
      "materialised when written");
  add("recurrence.max_instances",
      po::value(&c.recurrence.max_instances)->default_value(c.recurrence.max_instances),
      "the most occurrences one recurring series may have (up to its horizon); a write asking for "
      "more answers 400 rest_invalid_param");
  add("recurrence.max_horizon_years",
      po::value(&c.recurrence.max_horizon_years)->default_value(c.recurrence.max_horizon_years),
      "years ahead of now to which a list or occurrences query may extend recurring events without "
      "an end (materialised to horizon_months when written, then month by month as windows pass "
      "it); a window ending later answers 400 rest_invalid_param");

  add("cors.origins", po::value(&cors_origins),
      "origins whose web pages may call the API, separated by commas or spaces: scheme://host[:port] "
      "(credentialed calls allowed) or * (any other origin, reads without credentials). Unset: no "
      "CORS header is ever sent");

  add("metrics.enabled", po::value(&c.metrics.enabled)->default_value(c.metrics.enabled),
      "serve Prometheus metrics at the REST root's /metrics (FastCGI only: a CGI process counts one "
      "request, docs/operations.md)");
  add("metrics.allow", po::value(&metrics_allow)->default_value("127.0.0.1 ::1"),
      "client addresses that may read the metrics without a token, separated by commas or spaces "
      "(as the web server passes REMOTE_ADDR)");
  add("metrics.token", po::value(&c.metrics.token),
      "a token that reads the metrics from any address as Authorization: Bearer TOKEN (unset: none)");

  LogConfig& l = c.log;
  add("log.access", po::value(&l.access)->default_value(l.access),
      "where the access log goes, one line per request: stderr, off, or a file (appended to, reopened on "
      "SIGHUP)");
  add("log.access_format", po::value(&l.access_format)->default_value(l.access_format),
      "text (METHOD path status microseconds request-id) or json (one JSON object per line: time, request "
      "id, "
      "method, route, status, bytes, duration, statements, cache, caller)");
  add("log.slow", po::value(&l.slow)->default_value(l.slow),
      "where the slow-request log goes: stderr, off, or a file (reopened on SIGHUP)");
  add("log.slow_ms", po::value(&l.slow_ms)->default_value(l.slow_ms),
      "requests taking at least this many milliseconds are written to the slow-request log with their "
      "route, query string and each statement's time (0: none)");
  return opts;
}

po::options_description command_line_options(Config& c, std::string& config_file) {
  po::options_description opts("Options");
  auto add = opts.add_options();
  add("help,h", "show this help");
  add("config-reference", "print every option of the config file as Markdown (docs/configuration.md)");
  add("config,c", po::value(&config_file), "INI config file (default: $CAL_CONFIG)");
  add("socket", po::value(&c.server.socket),
      "listen on unix:PATH or HOST:PORT (default: the socket the web server hands over, or CGI)");
  add("threads", po::value(&c.server.threads), "worker threads, as server.threads");
  return opts;
}

// The intros end without a period (the page adds it), as the descriptions do: po/catalogs.sh takes
// every sentence-like literal of src/core ending with one for a client message to translate.
std::string config_section_about(const std::string& section) {
  static const std::pair<const char*, const char*> kSections[] = {
      {"database",
       "The MariaDB or MySQL database, and its read replicas (docs/mysql.md, docs/scaling-out.md)"},
      {"site", "The site as clients see it: its URLs, time zone, language and page sizes"},
      {"server", "The FastCGI server process: threads, request limits and the response cache"},
      {"geoloc", "The geolocation extension (docs/api.md)"},
      {"ical", "The iCalendar feeds (docs/feeds.md)"},
      {"sync", "Incremental sync with GET /changes (docs/sync.md)"},
      {"search", "The search index of event texts (docs/search.md)"},
      {"recurrence", "Recurring events (docs/recurring-events.md)"},
      {"limits", "Bulkheads: how much expensive work runs at once, and for how long (docs/reliability.md)"},
      {"cors", "Cross-origin access for web pages (docs/cors.md)"},
      {"metrics", "The Prometheus metrics endpoint (docs/operations.md)"},
      {"log", "The access log and the slow-request log (docs/operations.md)"},
  };
  for (const auto& [name, about] : kSections)
    if (section == name) return about;
  return "";
}

}  // namespace cal
