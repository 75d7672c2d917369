// Options of one calendarctl subcommand taken out of the command line before the shared config
// parser sees it (which knows only the common options).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cal {

// Takes `--name VALUE` and `--name=VALUE` for each (name, slot) out of `args`, storing the value
// in its slot. Returns false when a name is given last without a value.
bool take_options(std::vector<const char*>& args,
                  const std::vector<std::pair<const char*, std::optional<std::string>*>>& options);

}  // namespace cal
