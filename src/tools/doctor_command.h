// `calendarctl doctor`: checks a deployment the way a support request would, one line per check
// (ok, warning, or failure with the fix), exit status 1 when any check fails (docs/operations.md).
#pragma once

#include "cal/core/config.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

// Runs every check with `config` (which parsed; `unknown_options` are the options of its file
// that no section knows, a failed check) and prints one line per check on standard output; with
// `site_url` (the site's root URL) also checks the web server in front of the service. Returns 0,
// or 1 on any failure.
int run_doctor(const Config& config, const std::vector<std::string>& unknown_options,
               const std::optional<std::string>& site_url);

}  // namespace cal
