// Compression of the response cache's bodies: zstd against a dictionary trained on the first 64
// bodies of up to 16 KiB (single records, short lists, which share most of their keys and
// words); larger bodies, and all bodies until the dictionary exists, are not compressed. Thread-safe.
// Used by cal/cache/response_cache.h, which decides what is kept.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cal {

class BodyCompressor {
 public:
  BodyCompressor();
  ~BodyCompressor();
  BodyCompressor(const BodyCompressor&) = delete;
  BodyCompressor& operator=(const BodyCompressor&) = delete;

  // Compresses a body with the dictionary into `out`; false when there is none yet (the body
  // then becomes a training sample) or it is not worth it.
  bool compress(const std::string& body, std::string& out);

  // Decompresses what compress() made of a body of `raw_size` bytes into `out`; false on failure.
  bool decompress(const std::string& data, std::size_t raw_size, std::string& out) const;

 private:
  struct Dictionary;

  // Trains the dictionary once enough samples are in.
  void train_dictionary();

  std::mutex samples_mutex_;  // guards samples_, sample_sizes_ and dictionary_
  std::string samples_;
  std::vector<std::size_t> sample_sizes_;
  std::unique_ptr<Dictionary> dictionary_;  // set once, then read-only
  std::atomic<const Dictionary*> dictionary_ready_{nullptr};
};

}  // namespace cal
