// calendarctl: the admin tool (docs/architecture.md, "Service contract"): schema migration, users and
// application passwords.
#include "command_options.h"
#include "db_account_command.h"
#include "demo_command.h"
#include "doctor_command.h"
#include "search_index_command.h"
#include "sql_command.h"
#include "wordpress_import_command.h"
#include "cal/core/config.h"
#include "cal/core/passwords.h"
#include "cal/core/text/ascii.h"
#include "cal/store/db.h"
#include "cal/store/schema.h"
#include "cal/store/users.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace cal {
extern const char* const kSchemaSql;  // schema.sql, embedded at build time
}

namespace {

constexpr const char* kHelp =
    "Usage: calendarctl [--config FILE] COMMAND\n"
    "Commands:\n"
    "  migrate                          create the database if needed and apply schema.sql\n"
    "  user add LOGIN --role ROLE       create a user; prints its application password\n"
    "                                   (ROLE: administrator, editor, author, contributor, subscriber)\n"
    "  user list                        list users as: id login role\n"
    "  password add LOGIN               add an application password; prints it\n"
    "  password revoke LOGIN            delete every application password of the user\n"
    "  demo --events N [--seed S] [--series-share P]\n"
    "                                   add N (1..10000000) realistic demo events with venues, organizers,\n"
    "                                   categories and tags; the same N and S give the same data (S: default "
    "1);\n"
    "                                   P% (0..50, default 5) of them occurrences of recurring series\n"
    "  db-account create USER --max-connections N --max-statement-time S [--host H]\n"
    "                                   create the service's own database account with server-side\n"
    "                                   limits (MAX_USER_CONNECTIONS, MAX_STATEMENT_TIME) for CGI and\n"
    "                                   multi-host setups; prints its [database] user and password\n"
    "  sql [-e STATEMENT]               the mysql client on the configured database (credentials in a\n"
    "                                   temporary option file, never on its command line); -e runs one\n"
    "                                   statement; exit status: the client's. Views: calendar_events,\n"
    "                                   calendar_upcoming, calendar_venues, calendar_organizers, "
    "calendar_terms\n"
    "  search-index check               whether the server's collation splits search words where the\n"
    "                                   service does (exit status 1 when not)\n"
    "  search-index rebuild             index every event's words again (progress on standard error)\n"
    "  doctor [--url SITE]              check the deployment: config, database, schema, clocks,\n"
    "                                   privileges, time zones, log files, socket and, given the site's\n"
    "                                   root URL, its web server; one line per check; exit status 1 on a\n"
    "                                   failure\n"
    "  import-wordpress --from mysql://USER@HOST[:PORT]/DB [--prefix P] [--socket PATH]\n"
    "                   [--password-file F] [--site N] [--dry-run] [--report FILE]\n"
    "                                   copy a WordPress + The Events Calendar site: events, venues,\n"
    "                                   organizers, categories, tags, images, authors, ids kept where\n"
    "                                   free; a second run updates (docs/importing-wordpress.md)";

int usage_error(const std::string& message) {
  std::cerr << "calendarctl: " << message << "\n(see calendarctl --help)\n";
  return 2;
}

bool valid_login(const std::string& login) {
  if (login.empty() || login.size() > 60) return false;
  for (char c : login)
    if (!cal::ascii::is_alnum(c) && c != '_' && c != '-' && c != '.' && c != '@') return false;
  return true;
}

int migrate(const cal::Config& config) {
  if (!cal::valid_database_name(config.database.name))
    return usage_error("database.name must be letters, digits and _");
  cal::migrate_database(config.database, cal::kSchemaSql);
  std::cerr << "calendarctl: schema applied to " << config.database.name << "\n";
  // Events from before the search index, or written by hand since: indexed now.
  if (const long long n = cal::index_all_pending(config); n > 0)
    std::cerr << "calendarctl: " << n << " events added to the search index\n";
  return 0;
}

int add_password_for(cal::Db& db, long long user_id) {
  const std::string password = cal::generate_app_password();
  cal::add_password(db, user_id, cal::hash_app_password(password));
  std::cout << password << "\n";
  return 0;
}

int user_add(cal::Db& db, const std::vector<std::string>& args, const std::string& role_name) {
  if (args.size() != 3) return usage_error("user add takes one LOGIN");
  const std::string& login = args[2];
  if (!valid_login(login))
    return usage_error("invalid login '" + login + "' (letters, digits, _ - . @; at most 60)");
  const auto role = cal::role_from_name(role_name);
  if (!role) return usage_error("unknown role '" + role_name + "'");
  cal::Transaction tx(db);
  long long id = 0;
  try {
    id = cal::add_user(db, login, *role);
  } catch (const cal::DuplicateKey&) {
    std::cerr << "calendarctl: user '" << login << "' already exists\n";
    return 1;
  }
  const int rc = add_password_for(db, id);
  tx.commit();
  return rc;
}

// What only `doctor` takes: its --url and the config file's unknown options.
struct DoctorArgs {
  std::optional<std::string> url;
  std::vector<std::string> unknown_options;
};

int run(const cal::Config& config, const std::vector<std::string>& args, const std::string& role,
        const cal::DemoArgs& demo, const cal::SqlArgs& sql, const cal::DbAccountArgs& account,
        const cal::WordPressImportArgs& wordpress, const DoctorArgs& doctor) {
  if (args.empty()) return usage_error("missing command");
  if (args[0] == "doctor" && args.size() == 1)
    return cal::run_doctor(config, doctor.unknown_options, doctor.url);
  if (doctor.url) return usage_error("--url is an option of doctor only");
  // Every other command refuses a config it does not fully understand, as calendar-fcgi does.
  if (!doctor.unknown_options.empty())
    return usage_error("configuration error: unknown option " + doctor.unknown_options.front());
  if (args[0] == "import-wordpress") return cal::run_import_wordpress(config, args, wordpress);
  if (wordpress.any())
    return usage_error(
        "--from, --prefix, --password-file, --site, --dry-run and --report are options of "
        "import-wordpress only");
  if (args[0] == "db-account") return cal::run_db_account(config, args, account);
  if (account.any())
    return usage_error("--max-connections, --max-statement-time and --host are options of db-account only");
  if (args[0] == "sql") return cal::run_sql(config, args, sql);
  if (sql.execute) return usage_error("-e is an option of sql only");
  if (args[0] == "migrate" && args.size() == 1) return migrate(config);
  if (args[0] == "demo") return cal::run_demo(config, args, demo);
  if (args[0] == "search-index") return cal::run_search_index(config, args);
  if (demo.events || demo.seed || demo.series_share)
    return usage_error("--events, --seed and --series-share are options of demo only");
  cal::Db db(config.database);
  if (args[0] == "user" && args.size() >= 2 && args[1] == "add") return user_add(db, args, role);
  if (args[0] == "user" && args.size() == 2 && args[1] == "list") {
    for (const auto& u : cal::list_users(db))
      std::cout << u.id << " " << u.login << " " << cal::role_name(u.role) << "\n";
    return 0;
  }
  if (args[0] == "password" && args.size() == 3 && (args[1] == "add" || args[1] == "revoke")) {
    const auto user = cal::find_user_by_login(db, args[2]);
    if (!user) {
      std::cerr << "calendarctl: no user '" << args[2] << "'\n";
      return 1;
    }
    if (args[1] == "add") return add_password_for(db, user->id);
    std::cerr << "calendarctl: revoked " << cal::revoke_passwords(db, user->id) << " password(s)\n";
    return 0;
  }
  return usage_error("unknown command");
}

}  // namespace

int main(int argc, char** argv) {
  // --role is calendarctl's own option: take it out before the shared config parser runs.
  std::vector<const char*> rest;
  std::string role;
  bool role_given = false;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--role" && i + 1 < argc) {
      role = argv[++i];
      role_given = true;
    } else if (arg.rfind("--role=", 0) == 0) {
      role = arg.substr(7);
      role_given = true;
    } else {
      rest.push_back(argv[i]);
    }
  }
  cal::DemoArgs demo;
  if (!cal::take_demo_args(rest, demo))
    return usage_error("--events, --seed and --series-share need a value");
  cal::SqlArgs sql;
  if (!cal::take_sql_args(rest, sql)) return usage_error("-e needs a statement");
  cal::DbAccountArgs account;
  if (!cal::take_db_account_args(rest, account))
    return usage_error("--max-connections, --max-statement-time and --host need a value");
  // Only for import-wordpress: there --socket is the WordPress database's; elsewhere it stays the
  // shared option (the service's FastCGI socket, which `doctor` checks).
  cal::WordPressImportArgs wordpress;
  const bool importing = std::any_of(
      rest.begin(), rest.end(), [](const char* arg) { return std::string_view(arg) == "import-wordpress"; });
  if (importing && !cal::take_wordpress_import_args(rest, wordpress))
    return usage_error("--from, --prefix, --socket, --password-file, --site and --report need a value");
  DoctorArgs doctor;
  if (!cal::take_options(rest, {{"--url", &doctor.url}})) return usage_error("--url needs the site's URL");
  // Unknown options of the file are kept for doctor to report (run() refuses them otherwise).
  const cal::ConfigResult loaded =
      cal::load_config(static_cast<int>(rest.size()), rest.data(), kHelp, true, /*keep_unknown=*/true);
  if (!loaded.config) {
    (loaded.exit_code == 0 ? std::cout : std::cerr) << loaded.message << "\n";
    return loaded.exit_code;
  }
  const auto& args = loaded.positional;
  doctor.unknown_options = loaded.unknown_options;
  if (args.size() >= 2 && args[0] == "user" && args[1] == "add" && !role_given)
    return usage_error("user add needs --role ROLE");
  // Migrations and bulk loads run statements for minutes at a million events: no client-side
  // limit on how long one may take (the service's [database] read_timeout is for requests).
  cal::Config config = *loaded.config;
  config.database.read_timeout = 0;
  try {
    const int status = run(config, args, role, demo, sql, account, wordpress, doctor);
    // Like the service's writers (`[server] cache_lease_ms`): what this command wrote is in every
    // cached answer by the time it exits.
    if (const int lease = config.server.cache_lease_ms; lease > 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(lease));
    return status;
  } catch (const cal::DatabaseUnavailable& e) {
    std::cerr << "calendarctl: database unavailable: " << e.detail << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "calendarctl: " << e.what() << "\n";
    return 1;
  }
}
