// Taking a subcommand's own options out of the command line (command_options.h).
#include "command_options.h"

namespace cal {

bool take_options(std::vector<const char*>& args,
                  const std::vector<std::pair<const char*, std::optional<std::string>*>>& options) {
  std::vector<const char*> rest;
  bool ok = true;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string arg = args[i];
    bool taken = false;
    for (const auto& [name, slot] : options) {
      const std::string flag = name;
      if (arg == flag) {
        if (i + 1 < args.size())
          *slot = args[++i];
        else
          ok = false;
        taken = true;
      } else if (arg.rfind(flag + "=", 0) == 0) {
        *slot = arg.substr(flag.size() + 1);
        taken = true;
      }
    }
    if (!taken) rest.push_back(args[i]);
  }
  args = std::move(rest);
  return ok;
}

}  // namespace cal
