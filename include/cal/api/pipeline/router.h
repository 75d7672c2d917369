// The request pipeline of docs/api.md §1: routing, method overrides, HEAD/OPTIONS, authentication,
// the permission check, body parsing, parameter validation, the handler, and the single place
// where errors become docs/api.md §2 responses.
#pragma once

#include "cal/core/config.h"
#include "cal/http/request.h"
#include "cal/store/db.h"
#include "cal/store/replicas.h"

#include <memory>
#include <vector>

namespace cal {

class ResponseCache;

// Answers one request. Never throws: every failure becomes a JSON error response.
// `request_id` is used in the log for unexpected failures. With a `cache`, GET/HEAD answers (an
// authenticated caller's under a key of its own) are served from it while valid and stored in it
// when computed (see cal/cache/response_cache.h); the answer is the same as without.
Response handle_request(const Request& request, Db& db, const Config& config, const std::string& request_id,
                        ResponseCache* cache = nullptr);

// With read replicas (`[database] replicas`): one worker thread's connections and the caches.
struct Backends {
  Db& primary;
  std::vector<std::unique_ptr<Db>>& replicas;  // ReplicaSet's replicas, in its order
  ReplicaSet& set;
  ResponseCache* primary_cache = nullptr;
  std::vector<ResponseCache*> replica_caches;  // one per replica (entries may be null)
};

// As above, with reads spread over the replicas (docs/scaling-out.md): a GET or HEAD
// goes to a healthy replica (ReplicaSet::pick), once it has applied the GTID the caller presents
// (X-Cal-GTID or the cal_gtid cookie; else to the primary), with that replica's own response
// cache; a replica lost mid-request is reported and the read runs elsewhere. Everything else goes
// to the primary, and a successful write answers with its GTID (X-Cal-GTID, cookie cal_gtid).
Response handle_request(const Request& request, Backends& backends, const Config& config,
                        const std::string& request_id);

}  // namespace cal
