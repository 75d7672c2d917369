// Helpers of the reliability tests (issue 9: hostile input, concurrency, throttling, database
// death): raw HTTP requests with options the shared client does not offer (another base URL, a
// source address, a short timeout, the time taken), running tasks on threads, and reading files.
#pragma once

#include "client.h"

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace caltest {

// One request sent by raw_request().
struct RawRequest {
    std::string url = {};              // absolute, e.g. base_url() + "/cal/events/v1/events"
    std::string method = "GET";
    std::string body = {};             // sent when non-empty or for POST/PUT/PATCH
    std::vector<std::string> headers = {};  // "Name: value"; nothing else is added
    std::string source_ip = {};        // bind the client socket to this local address ("" = any)
    long timeout_ms = 60000;           // the whole request
};

// The response plus the wall-clock time it took.
struct TimedResponse {
    HttpResponse response;
    std::chrono::milliseconds elapsed{0};
};

// Sends `r` on a fresh connection. Throws std::runtime_error when no HTTP response arrives
// (connection refused, timeout), naming the URL and curl's error.
TimedResponse raw_request(const RawRequest& r);

// Runs `task(i)` for i in [0, n) on n threads at once and waits for all; an exception escaping a
// task is rethrown here (the first one) after every thread ended.
void run_parallel(int n, const std::function<void(int)>& task);

// The whole file, or "" when it cannot be read.
std::string read_text_file(const std::string& path);

// CAL_TEST_DIR (the stack directory of this run), or "" when unset.
std::string test_stack_dir();

// Runs a shell command; returns its exit status (-1 when it could not run) and, when `output`
// is given, its standard output.
int run_command(const std::string& command, std::string* output = nullptr);

}  // namespace caltest
