// `calendarctl db-account create USER --max-connections N --max-statement-time S [--host H]`
//: creates the service's own database account with server-side limits
// (cal/store/db_accounts.h), as the configured (administrative) user.
#pragma once

#include "cal/core/config.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

struct DbAccountArgs {
  std::optional<std::string> max_connections, max_statement_time, host;  // as given
  bool any() const { return max_connections || max_statement_time || host; }
};

// Takes `--max-connections N`, `--max-statement-time S`, `--host H` (and the `=` forms) out of
// `args`. Returns false when one is given without a value.
bool take_db_account_args(std::vector<const char*>& args, DbAccountArgs& out);

// Runs the command (positional = {"db-account", "create", USER}): prints the [database] lines for
// the service's config on stdout (user and the generated password) and what was created, with the
// limits read back from the server, on stderr. Exit status 2 for a usage error, 1 for a failure
// (e.g. the account exists).
int run_db_account(const Config& config, const std::vector<std::string>& positional,
                   const DbAccountArgs& args);

}  // namespace cal
