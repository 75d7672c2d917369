// `calendarctl import-wordpress --from mysql://USER@HOST[:PORT]/DB [--prefix P] [--socket PATH]
// [--password-file F] [--site N] [--dry-run] [--report FILE]` (docs/importing-wordpress.md): the
// options, the checks of the source that come before anything is written, the progress line and
// the report.
#pragma once

#include "cal/core/config.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

struct WordPressImportArgs {
  std::optional<std::string> from, prefix, socket, password_file, site, report;
  bool dry_run = false;
  bool any() const { return from || prefix || socket || password_file || site || report || dry_run; }
};

// Takes the command's options out of `args`. Returns false when one is given without a value.
bool take_wordpress_import_args(std::vector<const char*>& args, WordPressImportArgs& out);

// The parts of a --from URL.
struct WordPressUrl {
  std::string user, host, database;
  int port = 3306;
};
// Parses mysql://USER@HOST[:PORT]/DB; nullopt with `error` set when it is none.
std::optional<WordPressUrl> parse_wordpress_url(const std::string& url, std::string& error);

// Runs the command (positional = {"import-wordpress"}). Exit status 0 on success, 2 for a usage
// error, 1 for a source that cannot be imported (nothing written) or a failure.
int run_import_wordpress(const Config& config, const std::vector<std::string>& positional,
                         const WordPressImportArgs& args);

}  // namespace cal
