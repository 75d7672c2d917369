// `calendarctl sql [-e STATEMENT]` (docs/mysql.md): the `mysql` client on the configured database,
// its credentials in a temporary option file (client_defaults_file.h), never on a command line.
#pragma once

#include "cal/core/config.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

struct SqlArgs {
  std::optional<std::string> execute;  // -e / --execute: one statement to run instead of a session
};

// Takes `-e S`, `-eS`, `--execute S`, `--execute=S` out of `args` (the shared config parser knows
// only the common options). Returns false when one is given without a value.
bool take_sql_args(std::vector<const char*>& args, SqlArgs& out);

// Runs the client (positional = {"sql"}) and waits for it: its exit status is the command's
// (1 when it could not be started, 2 for a usage error). The option file is removed when the
// client has exited, also when calendarctl is stopped by SIGTERM or SIGHUP meanwhile.
int run_sql(const Config& config, const std::vector<std::string>& positional, const SqlArgs& args);

}  // namespace cal
