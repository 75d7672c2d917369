// The request pipeline of SPEC §1: routing, method overrides, HEAD/OPTIONS, authentication,
// the permission check, body parsing, parameter validation, the handler, and the single place
// where errors become SPEC §2 responses.
#pragma once

#include "cal/core/config.h"
#include "cal/http/request.h"
#include "cal/store/db.h"

namespace cal {

class ResponseCache;

// Answers one request. Never throws: every failure becomes a JSON error response.
// `request_id` is used in the log for unexpected failures. With a `cache`, visitors' GET/HEAD
// answers are served from it while valid and stored in it when computed (see
// cal/cache/response_cache.h); the answer is the same as without.
Response handle_request(const Request& request, Db& db, const Config& config, const std::string& request_id,
                        ResponseCache* cache = nullptr);

}  // namespace cal
