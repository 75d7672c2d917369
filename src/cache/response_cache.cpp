// The response cache (see cal/cache/response_cache.h).
#include "cal/cache/response_cache.h"

#include "cal/core/text/ascii.h"

#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <mutex>
#include <vector>

namespace cal {
namespace {

// Bookkeeping per entry beyond its strings: list node, index node and bucket, the shared
// control block and Stored, malloc headers.
constexpr std::size_t kEntryOverhead = 320;
// Bodies in [kMinCompressed, kMaxCompressed] are kept compressed (see the header).
constexpr std::size_t kMinCompressed = 512;
constexpr std::size_t kMaxCompressed = 16 * 1024;
// The dictionary is trained on the first kSamples bodies of those sizes, to at most
// kDictionaryBytes.
constexpr std::size_t kSamples = 64;
constexpr std::size_t kDictionaryBytes = 32 * 1024;
// Level 1: as small as level 3 on these bodies with the dictionary (458 vs 459 bytes a record)
// at a fifth of the dictionary's memory (80 KB, and 83 KB per thread's context instead of 149).
constexpr int kLevel = 1;

bool is_get_or_head(std::string_view method) {
  return ascii::iequals(method, "GET") || ascii::iequals(method, "HEAD");
}

// zstd contexts (about 90 KB each), lent to one thread at a time and kept for reuse: as many
// exist as threads ever used one at once (one or two), not one per worker thread.
template <typename Context, Context* (*create)(), std::size_t (*destroy)(Context*)>
class ContextPool {
 public:
  ~ContextPool() {
    for (Context* c : free_) destroy(c);
  }
  // Runs f(context) with a context of the pool.
  template <typename F>
  auto with(F f) {
    Context* c = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty()) {
        c = free_.back();
        free_.pop_back();
      }
    }
    if (!c) c = create();
    struct Return {
      ContextPool& pool;
      Context* c;
      ~Return() {
        std::lock_guard<std::mutex> lock(pool.mutex_);
        pool.free_.push_back(c);
      }
    } give_back{*this, c};
    return f(c);
  }

 private:
  std::mutex mutex_;
  std::vector<Context*> free_;
};

ContextPool<ZSTD_CCtx, ZSTD_createCCtx, ZSTD_freeCCtx>& compress_contexts() {
  static ContextPool<ZSTD_CCtx, ZSTD_createCCtx, ZSTD_freeCCtx> pool;
  return pool;
}

ContextPool<ZSTD_DCtx, ZSTD_createDCtx, ZSTD_freeDCtx>& decompress_contexts() {
  static ContextPool<ZSTD_DCtx, ZSTD_createDCtx, ZSTD_freeDCtx> pool;
  return pool;
}

}  // namespace

// Digested forms of the dictionary, shared by every thread (zstd allows that: both are read-only).
struct ResponseCache::Dictionary {
  ZSTD_CDict* compress = nullptr;
  ZSTD_DDict* decompress = nullptr;
  explicit Dictionary(std::string_view content)
      : compress(ZSTD_createCDict(content.data(), content.size(), kLevel)),
        decompress(ZSTD_createDDict(content.data(), content.size())) {}
  ~Dictionary() {
    ZSTD_freeCDict(compress);
    ZSTD_freeDDict(decompress);
  }
};

ResponseCache::ResponseCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

ResponseCache::~ResponseCache() = default;

std::string ResponseCache::key_of(const Request& r) {
  if (!is_get_or_head(r.method) || !r.header("authorization").empty()) return {};
  // Every input the pipeline reads for a visitor's GET, separated by a byte no header or
  // CGI variable contains. HEAD shares GET's entry (same headers, body not sent).
  std::string key;
  key.reserve(r.host.size() + r.script_name.size() + r.path.size() + r.query_string.size() + 64);
  for (const std::string* part : {&r.scheme, &r.host, &r.script_name, &r.path, &r.query_string, &r.site_locale,
                                  &r.header("accept-language"), &r.header("x-forwarded-proto"),
                                  &r.header("x-forwarded-host")}) {
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

bool ResponseCache::find(const std::string& key, const DataVersion& now, Seconds local_now, CachedResponse& out,
                         Claim& claim) {
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
      if (const auto flying = computing_.find(key); flying != computing_.end() && flying->second->version == now.version) {
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
  const Dictionary* dictionary = dictionary_ready_.load(std::memory_order_acquire);
  out.body.resize(stored->raw_size);
  const std::size_t n = decompress_contexts().with([&](ZSTD_DCtx* context) {
    return ZSTD_decompress_usingDDict(context, out.body.data(), out.body.size(), stored->data.data(), stored->data.size(),
                                      dictionary->decompress);
  });
  return !ZSTD_isError(n) && n == stored->raw_size;  // a failure is a miss: the pipeline answers
}

bool ResponseCache::compress(const std::string& body, std::string& out) {
  // Only bodies of the sizes kept compressed train the dictionary too: a few large list pages
  // among the samples made it worse for the many records (1,300 instead of 950 bytes each).
  if (body.size() < kMinCompressed || body.size() > kMaxCompressed) return false;
  const Dictionary* dictionary = dictionary_ready_.load(std::memory_order_acquire);
  if (!dictionary) {
    // Until the dictionary exists, answers are kept as they are and the first ones teach it
    // the names and phrases every answer of this site repeats.
    bool enough = false;
    {
      std::lock_guard<std::mutex> lock(samples_mutex_);
      if (!dictionary_ && sample_sizes_.size() < kSamples) {
        samples_ += body;
        sample_sizes_.push_back(body.size());
        enough = sample_sizes_.size() == kSamples;
      }
    }
    if (enough) train_dictionary();
    return false;
  }
  out.resize(ZSTD_compressBound(body.size()));
  const std::size_t n = compress_contexts().with([&](ZSTD_CCtx* context) {
    return ZSTD_compress_usingCDict(context, out.data(), out.size(), body.data(), body.size(), dictionary->compress);
  });
  if (ZSTD_isError(n) || n >= body.size() / 10 * 9) return false;
  out.resize(n);
  out.shrink_to_fit();
  return true;
}

void ResponseCache::train_dictionary() {
  std::lock_guard<std::mutex> lock(samples_mutex_);
  if (dictionary_) return;
  std::string trained(kDictionaryBytes, '\0');
  const std::size_t n = ZDICT_trainFromBuffer(trained.data(), trained.size(), samples_.data(), sample_sizes_.data(),
                                              static_cast<unsigned>(sample_sizes_.size()));
  if (ZDICT_isError(n)) {
    // Too little variety to train on: the samples themselves (the latest part) serve as one.
    trained = samples_.substr(samples_.size() - std::min(samples_.size(), kDictionaryBytes));
  } else {
    trained.resize(n);
  }
  auto dictionary = std::make_unique<Dictionary>(trained);
  samples_.clear();
  samples_.shrink_to_fit();
  sample_sizes_.clear();
  sample_sizes_.shrink_to_fit();
  if (!dictionary->compress || !dictionary->decompress) return;  // out of memory: stay uncompressed
  dictionary_ = std::move(dictionary);
  dictionary_ready_.store(dictionary_.get(), std::memory_order_release);
}

void ResponseCache::store(const std::string& key, const CacheValidity& validity, CachedResponse response) {
  auto stored = std::make_shared<Stored>();
  stored->etag = std::move(response.etag);
  if (compress(response.body, stored->data)) {
    stored->raw_size = response.body.size();
  } else {
    stored->data = std::move(response.body);
  }
  // The ETag is kept apart (find() adds it), so that records of one kind share a header set.
  Headers& headers = response.headers;
  headers.erase(std::remove_if(headers.begin(), headers.end(), [](const auto& h) { return h.first == "ETag"; }),
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
