// The lines `calendarctl doctor` prints: one per check, "ok|warning|failure: CHECK: DETAIL" and,
// unless ok, "; fix: FIX"; failures are counted for the exit status.
#pragma once

#include <iostream>
#include <string>

namespace cal {

enum class Verdict { kOk, kWarning, kFailure };

struct DoctorReport {
  int failures = 0;

  void line(Verdict v, const std::string& check, const std::string& detail, const std::string& fix = "") {
    const char* word = v == Verdict::kOk ? "ok" : v == Verdict::kWarning ? "warning" : "failure";
    std::cout << word << ": " << check << ": " << detail;
    if (v != Verdict::kOk && !fix.empty()) std::cout << "; fix: " << fix;
    std::cout << "\n";
    if (v == Verdict::kFailure) ++failures;
  }
};

}  // namespace cal
