// Helpers of the reliability tests (see reliability_support.h).
#include "reliability_support.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>

#include <curl/curl.h>
#include <strings.h>

namespace caltest {
TimedResponse raw_request(const RawRequest& r) {
    std::unique_ptr<CURL, void (*)(CURL*)> h(curl_easy_init(), curl_easy_cleanup);
    if (!h) throw std::runtime_error("curl_easy_init failed");
    TimedResponse out;
    char error[CURL_ERROR_SIZE] = "";
    CURL* c = h.get();
    curl_easy_setopt(c, CURLOPT_URL, r.url.c_str());
    curl_easy_setopt(c, CURLOPT_PROXY, "");
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_FORBID_REUSE, 1L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, r.timeout_ms);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, std::min(r.timeout_ms, 10000L));
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, curl_body_callback);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &out.response);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, curl_header_callback);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &out.response);
    if (!r.source_ip.empty()) curl_easy_setopt(c, CURLOPT_INTERFACE, ("host!" + r.source_ip).c_str());
    const bool sends_body = !r.body.empty() || r.method == "POST" || r.method == "PUT" || r.method == "PATCH";
    if (r.method == "HEAD") {
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    } else if (sends_body) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, r.body.data());
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
        if (r.method != "POST") curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, r.method.c_str());
    } else if (r.method != "GET") {
        curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, r.method.c_str());
    }
    bool has_type = false;
    for (const std::string& line : r.headers)
        has_type = has_type || (line.size() >= 13 && strncasecmp(line.c_str(), "content-type:", 13) == 0);
    std::vector<std::string> headers = r.headers;
    if (sends_body && !has_type) headers.emplace_back("Content-Type:");  // no curl default type
    headers.emplace_back("Expect:");
    curl_slist* list = nullptr;
    for (const std::string& line : headers) {
        curl_slist* next = curl_slist_append(list, line.c_str());
        if (next == nullptr) {
            curl_slist_free_all(list);
            throw std::runtime_error("curl_slist_append failed");
        }
        list = next;
    }
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, list);
    const auto start = std::chrono::steady_clock::now();
    const CURLcode rc = curl_easy_perform(c);
    out.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    curl_slist_free_all(list);
    if (rc != CURLE_OK)
        throw std::runtime_error(r.method + " " + r.url + ": " + curl_easy_strerror(rc) + " " + error);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out.response.status);
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
