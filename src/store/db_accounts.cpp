// The service's dedicated database account (see cal/store/db_accounts.h). Account statements take
// no placeholders for names, so the values are checked to a small alphabet first and written in
// quotes; numbers are formatted here.
#include "cal/store/db_accounts.h"

#include "cal/store/db.h"
#include "cal/store/schema.h"

#include <cstdio>
#include <stdexcept>

namespace cal {
namespace {

bool only(std::string_view text, std::string_view extra) {
  for (char c : text) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && extra.find(c) == std::string_view::npos) return false;
  }
  return true;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

}  // namespace

const char* service_account_privileges() { return "SELECT, INSERT, UPDATE, DELETE, EXECUTE"; }

std::string check_service_account(const ServiceAccount& a) {
  if (a.user.empty() || a.user.size() > 80 || !only(a.user, "_"))
    return "the user must be letters, digits and _";
  if (a.host.empty() || a.host.size() > 255 || !only(a.host, ".-_%"))
    return "the host must be localhost, % or a host name";
  if (a.password.size() < 16 || !only(a.password, "")) return "the password must be 16 letters or digits";
  if (a.max_connections < 0) return "--max-connections must be 0 or more";
  if (!(a.max_statement_seconds >= 0) || a.max_statement_seconds > 31536000)
    return "--max-statement-time must be 0 or more seconds";
  return {};
}

void create_service_account(Db& db, const ServiceAccount& a, std::string_view database) {
  if (const std::string problem = check_service_account(a); !problem.empty())
    throw std::invalid_argument(problem);
  if (!valid_database_name(database)) throw std::invalid_argument("the database name is not valid");
  const std::string who = "'" + a.user + "'@'" + a.host + "'";
  db.execute_unprepared("CREATE USER " + who + " IDENTIFIED BY '" + a.password +
                        "' WITH MAX_USER_CONNECTIONS " + std::to_string(a.max_connections) +
                        " MAX_STATEMENT_TIME " + number(a.max_statement_seconds));
  db.execute_unprepared("GRANT " + std::string(service_account_privileges()) + " ON `" +
                        std::string(database) + "`.* TO " + who);
}

bool read_account_limits(Db& db, const std::string& user, const std::string& host, int& max_connections,
                         double& max_statement_seconds) {
  Rows rows =
      db.query("SELECT max_user_connections, max_statement_time FROM mysql.user WHERE User = ? AND Host = ?",
               {user, host});
  if (!rows.next()) return false;
  max_connections = static_cast<int>(rows.integer(0));
  max_statement_seconds = rows.number(1);
  return true;
}

}  // namespace cal
