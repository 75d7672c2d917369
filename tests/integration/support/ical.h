// The test tools of the iCalendar feeds (tests/ical: ical.js, installed by
// scripts/install-npm-tools.sh): where they are.
#pragma once

#include <filesystem>

namespace caltest {

// tests/ical beside the build directory holding this binary, else below the working directory.
inline std::filesystem::path ical_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path beside = exe.parent_path().parent_path() / "tests" / "ical";
  if (!ec && fs::exists(beside / "parse.mjs")) return beside;
  return fs::current_path() / "tests" / "ical";
}

}  // namespace caltest
