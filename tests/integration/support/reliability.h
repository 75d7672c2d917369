// Helpers of the reliability tests (docs/reliability.md: hostile input, concurrency, throttling, database
// death): requests on a connection of their own with the time they took (support/client.h's send()),
// running tasks on threads, and reading files.
#pragma once

#include "support/client.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace caltest {

// One request sent by raw_request(): support/client.h's Request (url, method, body, headers, source_ip,
// timeout_ms, ...), on a fresh connection unless .keep_alive says otherwise.
using RawRequest = Request;

// The response plus the wall-clock time it took.
struct TimedResponse {
  HttpResponse response;
  std::chrono::milliseconds elapsed{0};
};

// Sends `r` with send(). Throws std::runtime_error when no HTTP response arrives (connection
// refused, timeout), naming the URL and curl's error.
TimedResponse raw_request(const RawRequest& r);

// Runs `task(i)` for i in [0, n) on n threads at once and waits for all; an exception escaping a
// task is rethrown here (the first one) after every thread ended.
void run_parallel(int n, const std::function<void(int)>& task);

// Runs `step` again and again on a thread of its own until destroyed (then waits for the step
// under way); an exception a step throws is swallowed: such load only keeps the service busy
// while the test's own thread checks.
class BackgroundLoad {
 public:
  explicit BackgroundLoad(std::function<void()> step);
  ~BackgroundLoad();
  BackgroundLoad(const BackgroundLoad&) = delete;
  BackgroundLoad& operator=(const BackgroundLoad&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// The whole file, or "" when it cannot be read.
std::string read_text_file(const std::string& path);

// CAL_TEST_DIR (the stack directory of this run), or "" when unset.
std::string test_stack_dir();

}  // namespace caltest
