// How the pipeline uses the response cache: a GET/HEAD is answered from memory when the
// stored answer is still exactly what the pipeline would produce, and a computed answer is stored
// for the next request. A visitor's is looked up before anything else; an authenticated caller's
// once the credentials are checked, under a key of its own (a mirror
// polls /changes with the same credentials again and again). The cache itself (src/cache/) knows nothing of
// the API.
#pragma once

#include "cal/api/access/permissions.h"
#include "cal/cache/response_cache.h"
#include "cal/core/config.h"
#include "cal/http/request.h"
#include "cal/store/db.h"

#include <optional>
#include <string>

namespace cal {

// The data version the cache is checked against, read (or shared, cal/cache/version_flights.h)
// on `db`, with the changes it brings applied to `cache`; nullopt when it cannot be read. Prunes
// the change log past `config.sync.retention_days`, at most once a minute.
std::optional<DataVersion> read_version_for_cache(ResponseCache& cache, Db& db, const Config& config);

// One request's turn at the cache: lookup() first, keep() once the answer is computed. Holds
// the cache's claim on the key until destroyed (after the answer is stored), so concurrent
// misses of one key are computed once.
class ResponseCacheUse {
 public:
  // Without a cache, or for a request the cache does not key, lookup and keep do nothing.
  ResponseCacheUse(ResponseCache* cache, const Request& request);

  // Keys the request by this authenticated caller from now on; false when its answer is not
  // cached (no cache, or not a GET/HEAD).
  bool key_by(const Caller& caller);

  // The stored answer as the response to this request (HEAD, If-None-Match and the statement
  // count header applied as for a computed one: no statement ran for it), or nullopt.
  std::optional<Response> lookup(Db& db, const Config& config);

  // Whether lookup() gave the answer.
  bool answered() const { return answered_; }
  // Whether the cache was asked and had no current answer (so this one may be stored).
  bool missed() const { return validity_.has_value() && !answered_; }
  // The statements lookup() has run on `db` so far (the version read, when not shared; the log's
  // pruning): the cache's, not the request's own.
  std::size_t lookup_statements() const { return lookup_statements_; }

  // The rendered records this request may reuse and add to: set once lookup() missed with a
  // known data version (the fragments then hold every change up to it); none otherwise.
  FragmentUse fragments() const;

  // Whether the data version lookup() used found no scheduled post due and none coming due for a
  // minute, well past any request's end (RequestContext::no_scheduled_due).
  bool no_scheduled_due() const { return no_scheduled_due_ && !answered_; }

  // Stores a computed answer that has an ETag, when lookup() missed with a known data version;
  // without the per-request statement count header.
  void keep(const Response& response, const std::string& etag);

 private:
  ResponseCache* cache_;
  const Request& request_;
  std::string key_;
  std::optional<CacheValidity> validity_;
  ResponseCache::Claim claim_;
  bool answered_ = false;
  bool rides_lease_ = false;  // may rest on a version read within the lease
  std::size_t lookup_statements_ = 0;
  std::optional<std::uint64_t> fragments_epoch_;
  bool no_scheduled_due_ = false;
};

// With a cache lease (`[server] cache_lease_ms`, on by default), a cached answer may rest on a
// version read up to the lease before: a request that wrote on `db` (since its mark()) is
// acknowledged only once every cache, of any process, has read a version after its commit, so
// this is the moment the lease has passed since that commit (the epoch when nothing was written),
// before which the answer must not leave. A read presenting a write's position (X-Cal-GTID, the
// cal_gtid cookie) never rests on the lease: it reads the version itself.
std::chrono::steady_clock::time_point cache_lease_end(const Config& config, const Db& db);

}  // namespace cal
