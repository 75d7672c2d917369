// Internal to src/store/: what a plan learned from one statement and the next plans may use for a
// while without reading it again (how many postings a search's words have, a term's few links).
// Such a mark only chooses among plans that give the same answer, so one a minute old is good
// enough. Bounded: marking past the bound forgets every mark. Thread-safe.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace cal {

// Marks on keys of numbers (a set of ids in any order: sorted here).
class RecentMarks {
 public:
  RecentMarks(std::chrono::seconds kept, std::size_t max_marks) : kept_(kept), max_marks_(max_marks) {}
  RecentMarks(const RecentMarks&) = delete;
  RecentMarks& operator=(const RecentMarks&) = delete;

  // The number `ids` were marked with less than `kept` ago (in any order).
  std::optional<long long> recalled(const std::vector<long long>& ids) {
    const std::vector<long long> key = sorted(ids);
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = marks_.find(key);
    if (it == marks_.end() || Clock::now() - it->second.when >= kept_) return std::nullopt;
    return it->second.number;
  }
  bool marked(const std::vector<long long>& ids) { return recalled(ids).has_value(); }

  void mark(const std::vector<long long>& ids, long long number = 0) {
    std::vector<long long> key = sorted(ids);
    const std::lock_guard<std::mutex> lock(mutex_);
    if (marks_.size() >= max_marks_) marks_.clear();
    marks_[std::move(key)] = Mark{Clock::now(), number};
  }

 private:
  using Clock = std::chrono::steady_clock;
  static std::vector<long long> sorted(std::vector<long long> ids) {
    std::sort(ids.begin(), ids.end());
    return ids;
  }
  const std::chrono::seconds kept_;
  const std::size_t max_marks_;
  std::mutex mutex_;
  struct Mark {
    Clock::time_point when;
    long long number;
  };
  std::map<std::vector<long long>, Mark> marks_;
};

}  // namespace cal
