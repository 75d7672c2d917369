// The access and slow-request logs (see cal/http/request_log.h).
#include "cal/http/request_log.h"

#include "cal/core/text/ascii.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

namespace cal {
namespace {

// One destination: standard error, nothing, or a file opened for appending. A line is one write()
// with O_APPEND, so lines of concurrent workers never interleave; the descriptor is swapped under
// a lock on reopen.
class LogSink {
 public:
  std::string open(const std::string& where) {
    std::lock_guard<std::mutex> lock(mutex_);
    path_.clear();
    close_locked();
    if (where == "off") {
      fd_ = -1;
      return "";
    }
    if (where.empty() || where == "stderr") {
      fd_ = STDERR_FILENO;
      return "";
    }
    path_ = where;
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
    return fd_ < 0 ? "cannot open log file " + path_ : "";
  }
  void reopen() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (path_.empty()) return;
    const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
    if (fd < 0) return;  // keep writing to the old file rather than nowhere
    close_locked();
    fd_ = fd;
  }
  bool on() const { return fd_ >= 0; }
  void write(const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (fd_ >= 0) (void)!::write(fd_, line.data(), line.size());
  }

 private:
  void close_locked() {
    if (fd_ > STDERR_FILENO) ::close(fd_);
    fd_ = STDERR_FILENO;
  }
  std::mutex mutex_;
  std::string path_;
  int fd_ = STDERR_FILENO;
};

LogSink g_access;
LogSink g_slow;
bool g_json = false;
int g_slow_ms = 0;

void json_string(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", c);
      out += esc;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

std::string utc_now() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const long millis = static_cast<long>(
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[96];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
  return text;
}

bool secret_parameter(std::string_view name) {
  const std::string n = ascii::lower(name);
  return n == "password" || n == "token" || n == "access_token" || n == "_wpnonce" || n == "key";
}

}  // namespace

std::string open_request_logs(const LogConfig& config) {
  g_json = config.access_format == "json";
  g_slow_ms = config.slow_ms;
  std::string error = g_access.open(config.access);
  if (std::string slow = g_slow.open(config.slow); error.empty()) error = slow;
  return error;
}

void reopen_request_logs() {
  g_access.reopen();
  g_slow.reopen();
}

std::string request_id_of(const Request& request) {
  const std::string& given = request.header("x-request-id");
  bool usable = !given.empty() && given.size() <= 64;
  for (char c : given)
    if (!(ascii::is_alnum(c) || c == '-' || c == '_' || c == '.' || c == ':')) usable = false;
  if (usable) return given;
  static std::atomic<unsigned long> counter{0};
  // Read once: getpid() is a system call on every request otherwise, and the process never forks
  // once it serves.
  static const unsigned pid = static_cast<unsigned>(getpid());
  char id[32];
  std::snprintf(id, sizeof id, "%x-%lx", pid, ++counter);
  return id;
}

std::string redacted_query(const std::string& query) {
  std::string out;
  std::size_t start = 0;
  while (start <= query.size()) {
    std::size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string_view part(query.data() + start, end - start);
    const std::size_t eq = part.find('=');
    if (!out.empty() || start > 0) out += '&';
    if (eq != std::string_view::npos && secret_parameter(part.substr(0, eq)))
      out.append(part.substr(0, eq)).append("=***");
    else
      out.append(part);
    start = end + 1;
  }
  return out;
}

std::string access_json(const Request& request, const Response& response, long micros, const std::string& id,
                        const std::string& now_utc) {
  std::string line = "{\"time\":";
  json_string(line, now_utc);
  line += ",\"request_id\":";
  json_string(line, id);
  line += ",\"method\":";
  json_string(line, request.method);
  line += ",\"route\":";
  json_string(line, response.route);
  line += ",\"status\":" + std::to_string(response.status);
  line += ",\"bytes\":" + std::to_string(response.head_only ? 0 : response.body.size());
  line += ",\"duration_us\":" + std::to_string(micros);
  line += ",\"statements\":" + std::to_string(response.statements);
  line += ",\"cache\":";
  json_string(line, response.cache);
  line += ",\"caller\":" + std::to_string(response.caller);
  line += "}";
  return line;
}

void log_request(const Request& r, const Response& response, long micros, const std::string& id) {
  if (g_access.on()) {
    if (g_json)
      g_access.write(access_json(r, response, micros, id, utc_now()) + "\n");
    else
      g_access.write(r.method + " " + r.script_name + r.path + " " + std::to_string(response.status) + " " +
                     std::to_string(micros) + "us " + id + "\n");
  }
  if (g_slow_ms > 0 && micros >= 1000L * g_slow_ms && g_slow.on()) {
    std::string line = "{\"time\":";
    json_string(line, utc_now());
    line += ",\"slow\":true,\"request_id\":";
    json_string(line, id);
    line += ",\"method\":";
    json_string(line, r.method);
    line += ",\"route\":";
    json_string(line, response.route);
    line += ",\"query\":";
    json_string(line, redacted_query(r.query_string));
    line += ",\"status\":" + std::to_string(response.status);
    line += ",\"duration_us\":" + std::to_string(micros);
    line += ",\"statements\":[";
    bool first = true;
    for (const auto& [sql, seconds] : response.statement_times) {
      if (!first) line += ',';
      first = false;
      line += "{\"sql\":";
      json_string(line, sql);
      line += ",\"us\":" + std::to_string(static_cast<long>(seconds * 1e6)) + "}";
    }
    line += "]}\n";
    g_slow.write(line);
  }
}

}  // namespace cal
