// The pipeline's use of the response cache (see response_cache_use.h).
#include "api/pipeline/response_cache_use.h"

#include "api/pipeline/answer_headers.h"
#include "api/pipeline/replica_reads.h"
#include "cal/core/dates/clock_use.h"
#include "cal/core/text/ascii.h"
#include "cal/store/data_version.h"
#include "cal/store/read_set.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>

namespace cal {
namespace {

// The data version for a cacheable request; nullopt when it cannot be read (the request is then
// answered without the cache: a lost connection is the pipeline's to handle, a database without
// the data_version table is logged once).
std::optional<DataVersion> version_for_cache(Db& db, const std::optional<DataVersion>& previous,
                                             const std::optional<ShardVersions>& since) {
  try {
    return read_data_version(db, previous, since);
  } catch (const DatabaseUnavailable&) {
    return std::nullopt;
  } catch (const std::exception& e) {
    static std::atomic<bool> logged{false};
    if (!logged.exchange(true))
      std::cerr << "response cache: cannot read the data version (run calendarctl migrate): " << e.what()
                << "\n";
    return std::nullopt;
  }
}

// The log this cache still needs is kept at least this long: a cache that read no version for
// longer empties itself instead.
constexpr std::chrono::seconds kCacheLogNeed{300};

// How long before a scheduled post comes due lists stop leaving due ones out: longer than any
// request takes, with the database's clock read up to a lease before.
constexpr long long kDueMargin = 60;

// Deletes the log older than the sync retention (GET /changes reads it) that this cache no
// longer needs either, at most once a minute; a failure only delays it. A replica's log is the
// primary's, pruned there and replicated: never pruned on the replica.
void prune_change_log(ResponseCache& cache, Db& db, const Config& config) {
  if (db.read_only()) return;
  const auto upto = cache.prunable(std::chrono::steady_clock::now(), kCacheLogNeed);
  if (!upto) return;
  try {
    prune_data_changes(db, *upto, static_cast<long long>(config.sync.retention_days * 86400.0));
  } catch (const DatabaseUnavailable&) {
  } catch (const std::exception& e) {
    static std::atomic<bool> logged{false};
    if (!logged.exchange(true))
      std::cerr << "response cache: cannot prune the change log: " << e.what() << "\n";
  }
}

// A cached answer as a response to this request.
Response cached_response(const Request& request, CachedResponse cached, const Config& config) {
  Response response;
  response.headers = std::move(cached.headers);
  response.body = std::move(cached.body);
  if (config.server.statement_count_header) response.set_header("X-Cal-Statements", "0");
  if (ascii::upper(request.method) == "HEAD") response.head_only = true;
  apply_conditional(request, cached.etag, response);
  return response;
}

}  // namespace

std::optional<DataVersion> read_version_for_cache(ResponseCache& cache, Db& db, const Config& config) {
  // Applied by the thread that read it, before the next read may start: in commit order.
  const auto read = [&db, &cache, &config](const std::optional<DataVersion>& previous) {
    auto version = version_for_cache(db, previous, cache.applied());
    if (version) {
      cache.apply(*version);
      cache.fragments().apply(*version);
      version->changes.reset();  // applied: the requests that share this read need no copy
      prune_change_log(cache, db, config);
    }
    return version;
  };
  return cache.versions().get(read);
}

ResponseCacheUse::ResponseCacheUse(ResponseCache* cache, const Request& request)
    : cache_(cache), request_(request) {
  if (cache_) {
    key_ = ResponseCache::key_of(request);
    // A caller presenting its last write's position reads on a replica that has applied it,
    // possibly after the replica cache's last read: that read cannot stand for this request.
    rides_lease_ = presented_gtid(request).empty();
  }
}

bool ResponseCacheUse::key_by(const Caller& caller) {
  if (!cache_ || !caller.user) return false;
  key_ =
      ResponseCache::key_of(request_, std::to_string(caller.user->id) + ":" + role_name(caller.user->role));
  return !key_.empty();
}

std::optional<Response> ResponseCacheUse::lookup(Db& db, const Config& config) {
  if (!cache_ || key_.empty()) return std::nullopt;
  const std::size_t statements_before = db.statement_count();
  std::optional<DataVersion> version;
  if (config.server.cache_lease_ms > 0 && rides_lease_)
    version = cache_->versions().fresh(VersionFlights::Clock::now(),
                                       std::chrono::milliseconds(config.server.cache_lease_ms));
  if (!version) version = read_version_for_cache(*cache_, db, config);
  lookup_statements_ += db.statement_count() - statements_before;
  if (!version) return std::nullopt;
  no_scheduled_due_ = version->due.count == 0 && version->next_change > version->db_now + kDueMargin;
  // Taken now, before the handler reads a row: a fragment it renders is kept only if no change
  // applied since touched it.
  if (cache_->fragments().enabled()) fragments_epoch_ = cache_->fragments().epoch();
  if (!config.server.response_cache) return std::nullopt;  // the version read serves the fragments alone
  CachedResponse hit;
  if (cache_->find(key_, *version, unmarked_now(), hit, claim_)) {
    answered_ = true;
    return cached_response(request_, std::move(hit), config);
  }
  validity_ = CacheValidity{*version, {}, cache_->epoch()};
  return std::nullopt;
}

FragmentUse ResponseCacheUse::fragments() const {
  if (!fragments_epoch_ || answered_) return {};
  return FragmentUse{&cache_->fragments(), *fragments_epoch_};
}

void ResponseCacheUse::keep(const Response& response, const std::string& etag) {
  if (!validity_ || etag.empty()) return;
  validity_->clock = clock_use();
  CachedResponse stored{response.headers, response.body, etag};
  auto& h = stored.headers;
  h.erase(std::remove_if(h.begin(), h.end(), [](const auto& kv) { return kv.first == "X-Cal-Statements"; }),
          h.end());
  cache_->store(key_, *validity_, read_set(), std::move(stored));
}

std::chrono::steady_clock::time_point cache_lease_end(const Config& config, const Db& db) {
  // From the commit on: a cache that served after that plus the lease read a version after it.
  if (config.server.cache_lease_ms > 0 && db.wrote_since_mark())
    return db.last_write_end() + std::chrono::milliseconds(config.server.cache_lease_ms);
  return {};
}

}  // namespace cal
