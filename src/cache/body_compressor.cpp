// zstd compression of cached bodies with a trained dictionary (see cal/cache/body_compressor.h).
#include "cal/cache/body_compressor.h"

#include <zdict.h>
#include <zstd.h>

#include <algorithm>

namespace cal {
namespace {

// Bodies in [kMinCompressed, kMaxCompressed] are kept compressed (see the header).
constexpr std::size_t kMinCompressed = 512;
constexpr std::size_t kMaxCompressed = 16 * 1024;
// The dictionary is trained on the first kSamples bodies of those sizes, to at most
// kDictionaryBytes.
constexpr std::size_t kSamples = 64;
constexpr std::size_t kDictionaryBytes = 32 * 1024;
// Level 1: as small as level 3 on these bodies with the dictionary, at a fraction of the
// dictionary's and each thread's context memory (docs/performance.md).
constexpr int kLevel = 1;

// zstd contexts (tens of KB each), lent to one thread at a time and kept for reuse: as many
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
struct BodyCompressor::Dictionary {
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

BodyCompressor::BodyCompressor() = default;

BodyCompressor::~BodyCompressor() = default;

bool BodyCompressor::compress(const std::string& body, std::string& out) {
  // Only bodies of the sizes kept compressed train the dictionary too: a few large list pages
  // among the samples made it worse for the many records.
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
    return ZSTD_compress_usingCDict(context, out.data(), out.size(), body.data(), body.size(),
                                    dictionary->compress);
  });
  if (ZSTD_isError(n) || n >= body.size() / 10 * 9) return false;
  out.resize(n);
  out.shrink_to_fit();
  return true;
}

void BodyCompressor::train_dictionary() {
  std::lock_guard<std::mutex> lock(samples_mutex_);
  if (dictionary_) return;
  std::string trained(kDictionaryBytes, '\0');
  const std::size_t n =
      ZDICT_trainFromBuffer(trained.data(), trained.size(), samples_.data(), sample_sizes_.data(),
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

bool BodyCompressor::decompress(const std::string& data, std::size_t raw_size, std::string& out) const {
  const Dictionary* dictionary = dictionary_ready_.load(std::memory_order_acquire);
  if (!dictionary) return false;
  out.resize(raw_size);
  const std::size_t n = decompress_contexts().with([&](ZSTD_DCtx* context) {
    return ZSTD_decompress_usingDDict(context, out.data(), out.size(), data.data(), data.size(),
                                      dictionary->decompress);
  });
  return !ZSTD_isError(n) && n == raw_size;
}

}  // namespace cal
