// Reads the INI config file and command line into cal::Config with Boost.Program_options.
#include "cal/core/config.h"

#include "cal/core/text/ascii.h"

#include <boost/program_options.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace po = boost::program_options;

namespace cal {
namespace {

po::options_description config_options(Config& c, std::string& cors_origins, std::string& replicas) {
  po::options_description opts(
      "Configuration (INI sections [database] [site] [server] [limits] [geoloc] [cors] [ical] [sync]; "
      "also accepted on the command line)");
  opts.add_options()("database.socket", po::value(&c.database.socket), "MariaDB/MySQL unix socket path")(
      "database.host", po::value(&c.database.host)->default_value(c.database.host), "database host")(
      "database.port", po::value(&c.database.port)->default_value(c.database.port), "database port")(
      "database.user", po::value(&c.database.user)->default_value(c.database.user), "database user")(
      "database.password", po::value(&c.database.password), "database password")(
      "database.name", po::value(&c.database.name)->default_value(c.database.name), "database name")(
      "database.read_timeout", po::value(&c.database.read_timeout)->default_value(c.database.read_timeout),
      "seconds to wait for a statement's answer (0: no limit; calendarctl never has one)")(
      "database.replicas", po::value(&replicas),
      "read replicas: unix socket paths or host:port, separated by commas or spaces")(
      "database.max_replica_lag",
      po::value(&c.database.max_replica_lag)->default_value(c.database.max_replica_lag),
      "seconds a replica may lag behind the primary and still serve reads")(
      "site.url", po::value(&c.site.url), "public site URL (default: from the request)")(
      "site.rest_url", po::value(&c.site.rest_url), "REST root URL (default: from the request)")(
      "site.timezone", po::value(&c.site.timezone)->default_value(c.site.timezone), "site time zone")(
      "site.locale", po::value(&c.site.locale)->default_value(c.site.locale), "default language")(
      "site.locale_dir", po::value(&c.site.locale_dir),
      "directory of the compiled language catalogs (default: <binary dir>/locale)")(
      "site.per_page", po::value(&c.site.per_page)->default_value(c.site.per_page), "default page size")(
      "site.per_page_max", po::value(&c.site.per_page_max)->default_value(c.site.per_page_max),
      "largest page size")("site.trust_proxy",
                           po::value(&c.site.trust_proxy)->default_value(c.site.trust_proxy),
                           "honour X-Forwarded-Proto/-Host")(
      "site.import_max_events", po::value(&c.site.import_max_events)->default_value(c.site.import_max_events),
      "most VEVENTs one text/calendar import may hold")("server.threads", po::value(&c.server.threads),
                                                        "worker threads (0 = 2 x cores)")(
      "server.max_body", po::value(&c.server.max_body)->default_value(c.server.max_body),
      "largest request body in bytes")("server.statement_count_header",
                                       po::value(&c.server.statement_count_header)->default_value(false),
                                       "add X-Cal-Statements (SQL statements run) to responses")(
      "server.response_cache", po::value(&c.server.response_cache)->default_value(c.server.response_cache),
      "keep visitors' GET answers in memory while provably current (FastCGI only)")(
      "server.response_cache_mb",
      po::value(&c.server.response_cache_mb)->default_value(c.server.response_cache_mb),
      "memory budget of the response cache in MiB")(
      "server.cache_lease_ms", po::value(&c.server.cache_lease_ms)->default_value(c.server.cache_lease_ms),
      "cached answers may rest on a data version read this many ms ago; writers wait as long (0: off)")(
      "limits.expensive_slots", po::value(&c.limits.expensive_slots)->default_value(c.limits.expensive_slots),
      "how many expensive requests (a search that tests every event of the window, an iCalendar "
      "feed of more than 100 events, /changes from a sync token over a day old) one process runs at "
      "once; others wait limits.slot_wait_ms, then answer 503 rest_busy (0 = a quarter of the worker "
      "threads, at least 1)")(
      "limits.slot_wait_ms", po::value(&c.limits.slot_wait_ms)->default_value(c.limits.slot_wait_ms),
      "milliseconds an expensive request waits for a free slot before it answers 503 rest_busy")(
      "limits.statement_seconds",
      po::value(&c.limits.statement_seconds)->default_value(c.limits.statement_seconds),
      "time budget in seconds of each SQL statement of an expensive request (MariaDB "
      "max_statement_time); a statement that runs out answers 503 rest_busy (0: no budget)")(
      "limits.retry_after", po::value(&c.limits.retry_after)->default_value(c.limits.retry_after),
      "seconds a 503 rest_busy answer asks the client to wait (Retry-After)")(
      "geoloc.enabled", po::value(&c.geoloc.enabled)->default_value(c.geoloc.enabled),
      "enable the geolocation extension")(
      "geoloc.geofence_km", po::value(&c.geoloc.geofence_km)->default_value(c.geoloc.geofence_km),
      "geofence radius in km")("ical.max_events",
                               po::value(&c.ical.max_events)->default_value(c.ical.max_events),
                               "events in an iCalendar feed without page/per_page")(
      "ical.refresh_minutes", po::value(&c.ical.refresh_minutes)->default_value(c.ical.refresh_minutes),
      "how often calendar clients should reload a feed, in minutes")(
      "ical.name", po::value(&c.ical.name), "the feeds' calendar name (default: the site's host)")(
      "sync.retention_days", po::value(&c.sync.retention_days)->default_value(c.sync.retention_days),
      "days the change log of GET /changes is kept (older sync tokens answer 410)")(
      "cors.origins", po::value(&cors_origins),
      "origins whose web pages may call the API (scheme://host[:port], space- or comma-separated; "
      "* = any origin, reads without credentials)");
  return opts;
}

ConfigResult fail(std::string message) {
  ConfigResult r;
  r.message = std::move(message);
  r.exit_code = 2;
  return r;
}

// Whether `origin` is "*" or an origin as browsers send it: "http(s)://host[:port]", no path,
// no trailing slash, no user info.
bool valid_origin(const std::string& origin) {
  if (origin == "*") return true;
  std::string rest;
  if (origin.rfind("http://", 0) == 0)
    rest = origin.substr(7);
  else if (origin.rfind("https://", 0) == 0)
    rest = origin.substr(8);
  else
    return false;
  return !rest.empty() && rest.find_first_of("/?#@ \t*,") == std::string::npos;
}

// The [cors] origins list: words separated by white space or commas.
// The words of a list separated by commas, spaces or tabs, as written.
std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  for (char ch : text + " ") {
    if (ch == ' ' || ch == ',' || ch == '\t') {
      if (!word.empty()) out.push_back(word);
      word.clear();
    } else {
      word += ch;
    }
  }
  return out;
}

std::vector<std::string> split_origins(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  for (char ch : text + " ") {
    if (ch == ' ' || ch == ',' || ch == '\t') {
      if (!word.empty()) out.push_back(ascii::lower(word));
      word.clear();
    } else {
      word += ch;
    }
  }
  return out;
}

}  // namespace

ConfigResult load_config(int argc, const char* const* argv, const std::string& program_help,
                         bool allow_positional) {
  Config config;
  std::string config_file;
  po::options_description generic("Options");
  generic.add_options()("help,h", "show this help")("config,c", po::value(&config_file),
                                                    "INI config file (default: $CAL_CONFIG)")(
      "socket", po::value(&config.server.socket), "listen on unix:PATH or HOST:PORT")(
      "threads", po::value(&config.server.threads), "worker threads");
  std::string cors_origins;
  std::string replicas;
  po::options_description file_opts = config_options(config, cors_origins, replicas);
  po::options_description all;
  all.add(generic).add(file_opts);

  po::variables_map vm;
  ConfigResult result;
  try {
    // The parser keeps references to these descriptions: they must outlive parser.run().
    po::options_description hidden;
    hidden.add_options()("command", po::value<std::vector<std::string>>());
    po::options_description with_hidden;
    with_hidden.add(all).add(hidden);
    po::positional_options_description pos;
    pos.add("command", -1);
    auto parser = po::command_line_parser(argc, argv).options(all);
    if (allow_positional) parser = po::command_line_parser(argc, argv).options(with_hidden).positional(pos);
    po::parsed_options parsed = parser.run();
    po::store(parsed, vm);
    if (vm.count("command")) result.positional = vm["command"].as<std::vector<std::string>>();
    if (vm.count("help")) {
      std::ostringstream out;
      out << program_help << "\n" << all;
      result.message = out.str();
      return result;
    }
    if (!vm.count("config")) {
      if (const char* env = std::getenv("CAL_CONFIG"); env && *env) config_file = env;
    } else {
      config_file = vm["config"].as<std::string>();
    }
    if (!config_file.empty()) {
      std::ifstream in(config_file);
      if (!in) return fail("cannot read config file " + config_file);
      po::store(po::parse_config_file(in, file_opts, /*allow_unregistered=*/false), vm);
    }
    po::notify(vm);
  } catch (const po::error& e) {
    return fail(std::string("configuration error: ") + e.what());
  }
  if (config.ical.max_events < 1 || config.ical.refresh_minutes < 1)
    return fail("configuration error: ical.max_events and ical.refresh_minutes must be positive");
  if (config.site.per_page < 1 || config.site.per_page_max < 1)
    return fail("configuration error: site.per_page and site.per_page_max must be positive");
  if (config.site.import_max_events < 1)
    return fail("configuration error: site.import_max_events must be positive");
  if (config.server.max_body < 1) return fail("configuration error: server.max_body must be positive");
  if (!(config.sync.retention_days > 0 && config.sync.retention_days <= 36500))
    return fail("configuration error: sync.retention_days must be more than 0 and at most 36500");
  if (config.server.response_cache_mb < 1)
    return fail("configuration error: server.response_cache_mb must be positive");
  if (config.database.read_timeout < 0)
    return fail("configuration error: database.read_timeout must be 0 or more");
  if (config.server.cache_lease_ms < 0 || config.server.cache_lease_ms > 1000)
    return fail("configuration error: server.cache_lease_ms must be 0 to 1000");
  if (config.limits.expensive_slots < 0 || config.limits.slot_wait_ms < 0 ||
      !(config.limits.statement_seconds >= 0) || config.limits.retry_after < 1)
    return fail(
        "configuration error: limits.expensive_slots, limits.slot_wait_ms and limits.statement_seconds "
        "must be 0 or more, limits.retry_after positive");
  if (config.database.max_replica_lag < 0)
    return fail("configuration error: database.max_replica_lag must be 0 or more");
  config.database.replicas = split_list(replicas);
  for (const std::string& r : config.database.replicas)
    if (r.front() != '/' && r.find(':') == std::string::npos)
      return fail("configuration error: database.replicas: not a socket path or host:port: " + r);
  config.cors.origins = split_origins(cors_origins);
  for (const std::string& origin : config.cors.origins)
    if (!valid_origin(origin))
      return fail("configuration error: cors.origins: not an origin (scheme://host[:port] or *): " + origin);
  result.config = std::move(config);
  return result;
}

}  // namespace cal
