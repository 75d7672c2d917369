// The connected account's privileges (see cal/store/db_privileges.h).
#include "cal/store/db_privileges.h"

#include "cal/store/db.h"

namespace cal {
namespace {

// information_schema names the grantee 'user'@'host'; CURRENT_USER() gives user@host. Root may
// read every account's rows, so each query keeps only this account's.
constexpr const char* kGrantee =
    "CONCAT('''', SUBSTRING_INDEX(CURRENT_USER(), '@', 1), '''@''', SUBSTRING_INDEX(CURRENT_USER(), '@', "
    "-1), '''')";

}  // namespace

const std::vector<std::string>& service_privileges() {
  static const std::vector<std::string> kList = {"SELECT", "INSERT", "UPDATE", "DELETE"};
  return kList;
}

const std::vector<std::string>& migrate_privileges() {
  // DROP: CREATE OR REPLACE VIEW drops the old view; ALTER ROUTINE: replacing and dropping a
  // procedure; EXECUTE: CALL of the migration procedures; TRIGGER also lets information_schema
  // show the triggers migrate compares before replacing one.
  static const std::vector<std::string> kList = {"SELECT",        "INSERT",  "UPDATE",  "DELETE",
                                                 "CREATE",        "ALTER",   "DROP",    "CREATE ROUTINE",
                                                 "ALTER ROUTINE", "EXECUTE", "TRIGGER", "CREATE VIEW"};
  return kList;
}

std::string grant_statement(const std::vector<std::string>& privileges, const std::string& database,
                            const std::string& account, const std::string& table) {
  std::string out = "GRANT ";
  for (std::size_t i = 0; i < privileges.size(); ++i) out += (i ? ", " : "") + privileges[i];
  out += " ON `" + database + "`." + (table.empty() ? "*" : "`" + table + "`") + " TO " + account;
  return out;
}

AccountPrivileges read_account_privileges(Db& db) {
  AccountPrivileges out;
  {
    Rows rows = db.query(std::string("SELECT ") + kGrantee + ", DATABASE()");
    if (rows.next()) {
      out.account = rows.text(0);
      out.database = rows.text(1);
    }
  }
  // A database-level grant names a LIKE pattern (`calendar\_%`), matched as the server does.
  Rows wide = db.query(std::string("SELECT PRIVILEGE_TYPE FROM information_schema.USER_PRIVILEGES WHERE "
                                   "GRANTEE = ") +
                       kGrantee +
                       " UNION SELECT PRIVILEGE_TYPE FROM information_schema.SCHEMA_PRIVILEGES WHERE "
                       "GRANTEE = " +
                       kGrantee + " AND DATABASE() LIKE TABLE_SCHEMA");
  while (wide.next()) out.database_wide.insert(wide.text(0));
  Rows tables =
      db.query(std::string("SELECT TABLE_NAME, PRIVILEGE_TYPE FROM information_schema.TABLE_PRIVILEGES "
                           "WHERE GRANTEE = ") +
               kGrantee + " AND TABLE_SCHEMA = DATABASE()");
  while (tables.next()) out.tables[tables.text(0)].insert(tables.text(1));
  Rows roles = db.query(
      "SELECT ROLE_NAME FROM information_schema.ENABLED_ROLES WHERE ROLE_NAME IS NOT NULL ORDER BY "
      "ROLE_NAME");
  while (roles.next()) out.roles.push_back(roles.text(0));
  return out;
}

}  // namespace cal
