// `calendarctl doctor`: checks a deployment the way a support request would, one line per check
// (ok, warning, or failure with the fix), exit status 1 when any check fails (docs/operations.md).
#pragma once

#include "cal/core/config.h"

namespace cal {

// Runs every check with `config` (which already parsed, every option known: load_config refuses
// others) and prints one line per check on standard output. Returns 0, or 1 on any failure.
int run_doctor(const Config& config);

}  // namespace cal
