// Entry point of the integration-test binary: checks that a stack to test is named
// (CAL_TEST_BASE, set by scripts/run-tests.sh), initializes libcurl, then runs doctest.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>

#include <curl/curl.h>

int main(int argc, char** argv) {
  const char* base = std::getenv("CAL_TEST_BASE");
  if (base == nullptr || *base == '\0') {
    std::fprintf(stderr,
                 "integration-tests: CAL_TEST_BASE is not set.\n"
                 "Run them with `make test` (scripts/run-tests.sh), or against a running "
                 "stack:\n  CAL_TEST_BASE=http://127.0.0.1:8080/api "
                 "CAL_TEST_TOKEN=\"$(cat var/admin.token)\" \\\n"
                 "  CAL_TEST_CTL=\"$PWD/build/calendarctl --config $PWD/var/calendar.conf\" "
                 "build/integration-tests\n");
    return 2;
  }
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    std::fprintf(stderr, "integration-tests: curl_global_init failed\n");
    return 2;
  }
  // No curl_global_cleanup(): the per-thread curl handles are destroyed after main returns.
  doctest::Context context(argc, argv);
  return context.run();
}
