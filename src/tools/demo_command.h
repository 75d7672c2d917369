// `calendarctl demo --events N [--seed S] [--series-share P]` (docs/calendarctl.md): argument handling and
// the summary line; the data itself is made by cal/store/demo_data.h and demo_series.h.
#pragma once

#include "cal/core/config.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

struct DemoArgs {
  std::optional<std::string> events, seed, series_share;  // as given, checked by run_demo
};

// Takes `--events N`, `--seed S`, `--series-share P` (or `--name=value`) out of `args` (the shared config
// parser knows only the common options). Returns false when one is given without a value.
bool take_demo_args(std::vector<const char*>& args, DemoArgs& out);

// Runs the command (positional = {"demo"}): prints one summary line on stdout. Exit status 2
// for a usage error (missing or malformed --events / --seed / --series-share), 1 for a failure.
int run_demo(const Config& config, const std::vector<std::string>& positional, const DemoArgs& args);

}  // namespace cal
