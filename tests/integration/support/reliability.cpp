// Helpers of the reliability tests (see support/reliability.h).
#include "support/reliability.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

namespace caltest {

TimedResponse raw_request(const RawRequest& r) {
  TimedResponse out;
  out.response = send(r, &out.elapsed);
  return out;
}

void run_parallel(int n, const std::function<void(int)>& task) {
  std::vector<std::thread> threads;
  std::mutex mutex;
  std::exception_ptr first;
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      try {
        task(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!first) first = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  if (first) std::rethrow_exception(first);
}

BackgroundLoad::BackgroundLoad(std::function<void()> step)
    : thread_([this, step = std::move(step)] {
        while (!stop_) {
          try {
            step();
          } catch (const std::exception&) {
          }
        }
      }) {}

BackgroundLoad::~BackgroundLoad() {
  stop_ = true;
  thread_.join();
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string test_stack_dir() {
  const char* d = std::getenv("CAL_TEST_DIR");
  return d != nullptr ? std::string(d) : std::string();
}

}  // namespace caltest
