// A temporary MariaDB client option file ("defaults file") with the credentials of a
// [database] config, so that `calendarctl sql` can start the `mysql` client without putting the
// password on a command line, where every user of the machine could read it (ps, /proc).
#pragma once

#include "cal/core/config.h"

#include <string>

namespace cal {

// One option value as the client's option-file reader reads it back unchanged: in double quotes,
// with backslash, double quote and control characters escaped (a '#' inside quotes starts no
// comment).
std::string quote_option_value(const std::string& value);

// The file's text: a [client] group with user, password, socket or host and port, and utf8mb4.
std::string defaults_file_text(const DatabaseConfig& config);

// Creates the file in $TMPDIR (else /tmp) with mode 0600, readable only by this user, and removes
// it when destroyed. Throws std::runtime_error when it cannot be written.
class DefaultsFile {
 public:
  explicit DefaultsFile(const DatabaseConfig& config);
  ~DefaultsFile();
  DefaultsFile(const DefaultsFile&) = delete;
  DefaultsFile& operator=(const DefaultsFile&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace cal
