// The response cache (see cal/api/response_cache.h).
#include "cal/api/response_cache.h"

#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <cctype>

namespace cal {
namespace {

// Bookkeeping per entry beyond its strings: list node, index node and bucket, the shared
// control block and Stored, malloc headers.
constexpr std::size_t kEntryOverhead = 320;
// Bodies in [kMinCompressed, kMaxCompressed] are kept compressed (see the header).
constexpr std::size_t kMinCompressed = 512;
constexpr std::size_t kMaxCompressed = 16 * 1024;
// The dictionary is trained on the first kSamples bodies of at least kMinCompressed bytes (each
// cut to kMaxCompressed), to at most kDictionaryBytes.
constexpr std::size_t kSamples = 64;
constexpr std::size_t kDictionaryBytes = 32 * 1024;
constexpr int kLevel = 3;

bool is_get_or_head(std::string_view method) {
  auto equals = [&](std::string_view word) {
    if (method.size() != word.size()) return false;
    for (std::size_t i = 0; i < word.size(); ++i)
      if (std::toupper(static_cast<unsigned char>(method[i])) != word[i]) return false;
    return true;
  };
  return equals("GET") || equals("HEAD");
}

// One compression and one decompression context per thread, reused for every body.
struct ThreadContexts {
  ZSTD_CCtx* compress = ZSTD_createCCtx();
  ZSTD_DCtx* decompress = ZSTD_createDCtx();
  ~ThreadContexts() {
    ZSTD_freeCCtx(compress);
    ZSTD_freeDCtx(decompress);
  }
};

ThreadContexts& contexts() {
  thread_local ThreadContexts c;
  return c;
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
  // SQL that read the database clock ran in the second the version was read, or later: a lookup
  // in that same second sees what it saw (every later second is a miss).
  if (v.clock.db_clock && now.db_now != v.version.db_now) return false;
  return true;
}

bool ResponseCache::find(const std::string& key, const DataVersion& now, Seconds local_now, CachedResponse& out) {
  std::shared_ptr<const Stored> stored;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (now.version != version_) {
      // Something was written (or this request read the version just before a write whose
      // readers already moved the cache on): no entry can be trusted.
      clear_locked();
      version_ = now.version;
    }
    const auto found = index_.find(key);
    if (found == index_.end()) {
      ++misses_;
      return false;
    }
    const Lru::iterator it = found->second;
    if (!still_valid(it->validity, now, local_now)) {
      erase_locked(it);
      ++misses_;
      return false;
    }
    lru_.splice(lru_.begin(), lru_, it);
    ++hits_;
    stored = it->stored;
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
  const std::size_t n = ZSTD_decompress_usingDDict(contexts().decompress, out.body.data(), out.body.size(),
                                                   stored->data.data(), stored->data.size(), dictionary->decompress);
  return !ZSTD_isError(n) && n == stored->raw_size;  // a failure is a miss: the pipeline answers
}

bool ResponseCache::compress(const std::string& body, std::string& out) {
  if (body.size() < kMinCompressed) return false;
  const Dictionary* dictionary = dictionary_ready_.load(std::memory_order_acquire);
  if (!dictionary) {
    // Until the dictionary exists, answers are kept as they are and the first ones teach it
    // the names and phrases every answer of this site repeats.
    bool enough = false;
    {
      std::lock_guard<std::mutex> lock(samples_mutex_);
      if (!dictionary_ && sample_sizes_.size() < kSamples) {
        const std::size_t n = std::min(body.size(), kMaxCompressed);
        samples_.append(body, 0, n);
        sample_sizes_.push_back(n);
        enough = sample_sizes_.size() == kSamples;
      }
    }
    if (enough) train_dictionary();
    return false;
  }
  if (body.size() > kMaxCompressed) return false;
  out.resize(ZSTD_compressBound(body.size()));
  const std::size_t n =
      ZSTD_compress_usingCDict(contexts().compress, out.data(), out.size(), body.data(), body.size(), dictionary->compress);
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
