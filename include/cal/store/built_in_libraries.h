// Whether the C libraries linked into this binary (OpenSSL, MariaDB Connector/C: the Makefile
// links them statically for CGI's start-up) are as new as the system's shared copies, which
// the distribution's security updates replace. calendar-fcgi --check says so; a binary built
// before an update must be built again to take its fixes (docs/deploying.md).
#pragma once

#include <string>

namespace cal {

struct BuiltInLibraries {
  bool outdated = false;  // some system copy is newer than the one built in
  std::string detail;     // one line: each library, built in against the system's
};

// Reads the system's versions by loading libcrypto.so.3 and libmariadb.so.3 by name (a library
// not installed counts as no newer one).
BuiltInLibraries check_built_in_libraries();

// -1, 0 or 1 as the dotted version `a` is older than, equal to or newer than `b`, comparing the
// leading numbers of each dot-separated part ("3.0.17" > "3.0.9"; "3.3.14-MariaDB" as 3.3.14).
int compare_versions(const std::string& a, const std::string& b);

}  // namespace cal
