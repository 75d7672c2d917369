// What the connected account may do in its database, as the server's information_schema tells the
// account itself, for `calendarctl doctor` (docs/operations.md): privileges granted to the account
// on every database (global), on its database (a grant whose pattern matches it), and on single
// tables. Privileges held through a role are not listed there: `roles` names the enabled ones so
// the caller can say so.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace cal {

class Db;

struct AccountPrivileges {
  std::string account;                                  // 'user'@'host', as GRANT names it
  std::string database;                                 // the connection's database
  std::set<std::string> database_wide;                  // "SELECT", "CREATE ROUTINE", ...
  std::map<std::string, std::set<std::string>> tables;  // table → its own grants
  std::vector<std::string> roles;                       // the enabled roles, if any
};

// The privileges of the connection's account on the connection's database.
AccountPrivileges read_account_privileges(Db& db);

// What the service does on every table of the schema at run time: it reads and writes rows, no
// more (the triggers, and the procedure they call, run with their definer's privileges).
const std::vector<std::string>& service_privileges();

// What `calendarctl migrate` does on the database (schema.sql): creates and alters tables,
// replaces views, triggers and procedures, calls its migration procedure, and moves rows.
const std::vector<std::string>& migrate_privileges();

// The statement that grants `privileges` to `account` on `database` (every table) or, when
// `table` is given, on that table only.
std::string grant_statement(const std::vector<std::string>& privileges, const std::string& database,
                            const std::string& account, const std::string& table = "");

}  // namespace cal
