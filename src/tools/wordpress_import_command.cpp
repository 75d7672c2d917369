// `calendarctl import-wordpress` (see wordpress_import_command.h).
#include "wordpress_import_command.h"

#include "command_options.h"
#include "search_index_command.h"
#include "wordpress_import.h"
#include "wordpress_report.h"

#include "cal/core/text/ascii.h"
#include "cal/core/text/numbers.h"
#include "cal/store/db.h"
#include "cal/store/wordpress_source.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace cal {
namespace {

int usage(const std::string& message) {
  std::cerr << "calendarctl: " << message << "\n(see calendarctl --help)\n";
  return 2;
}

// A source that cannot be imported: said, nothing written.
int refuse(const std::string& message) {
  std::cerr << "calendarctl: import-wordpress: " << message << "\n";
  return 1;
}

std::string listed(const std::vector<WordPressInstall>& installs) {
  if (installs.empty()) return "none";
  std::string out;
  for (const auto& i : installs) {
    if (!out.empty()) out += ", ";
    out += i.prefix;
    if (i.has_tec) out += " (The Events Calendar)";
    if (i.sites > 1) out += " (multisite, " + std::to_string(i.sites) + " sites)";
  }
  return out;
}

// Whether `prefix` is a sub-site's prefix ("wp_2_") of a multisite install among `installs`.
bool sub_site_prefix(const std::string& prefix, const std::vector<WordPressInstall>& installs) {
  for (const auto& base : installs) {
    if (base.sites <= 1 || prefix.size() <= base.prefix.size() + 1 || prefix.rfind(base.prefix, 0) != 0)
      continue;
    const std::string rest = prefix.substr(base.prefix.size(), prefix.size() - base.prefix.size() - 1);
    if (prefix.back() == '_' && parse_id(rest)) return true;
  }
  return false;
}

// The progress line on standard error, at most once a second: events done, their rate, and the
// time left, estimated from the share of the source's events read so far.
class Progress {
 public:
  void operator()(long long done, double share) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::seconds(1) && share < 1) return;
    last_ = now;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
    const double left = share > 0 ? seconds * (1 - share) / share : 0;
    char line[160];
    std::snprintf(line, sizeof line, "import-wordpress: %lld events, %.0f/s, about %.0f s left\n", done, rate,
                  left);
    std::cerr << line;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

}  // namespace

bool take_wordpress_import_args(std::vector<const char*>& args, WordPressImportArgs& out) {
  std::vector<const char*> rest;
  for (const char* arg : args) {
    if (std::string(arg) == "--dry-run")
      out.dry_run = true;
    else
      rest.push_back(arg);
  }
  args = std::move(rest);
  return take_options(args, {{"--from", &out.from},
                             {"--prefix", &out.prefix},
                             {"--socket", &out.socket},
                             {"--password-file", &out.password_file},
                             {"--site", &out.site},
                             {"--report", &out.report}});
}

std::optional<WordPressUrl> parse_wordpress_url(const std::string& url, std::string& error) {
  static const std::string kScheme = "mysql://";
  if (url.rfind(kScheme, 0) != 0) {
    error = "--from must be mysql://USER@HOST[:PORT]/DB";
    return std::nullopt;
  }
  const std::string rest = url.substr(kScheme.size());
  const auto at = rest.find('@');
  const auto slash = rest.find('/', at == std::string::npos ? 0 : at);
  if (at == std::string::npos || slash == std::string::npos || at == 0) {
    error = "--from must be mysql://USER@HOST[:PORT]/DB";
    return std::nullopt;
  }
  WordPressUrl out;
  out.user = rest.substr(0, at);
  if (out.user.find(':') != std::string::npos) {
    error = "--from must not hold a password: give it in --password-file";
    return std::nullopt;
  }
  std::string host = rest.substr(at + 1, slash - at - 1);
  if (const auto colon = host.rfind(':'); colon != std::string::npos) {
    const auto port = parse_id(host.substr(colon + 1));
    if (!port || *port < 1 || *port > 65535) {
      error = "--from: the port must be a number from 1 to 65535";
      return std::nullopt;
    }
    out.port = static_cast<int>(*port);
    host = host.substr(0, colon);
  }
  out.host = host;
  out.database = rest.substr(slash + 1);
  bool plain = !out.host.empty() && !out.database.empty() && out.database.size() <= 64;
  for (char c : out.database) plain = plain && (ascii::is_alnum(c) || c == '_' || c == '-' || c == '$');
  if (!plain) {
    error = "--from needs a host and a database name (letters, digits, _ - $)";
    return std::nullopt;
  }
  return out;
}

int run_import_wordpress(const Config& config, const std::vector<std::string>& positional,
                         const WordPressImportArgs& args) {
  if (positional.size() != 1) return usage("import-wordpress takes no arguments besides its options");
  if (!args.from) return usage("import-wordpress needs --from mysql://USER@HOST[:PORT]/DB");
  std::string error;
  const auto url = parse_wordpress_url(*args.from, error);
  if (!url) return usage(error);
  long long site = 0;
  if (args.site) {
    const auto n = parse_id(*args.site);
    if (!n || *n < 1) return usage("--site must be a site number (1, 2, ...)");
    site = *n;
  }
  DatabaseConfig source_config;
  source_config.user = url->user;
  source_config.host = url->host;
  source_config.port = url->port;
  source_config.name = url->database;
  source_config.socket = args.socket.value_or("");
  source_config.read_timeout = 0;
  source_config.read_only_session = true;  // every transaction READ ONLY: the source is never written
  if (args.password_file) {
    std::ifstream in(*args.password_file);
    if (!in) return refuse("cannot read --password-file " + *args.password_file);
    std::getline(in, source_config.password);
    while (!source_config.password.empty() && (source_config.password.back() == '\r'))
      source_config.password.pop_back();
  }

  const auto start = std::chrono::steady_clock::now();
  Db source_db(source_config);
  try {
    source_db.connect();
  } catch (const DatabaseUnavailable& e) {
    return refuse("cannot reach the WordPress database " + url->database + ": " + e.detail);
  }
  const auto installs = find_wordpress_installs(source_db);
  const WordPressInstall* chosen = nullptr;
  if (args.prefix) {
    for (const auto& i : installs)
      if (i.prefix == *args.prefix) chosen = &i;
    if (!chosen)
      return refuse("no WordPress tables with prefix " + *args.prefix + " in " + url->database +
                    "; prefixes found: " + listed(installs));
  } else {
    std::vector<const WordPressInstall*> with_tec;
    for (const auto& i : installs)
      if (i.has_tec && !sub_site_prefix(i.prefix, installs)) with_tec.push_back(&i);
    if (installs.empty()) return refuse("no WordPress tables in " + url->database);
    if (with_tec.empty())
      return refuse("no The Events Calendar data in " + url->database +
                    "; prefixes found: " + listed(installs));
    if (with_tec.size() > 1)
      return refuse("several WordPress sites in " + url->database + ": " + listed(installs) +
                    "; choose one with --prefix");
    chosen = with_tec.front();
  }
  if (chosen->sites > 1 && site == 0)
    return refuse("a multisite database with " + std::to_string(chosen->sites) +
                  " sites: choose one with --site N (1 is the main site)");
  if (site == 0) site = 1;
  if (site > 1 && chosen->sites <= 1)
    return refuse("--site " + std::to_string(site) + ": " + chosen->prefix + " is no multisite install");
  const std::string site_prefix = site > 1 ? chosen->prefix + std::to_string(site) + "_" : chosen->prefix;
  const WordPressInstall* site_install = nullptr;
  for (const auto& i : installs)
    if (i.prefix == site_prefix) site_install = &i;
  if (!site_install)
    return refuse("no tables of site " + std::to_string(site) + " (" + site_prefix + "posts)");
  if (!site_install->has_tec)
    return refuse(site_prefix +
                  " holds WordPress but no The Events Calendar data (no TEC options, events or tables)");

  WordPressSource source(source_db, chosen->prefix, site);
  // Latin1 columns holding UTF-8 (double-encoded): read as the UTF-8 they are, reported.
  std::vector<std::string> repaired;
  for (const auto& [table, column] : source.latin1_text_columns()) {
    if (const long long n = source.double_encoded_values(table, column); n > 0) {
      source.repair_double_encoding(table, column);
      repaired.push_back(table + "." + column + " is latin1 but holds UTF-8 text in " + std::to_string(n) +
                         " rows: read as UTF-8");
    }
  }

  ImportReport report;
  report.prefix = chosen->prefix;
  for (const auto& reason : repaired) report.change("site", 0, 0, "charset", reason);
  WordPressImportSettings settings;
  settings.fallback_source = url->database + "/" + site_prefix;
  settings.site_prefix = site_prefix;
  settings.site = site;
  settings.dry_run = args.dry_run;
  Progress progress;
  settings.progress = std::ref(progress);
  Db target(config.database);
  source.open_snapshot();
  try {
    import_wordpress(source, target, settings, report);
  } catch (const DuplicateKey& e) {
    return refuse("nothing imported: a record collides with one here (" + e.detail + ")");
  } catch (const DatabaseConflict& e) {
    return refuse("nothing imported: another writer held rows the import needed (" + e.detail +
                  "); run it again");
  }
  source.close_snapshot();
  if (report.site_timezone != config.site.timezone)
    report.change("site", 0, 0, "timezone",
                  "WordPress shows times in " + report.site_timezone + ", this service in " +
                      config.site.timezone + ": set [site] timezone = " + report.site_timezone +
                      " in the config to match");
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!args.dry_run && report.counts["event"].imported + report.counts["event"].updated > 0) {
    // The search index learns the new events' words now, as after `migrate`.
    index_all_pending(config);
  }
  write_text_report(std::cout, report);
  if (args.report) {
    std::ofstream out(*args.report);
    out << json_report(report) << "\n";
    if (!out) return refuse("cannot write --report " + *args.report);
  }
  return 0;
}

}  // namespace cal
