// Threaded FastCGI loop and CGI mode on libfcgi (see cal/http/fcgi_server.h).
#include "cal/http/fcgi_server.h"

#include "cal/core/ops/metrics.h"
#include "cal/core/text/ascii.h"
#include "cal/http/release_queue.h"
#include "cal/http/request_log.h"

#include <fcgiapp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace cal {
namespace {

std::atomic<bool> g_stopping{false};

// Turns "HTTP_ACCEPT_LANGUAGE" into "accept-language".
std::string header_name(std::string_view env_name) {
  std::string out(env_name.substr(5));
  for (char& c : out) c = c == '_' ? '-' : ascii::to_lower(c);
  return out;
}

// Fills a Request from CGI/FastCGI variables (`envp`) and a body reader.
template <typename ReadBody>
Request build_request(char** envp, long max_body, ReadBody read_body) {
  Request r;
  long content_length = -1;  // -1: no CONTENT_LENGTH (or an empty one)
  std::string server_port;
  for (char** e = envp; e && *e; ++e) {
    const std::string_view entry(*e);
    const size_t eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view name = entry.substr(0, eq);
    const std::string_view value = entry.substr(eq + 1);
    if (name == "REQUEST_METHOD")
      r.method = value;
    else if (name == "SCRIPT_NAME")
      r.script_name = value;
    else if (name == "PATH_INFO")
      r.path = value;
    else if (name == "QUERY_STRING")
      r.query_string = value;
    else if (name == "CONTENT_TYPE")
      r.content_type = value;
    else if (name == "CONTENT_LENGTH" && !value.empty())
      content_length = std::atol(std::string(value).c_str());
    else if (name == "HTTPS")
      r.scheme = (value == "on" || value == "1") ? "https" : "http";
    else if (name == "REMOTE_ADDR")
      r.remote_addr = value;
    else if (name == "SERVER_PORT")
      server_port = value;
    else if (name == "REQUEST_SCHEME" && value == "https")
      r.scheme = "https";
    else if (name == "CAL_LOCALE")
      r.site_locale = value;
    else if (name.substr(0, 5) == "HTTP_")
      r.headers[header_name(name)] = value;
  }
  // Some servers pass Authorization only under REDIRECT_HTTP_AUTHORIZATION (Apache rewrite rule).
  if (!r.headers.count("authorization")) {
    for (char** e = envp; e && *e; ++e) {
      if (std::strncmp(*e, "REDIRECT_HTTP_AUTHORIZATION=", 28) == 0) r.headers["authorization"] = *e + 28;
    }
  }
  r.host = r.header("host");
  // nginx's fastcgi_params pass $host, which drops the port: restore it from SERVER_PORT.
  if (!server_port.empty() && r.host.find(':') == std::string::npos && !r.host.empty() &&
      server_port != (r.scheme == "https" ? "443" : "80"))
    r.host += ":" + server_port;
  const bool body_method =
      r.method == "POST" || r.method == "PUT" || r.method == "PATCH" || r.method == "DELETE";
  if (content_length < 0 && !body_method) content_length = 0;
  // CONTENT_LENGTH bytes; without one (a chunked body: mod_proxy_fcgi, mod_cgi), up to the end.
  // Never more than one byte past the limit.
  const long want = content_length < 0 ? max_body + 1 : content_length;
  if (content_length <= max_body && want > 0) {
    r.body.resize(static_cast<size_t>(want));
    long got = 0;
    for (long n; got < want && (n = read_body(r.body.data() + got, want - got)) > 0;) got += n;
    r.body.resize(static_cast<size_t>(got));
  }
  if (content_length > max_body || static_cast<long>(r.body.size()) > max_body) {
    r.body_too_large = true;
    r.body.clear();
    // A refused body is still read to its end: Apache's mod_cgi/mod_cgid write the whole body
    // before reading the answer, and drop the answer of a program that exits before taking it.
    char sink[65536];
    for (long left = content_length < 0 ? LONG_MAX : content_length; left > 0;) {
      const long n = read_body(sink, std::min<long>(left, sizeof sink));
      if (n <= 0) break;
      left -= n;
    }
  }
  return r;
}

// The status line and headers of a CGI/FastCGI response.
std::string response_head(const Response& response) {
  std::string head =
      "Status: " + std::to_string(response.status) + " " + status_reason(response.status) + "\r\n";
  for (const auto& [name, value] : response.headers) head += name + ": " + value + "\r\n";
  if (response.status != 304) head += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
  head += "\r\n";
  return head;
}

Response timed_handle(const Request& request, const RequestHandler& handler) {
  const auto start = std::chrono::steady_clock::now();
  const std::string id = request_id_of(request);
  metrics::worker_busy(1);
  Response response = handler(request, id);
  metrics::worker_busy(-1);
  response.set_header("X-Request-Id", id);
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
  metrics::observe_request(response.route, request.method, response.status, static_cast<double>(micros) / 1e6,
                           response.statements);
  log_request(request, response, static_cast<long>(micros), id);
  return response;
}

// Sends a built answer and ends its request (the connection closes: no fastcgi_keep_conn).
void send_answer(FCGX_Request& fcgi, const Response& response) {
  const std::string head = response_head(response);
  FCGX_PutStr(head.data(), static_cast<int>(head.size()), fcgi.out);
  if (!response.head_only)
    FCGX_PutStr(response.body.data(), static_cast<int>(response.body.size()), fcgi.out);
  FCGX_Finish_r(&fcgi);
}

void worker(int listen_fd, const Config& config, const RequestHandler& handler, ReleaseQueue& held) {
  auto fcgi = std::make_unique<FCGX_Request>();
  FCGX_InitRequest(fcgi.get(), listen_fd, 0);
  while (!g_stopping.load()) {
    if (FCGX_Accept_r(fcgi.get()) < 0) break;
    const Request request = build_request(fcgi->envp, config.server.max_body, [&](char* buf, long n) {
      return static_cast<long>(FCGX_GetStr(buf, static_cast<int>(n), fcgi->in));
    });
    Response response = timed_handle(request, handler);
    if (response.not_before <= std::chrono::steady_clock::now()) {
      send_answer(*fcgi, response);
      continue;
    }
    // A write waiting out the cache lease: the queue sends it, this thread serves on with a new
    // request object (libfcgi's state of one request lives in its FCGX_Request).
    metrics::add(metrics::Counter::kLeaseHeld);
    metrics::answers_held(1);
    const auto when = response.not_before;
    held.hold(when,
              [request = std::shared_ptr<FCGX_Request>(std::move(fcgi)), response = std::move(response)] {
                send_answer(*request, response);
                FCGX_Free(request.get(), 1);
                metrics::answers_held(-1);
              });
    fcgi = std::make_unique<FCGX_Request>();
    FCGX_InitRequest(fcgi.get(), listen_fd, 0);
  }
  FCGX_Free(fcgi.get(), 1);
}

// Opens "unix:PATH" or "HOST:PORT"; the unix socket is made connectable by the web server's user.
int open_listen_socket(const std::string& spec) {
  if (spec.rfind("unix:", 0) == 0) {
    const std::string path = spec.substr(5);
    unlink(path.c_str());
    const int fd = FCGX_OpenSocket(path.c_str(), 256);
    if (fd >= 0) chmod(path.c_str(), 0666);
    return fd;
  }
  return FCGX_OpenSocket(spec.c_str(), 256);
}

}  // namespace

bool started_as_cgi() { return FCGX_IsCGI() != 0; }

int serve_fastcgi(const Config& config, const RequestHandler& handler) {
  if (FCGX_Init() != 0) {
    std::cerr << "calendar-fcgi: FCGX_Init failed\n";
    return 1;
  }
  int listen_fd = 0;  // FCGI_LISTENSOCK_FILENO: the socket the web server handed over
  if (!config.server.socket.empty()) {
    listen_fd = open_listen_socket(config.server.socket);
    if (listen_fd < 0) {
      std::cerr << "calendar-fcgi: cannot listen on " << config.server.socket << "\n";
      return 1;
    }
  }
  // Signals are taken by this thread only (sigwait), never by a worker in the middle of a request.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  int threads = config.server.threads;
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()) * 2);
  // Declared before the workers: it outlives them, so the answers they hold are all sent.
  ReleaseQueue held;
  std::vector<std::thread> workers;
  for (int i = 0; i < threads; ++i)
    workers.emplace_back(worker, listen_fd, std::cref(config), std::cref(handler), std::ref(held));
  std::cerr << "calendar-fcgi: serving FastCGI with " << threads << " threads"
            << (config.server.socket.empty() ? std::string(" on the inherited socket")
                                             : " on " + config.server.socket)
            << "\n";

  // SIGHUP reopens the log files (logrotate); SIGTERM and SIGINT stop.
  int received = 0;
  while (sigwait(&signals, &received) == 0 && received == SIGHUP) {
    reopen_request_logs();
    std::cerr << "calendar-fcgi: SIGHUP, log files reopened\n";
  }
  std::cerr << "calendar-fcgi: signal " << received << ", finishing requests in flight\n";
  g_stopping = true;
  FCGX_ShutdownPending();
  // Wakes the workers blocked in accept(); workers busy with a request finish it first, for at
  // most server.shutdown_seconds: a request stuck on a hung database must not keep the old
  // process (and its socket path) from giving way to the new one.
  shutdown(listen_fd, SHUT_RDWR);
  std::mutex done_mutex;
  std::condition_variable done_cv;
  bool done = false;
  std::thread deadline([&] {
    std::unique_lock<std::mutex> lock(done_mutex);
    if (!done_cv.wait_for(lock, std::chrono::seconds(config.server.shutdown_seconds), [&] { return done; })) {
      std::cerr << "calendar-fcgi: requests still running after " << config.server.shutdown_seconds
                << " s, exiting\n";
      std::_Exit(1);
    }
  });
  for (auto& t : workers) t.join();
  held.stop();
  {
    std::lock_guard<std::mutex> lock(done_mutex);
    done = true;
  }
  done_cv.notify_one();
  deadline.join();
  // The workers' database connections closed as their threads ended (thread_local Db).
  std::cerr << "calendar-fcgi: stopped, every request in flight answered\n";
  if (config.server.socket.rfind("unix:", 0) == 0) unlink(config.server.socket.substr(5).c_str());
  return 0;
}

int serve_cgi(const Config& config, const RequestHandler& handler) {
  const Request request = build_request(environ, config.server.max_body, [](char* buf, long n) {
    return static_cast<long>(std::fread(buf, 1, static_cast<size_t>(n), stdin));
  });
  const Response response = timed_handle(request, handler);
  std::this_thread::sleep_until(response.not_before);
  const std::string head = response_head(response);
  std::fwrite(head.data(), 1, head.size(), stdout);
  if (!response.head_only) std::fwrite(response.body.data(), 1, response.body.size(), stdout);
  std::fflush(stdout);
  return 0;
}

}  // namespace cal
