// A dedicated database account for the service (docs/mysql.md): the database-side
// bulkhead that holds in every deployment mode (CGI, many processes, many hosts), where no
// in-process counter exists. MariaDB itself refuses the account's connections beyond
// MAX_USER_CONNECTIONS (error 1226) and stops its statements after MAX_STATEMENT_TIME seconds
// (error 1969, which the service answers as 503 rest_busy).
#pragma once

#include <string>
#include <string_view>

namespace cal {

class Db;

struct ServiceAccount {
  std::string user;                  // letters, digits and _, at most 80
  std::string host;                  // the account's host part: "localhost", "%", or letters, digits . - _ %
  std::string password;              // letters and digits only (made by the caller)
  int max_connections = 0;           // MAX_USER_CONNECTIONS; 0 = no limit
  double max_statement_seconds = 0;  // MAX_STATEMENT_TIME; 0 = no limit
};

// Whether `account` may be written into account statements (names cannot be bound as
// parameters, so only such values are ever put into SQL): "" when it may, else what is wrong.
std::string check_service_account(const ServiceAccount& account);

// Creates the account with its limits and grants it what the service does on `database` (rows of
// every table, the schema's procedures): SELECT, INSERT, UPDATE, DELETE, EXECUTE. Throws
// std::invalid_argument for an account check_service_account refuses, and what Db throws (an
// existing account: MariaDB error 1396, as std::exception).
void create_service_account(Db& db, const ServiceAccount& account, std::string_view database);

// The privileges create_service_account() grants, as SQL names them (for messages).
const char* service_account_privileges();

// The account's limits as the server keeps them (mysql.user), for checks: false when it does not
// exist.
bool read_account_limits(Db& db, const std::string& user, const std::string& host, int& max_connections,
                         double& max_statement_seconds);

}  // namespace cal
