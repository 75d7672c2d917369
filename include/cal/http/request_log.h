// The service's request logs (docs/operations.md): the access log, one line per request (text, or
// JSON lines), and the slow-request log, each to standard error, a file, or nowhere. Files are
// appended to and reopened on SIGHUP, so logrotate can move them away.
#pragma once

#include "cal/core/config.h"
#include "cal/http/request.h"

#include <string>

namespace cal {

// Opens the destinations of `config` (call once before serving). Returns "" or what failed.
std::string open_request_logs(const LogConfig& config);

// Reopens the log files (SIGHUP); standard error stays as it is.
void reopen_request_logs();

// The request id of `request`: its X-Request-Id when that is 1 to 64 characters of letters,
// digits and "-_.:", else a new one unique in this process.
std::string request_id_of(const Request& request);

// Writes the access line and, when the request took at least [log] slow_ms, the slow-request
// line. Never writes headers, credentials or bodies; the slow line's query string has the values
// of password and token parameters replaced.
void log_request(const Request& request, const Response& response, long micros, const std::string& id);

// The JSON access line (without the newline) of one request; `now_utc` as "2026-11-26T20:41:37.123Z".
std::string access_json(const Request& request, const Response& response, long micros, const std::string& id,
                        const std::string& now_utc);

// The query string with the values of password and token parameters replaced by "***".
std::string redacted_query(const std::string& query);

}  // namespace cal
