// The doctor's "privileges" and "migrate privileges" checks (see doctor_checks.h).
#include "doctor_checks.h"

#include "cal/store/db_privileges.h"
#include "cal/store/schema.h"

#include <map>
#include <string>
#include <vector>

namespace cal {

extern const char* const kSchemaSql;  // schema.sql, embedded at build time

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

bool holds(const AccountPrivileges& account, const std::string& privilege, const std::string& table) {
  if (account.database_wide.count(privilege)) return true;
  const auto own = account.tables.find(table);
  return own != account.tables.end() && own->second.count(privilege);
}

// Without roles the information_schema lists everything the account holds; with one, what the
// role grants is not there, so a gap may not be one.
Verdict gap_verdict(const AccountPrivileges& account, Verdict without_roles) {
  return account.roles.empty() ? without_roles : Verdict::kWarning;
}

std::string roles_note(const AccountPrivileges& account) {
  return account.roles.empty() ? ""
                               : " (unless its role " + joined(account.roles) +
                                     " grants them: a role's privileges are not visible to this check)";
}

}  // namespace

void check_privileges(DoctorReport& report, Db& db) {
  const AccountPrivileges account = read_account_privileges(db);
  const std::vector<std::string> tables = schema_tables(kSchemaSql);

  // For each privilege the service needs, the tables it is missing on.
  std::vector<std::string> missing, gaps;
  for (const std::string& privilege : service_privileges()) {
    std::vector<std::string> without;
    for (const std::string& table : tables)
      if (!holds(account, privilege, table)) without.push_back(table);
    if (without.empty()) continue;
    missing.push_back(privilege);
    gaps.push_back(privilege +
                   (without.size() == tables.size() ? " on every table" : " on " + joined(without)));
  }
  if (missing.empty())
    report.line(
        Verdict::kOk, "privileges",
        account.account + " may " + joined(service_privileges()) + " on every table of " + account.database);
  else
    report.line(
        gap_verdict(account, Verdict::kFailure), "privileges",
        account.account + " lacks " + joined(gaps) + roles_note(account) +
            ": the service reads and writes every table",
        "as an administrative account, " + grant_statement(missing, account.database, account.account));

  std::vector<std::string> for_migrate;
  for (const std::string& privilege : migrate_privileges())
    if (!account.database_wide.count(privilege)) for_migrate.push_back(privilege);
  if (for_migrate.empty())
    report.line(Verdict::kOk, "migrate privileges", account.account + " may run calendarctl migrate");
  else
    report.line(Verdict::kWarning, "migrate privileges",
                "calendarctl migrate as " + account.account + " would fail: it lacks " + joined(for_migrate) +
                    " on " + account.database + ".*" + roles_note(account),
                "run calendarctl migrate with an administrative account's [database] user and password "
                "(e.g. on the command line), or " +
                    grant_statement(for_migrate, account.database, account.account));
}

}  // namespace cal
