// `calendarctl db-account create` (see db_account_command.h).
#include "db_account_command.h"
#include "command_options.h"

#include "cal/core/passwords.h"
#include "cal/core/text/ascii.h"
#include "cal/store/db.h"
#include "cal/store/db_accounts.h"

#include <cstdlib>
#include <iostream>
#include <utility>

namespace cal {
namespace {

int usage(const std::string& message) {
  std::cerr << "calendarctl: " << message << "\n(see calendarctl --help)\n";
  return 2;
}

// The host part that lets the service connect as configured: over the socket or to this machine
// it arrives as localhost; from elsewhere the operator names the host (--host).
std::string default_host(const DatabaseConfig& c) {
  if (!c.socket.empty() || c.host == "localhost" || c.host == "127.0.0.1" || c.host == "::1")
    return "localhost";
  return "%";
}

// 32 letters and digits from the application password generator (it groups them with spaces).
std::string account_password() {
  std::string out;
  while (out.size() < 32)
    for (char c : generate_app_password())
      if (ascii::is_alnum(c) && out.size() < 32) out += c;
  return out;
}

bool parse_number(const std::string& text, double& out) {
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end && *end == '\0';
}

}  // namespace

bool take_db_account_args(std::vector<const char*>& args, DbAccountArgs& out) {
  return take_options(args, {{"--max-connections", &out.max_connections},
                             {"--max-statement-time", &out.max_statement_time},
                             {"--host", &out.host}});
}

int run_db_account(const Config& config, const std::vector<std::string>& positional,
                   const DbAccountArgs& args) {
  if (positional.size() != 3 || positional[1] != "create") return usage("db-account create takes one USER");
  if (!args.max_connections || !args.max_statement_time)
    return usage("db-account create needs --max-connections N and --max-statement-time S");
  double connections = 0;
  ServiceAccount account;
  account.user = positional[2];
  account.host = args.host ? *args.host : default_host(config.database);
  account.password = account_password();
  if (!parse_number(*args.max_connections, connections) || connections != static_cast<int>(connections))
    return usage("--max-connections must be a whole number");
  account.max_connections = static_cast<int>(connections);
  if (!parse_number(*args.max_statement_time, account.max_statement_seconds))
    return usage("--max-statement-time must be a number of seconds");
  if (const std::string problem = check_service_account(account); !problem.empty()) return usage(problem);
  Db db(config.database);
  try {
    create_service_account(db, account, config.database.name);
  } catch (const std::exception& e) {
    std::cerr << "calendarctl: could not create '" << account.user << "'@'" << account.host
              << "': " << e.what() << "\n";
    return 1;
  }
  int max_connections = 0;
  double max_seconds = 0;
  if (!read_account_limits(db, account.user, account.host, max_connections, max_seconds)) {
    std::cerr << "calendarctl: the account '" << account.user << "'@'" << account.host << "' is not there\n";
    return 1;
  }
  std::cerr << "calendarctl: created '" << account.user << "'@'" << account.host
            << "' with MAX_USER_CONNECTIONS " << max_connections << " MAX_STATEMENT_TIME " << max_seconds
            << ", granted " << service_account_privileges() << " on " << config.database.name
            << ".*; put these lines in the service's [database] section:\n";
  std::cout << "user = " << account.user << "\npassword = " << account.password << "\n";
  return 0;
}

}  // namespace cal
