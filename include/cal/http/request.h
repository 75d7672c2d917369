// The web-server-neutral request and response: what fcgi_server (FastCGI or CGI) hands to the
// router and what it writes back.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cal {

struct Request {
  std::string method;        // upper-case, as sent (the router applies method overrides)
  std::string script_name;   // mount point, e.g. "/api"
  std::string path;          // PATH_INFO below the mount point, e.g. "/cal/events/v1/events"
  std::string query_string;  // raw, still percent-encoded
  std::string content_type;
  std::string body;
  bool body_too_large = false;                 // the body exceeded server.max_body (read and discarded)
  std::map<std::string, std::string> headers;  // lower-case names: "authorization", "host", ...
  std::string scheme = "http";                 // "https" when HTTPS=on
  std::string host;                            // Host header, with port if any
  std::string remote_addr;
  std::string site_locale;  // CAL_LOCALE passed by the web server, if any

  // The header's value, or "" when absent. `name` must be lower-case.
  const std::string& header(const std::string& name) const;
};

struct Response {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  bool head_only = false;  // HEAD: send the headers of the GET, no body
  // Not to reach the client before this moment: a write's answer waits out the cache lease
  // (docs/api.md, "Cache lease"). The default, the clock's epoch, has always passed.
  std::chrono::steady_clock::time_point not_before{};

  // What the pipeline tells the access log and the metrics (docs/operations.md); never sent.
  std::string route;           // the route template that answered ("/cal/events/v1/events/{id}"), or ""
  std::size_t statements = 0;  // SQL statements the request ran
  std::string cache;           // the response cache: "hit", "miss", or "" when not asked
  long long caller = 0;        // the authenticated user's id; 0 for a visitor
  // With [log] slow_ms: each statement's first words and seconds, for the slow-request log.
  std::vector<std::pair<std::string, double>> statement_times;

  void set_header(std::string name, std::string value);
};

// Reason phrase for the status line ("Not Found"); "" for unknown codes.
const char* status_reason(int status);

}  // namespace cal
