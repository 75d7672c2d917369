// What every fuzz target shares: the check that turns a broken invariant into a crash, which
// libFuzzer records together with the input that caused it.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace caltest_fuzz {

// Prints `what` and aborts when `ok` is false.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::printf("fuzz invariant violated: %s\n", what);
    std::fflush(stdout);  // abort() does not flush, and run.sh reads the message from the log
    std::abort();
  }
}

}  // namespace caltest_fuzz
