// Helpers of the reliability tests (see support/reliability.h).
#include "support/reliability.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <mutex>
#include <sstream>
#include <sys/wait.h>
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

int run_command(const std::string& command, std::string* output) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return -1;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
    if (output != nullptr) output->append(buffer, n);
  const int status = pclose(pipe);
  if (status == -1) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace caltest
