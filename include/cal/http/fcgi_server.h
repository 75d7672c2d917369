// The only module that knows libfcgi: the threaded FastCGI loop and the one-shot CGI mode.
#pragma once

#include "cal/core/config.h"
#include "cal/http/request.h"

#include <functional>
#include <string>

namespace cal {

// Answers one request on the calling worker thread; `request_id` names it in logs.
using RequestHandler = std::function<Response(const Request&, const std::string& request_id)>;

// Whether the process was started as plain CGI (standard input is not a listening socket).
bool started_as_cgi();

// Serves FastCGI with config.server.threads workers on config.server.socket ("unix:PATH" or
// "HOST:PORT"), or on the socket the web server handed over when that is empty. Returns when
// SIGTERM or SIGINT arrives, after the requests in flight are answered; SIGHUP reopens the log
// files (cal/http/request_log.h). Returns an exit code.
int serve_fastcgi(const Config& config, const RequestHandler& handler);

// Answers the single CGI request in the environment and on standard input. Returns an exit code.
int serve_cgi(const Config& config, const RequestHandler& handler);

}  // namespace cal
