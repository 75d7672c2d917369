// Reads the INI config file and command line into cal::Config with Boost.Program_options.
#include "cal/core/config.h"

#include "config_options.h"

#include "cal/core/text/ascii.h"

#include <boost/program_options.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace po = boost::program_options;

namespace cal {
namespace {

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

// The [cors] origins list: its words in lower case (browsers send the scheme and host so).
std::vector<std::string> split_origins(const std::string& text) {
  std::vector<std::string> out = split_list(text);
  for (std::string& origin : out) origin = ascii::lower(origin);
  return out;
}

}  // namespace

ConfigResult load_config(int argc, const char* const* argv, const std::string& program_help,
                         bool allow_positional, bool keep_unknown) {
  Config config;
  std::string config_file;
  po::options_description generic = command_line_options(config, config_file);
  std::string cors_origins;
  std::string replicas;
  std::string metrics_allow;
  po::options_description file_opts = config_options(config, cors_origins, replicas, metrics_allow);
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
    if (vm.count("config-reference")) {
      result.message = config_reference_markdown();
      return result;
    }
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
      const po::parsed_options from_file = po::parse_config_file(in, file_opts, keep_unknown);
      for (const po::option& o : from_file.options)
        if (o.unregistered) result.unknown_options.push_back(o.string_key);
      po::store(from_file, vm);
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
  if (config.server.fragment_cache_mb < 0)
    return fail("configuration error: server.fragment_cache_mb must not be negative");
  if (config.database.read_timeout < 0)
    return fail("configuration error: database.read_timeout must be 0 or more");
  if (config.server.shutdown_seconds < 1)
    return fail("configuration error: server.shutdown_seconds must be positive");
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
  if (config.log.access_format != "text" && config.log.access_format != "json")
    return fail("configuration error: log.access_format must be text or json");
  if (config.log.slow_ms < 0) return fail("configuration error: log.slow_ms must be 0 or more");
  config.metrics.allow = split_list(metrics_allow);
  config.cors.origins = split_origins(cors_origins);
  for (const std::string& origin : config.cors.origins)
    if (!valid_origin(origin))
      return fail("configuration error: cors.origins: not an origin (scheme://host[:port] or *): " + origin);
  result.config = std::move(config);
  return result;
}

}  // namespace cal
