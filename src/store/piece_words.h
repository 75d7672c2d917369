// Internal to src/store/ (and its unit test): which index words hold a search's piece, remembered
// by the process. Finding them is a LIKE over the whole vocabulary (about 0.35 µs a word: 0.7 ms
// at 1,800 words, tens of ms at a large site's 100,000); the vocabulary only grows, so a piece's
// words stay its words, and the words added since are those with larger ids. Only when every
// write counted since (search_word_writes, schema.sql migration 20) is such an addition: a word
// written with a smaller id (a transaction that took its id earlier and committed later), changed
// or deleted (by hand) sends the piece back to the full scan. Exact, then, never only likely.
// Bounded: keeping past the bound forgets everything. Thread-safe.
#pragma once

#include <algorithm>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cal {

class PieceWords {
 public:
  // A piece's words as a scan found them: `writes` the vocabulary's write count and `max_id` its
  // largest id when it ran, both read in the scan's statement.
  struct Known {
    std::vector<long long> ids;  // ascending
    long long writes = 0;
    long long max_id = 0;
  };
  // A word written after `Known::max_id`, and whether it holds the piece.
  struct Added {
    long long id = 0;
    bool holds = false;
  };

  PieceWords(std::size_t max_pieces, std::size_t max_ids) : max_pieces_(max_pieces), max_ids_(max_ids) {}
  PieceWords(const PieceWords&) = delete;
  PieceWords& operator=(const PieceWords&) = delete;

  std::optional<Known> find(const std::string& piece) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = known_.find(piece);
    if (it == known_.end()) return std::nullopt;
    return it->second;
  }

  // `known` brought up to `writes`, given the words with ids above its max_id now; nullopt unless
  // they account for every write since (then scan again).
  static std::optional<Known> extended(const Known& known, long long writes,
                                       const std::vector<Added>& added) {
    if (writes - known.writes != static_cast<long long>(added.size())) return std::nullopt;
    Known out = known;
    out.writes = writes;
    for (const Added& a : added) {
      if (a.id <= out.max_id) return std::nullopt;
      out.max_id = a.id;
      if (a.holds) out.ids.push_back(a.id);
    }
    return out;
  }

  // Remembers `known` for `piece`, unless it holds more words than a piece is worth keeping for.
  void keep(const std::string& piece, Known known) {
    if (known.ids.size() > max_ids_) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    if (known_.size() >= max_pieces_ && !known_.count(piece)) known_.clear();
    known_[piece] = std::move(known);
  }

 private:
  const std::size_t max_pieces_;
  const std::size_t max_ids_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Known> known_;
};

}  // namespace cal
