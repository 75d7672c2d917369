// The response cache (see cal/cache/response_cache.h).
#include "cal/cache/response_cache.h"

#include "cal/core/text/ascii.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace cal {
namespace {

// Bookkeeping per entry beyond its strings: list node, index node and bucket, the shared
// control block and Stored, malloc headers.
constexpr std::size_t kEntryOverhead = 320;

bool is_get_or_head(std::string_view method) {
  return ascii::iequals(method, "GET") || ascii::iequals(method, "HEAD");
}

}  // namespace

ResponseCache::ResponseCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

ResponseCache::~ResponseCache() = default;

std::string ResponseCache::key_of(const Request& r) {
  if (!is_get_or_head(r.method) || !r.header("authorization").empty()) return {};
  // Every input the pipeline reads for a visitor's GET, separated by a byte no header or
  // CGI variable contains. HEAD shares GET's entry (same headers, body not sent).
  std::string key;
  key.reserve(r.host.size() + r.script_name.size() + r.path.size() + r.query_string.size() + 64);
  for (const std::string* part :
       {&r.scheme, &r.host, &r.script_name, &r.path, &r.query_string, &r.site_locale,
        &r.header("accept-language"), &r.header("x-forwarded-proto"), &r.header("x-forwarded-host")}) {
    key += *part;
    key += '\n';
  }
  return key;
}

bool ResponseCache::still_valid(const CacheValidity& v, const DataVersion& now, Seconds local_now) {
  if (now.db_now >= v.version.next_change) return false;  // a scheduled post came due
  if (v.clock.valid_until && local_now >= *v.clock.valid_until) return false;
  return true;
}

// One computation of a key at a data version.
struct ResponseCache::Claim::Flight {
  long long version = 0;
  bool done = false;
};

ResponseCache::Claim::~Claim() {
  if (cache_) cache_->release(*this);
}

void ResponseCache::release(Claim& claim) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    claim.flight_->done = true;
    if (const auto it = computing_.find(claim.key_); it != computing_.end() && it->second == claim.flight_)
      computing_.erase(it);
  }
  computed_.notify_all();
}

bool ResponseCache::find(const std::string& key, const DataVersion& now, Seconds local_now,
                         CachedResponse& out, Claim& claim) {
  std::shared_ptr<const Stored> stored;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    for (bool waited = false;; waited = true) {
      if (now.version != version_) {
        // Something was written (or this request read the version just before a write whose
        // readers already moved the cache on): no entry can be trusted.
        clear_locked();
        version_ = now.version;
      }
      if (const auto found = index_.find(key); found != index_.end()) {
        const Lru::iterator it = found->second;
        if (still_valid(it->validity, now, local_now)) {
          lru_.splice(lru_.begin(), lru_, it);
          ++hits_;
          stored = it->stored;
          break;
        }
        erase_locked(it);
      }
      ++misses_;
      if (waited) return false;
      // Being computed at this version: its answer is as current as one computed now (it
      // started after the write that made this version, like this request).
      if (const auto flying = computing_.find(key);
          flying != computing_.end() && flying->second->version == now.version) {
        const std::shared_ptr<Claim::Flight> flight = flying->second;
        computed_.wait(lock, [&] { return flight->done; });
        continue;
      }
      auto flight = std::make_shared<Claim::Flight>();
      flight->version = now.version;
      computing_[key] = flight;
      claim.cache_ = this;
      claim.key_ = key;
      claim.flight_ = std::move(flight);
      return false;
    }
  }
  // Copying and decompressing happen outside the lock; the entry stays alive through `stored`.
  out.headers = *stored->headers;
  out.headers.emplace_back("ETag", stored->etag);
  out.etag = stored->etag;
  if (stored->raw_size == 0) {
    out.body = stored->data;
    return true;
  }
  return compressor_.decompress(stored->data, stored->raw_size, out.body);  // a failure is a miss
}

void ResponseCache::store(const std::string& key, const CacheValidity& validity, CachedResponse response) {
  auto stored = std::make_shared<Stored>();
  stored->etag = std::move(response.etag);
  if (compressor_.compress(response.body, stored->data)) {
    stored->raw_size = response.body.size();
  } else {
    stored->data = std::move(response.body);
  }
  // The ETag is kept apart (find() adds it), so that records of one kind share a header set.
  Headers& headers = response.headers;
  headers.erase(
      std::remove_if(headers.begin(), headers.end(), [](const auto& h) { return h.first == "ETag"; }),
      headers.end());
  std::size_t bytes = kEntryOverhead + key.size() + stored->data.size() + stored->etag.size();
  std::lock_guard<std::mutex> lock(mutex_);
  if (validity.version.version != version_) return;  // computed before a write: already outdated
  if (last_headers_ && *last_headers_ == headers) {
    stored->headers = last_headers_;
  } else {
    stored->headers = last_headers_ = std::make_shared<const Headers>(std::move(headers));
    for (const auto& [name, value] : *stored->headers) bytes += name.size() + value.size() + 64;
  }
  if (bytes > max_bytes_ / 4) return;
  if (const auto found = index_.find(key); found != index_.end()) erase_locked(found->second);
  compressed_ += stored->raw_size ? 1 : 0;
  lru_.push_front(Entry{key, validity, std::move(stored), bytes});
  index_.emplace(lru_.front().key, lru_.begin());
  bytes_ += bytes;
  while (bytes_ > max_bytes_ && !lru_.empty()) erase_locked(std::prev(lru_.end()));
}

ResponseCache::Stats ResponseCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return Stats{lru_.size(), bytes_, compressed_, hits_, misses_};
}

void ResponseCache::clear_locked() {
  index_.clear();
  lru_.clear();
  bytes_ = 0;
  compressed_ = 0;
}

void ResponseCache::erase_locked(Lru::iterator it) {
  bytes_ -= it->bytes;
  compressed_ -= it->stored->raw_size ? 1 : 0;
  index_.erase(it->key);
  lru_.erase(it);
}

}  // namespace cal
