// Internal to src/store/: what a plan learned from one statement and the next plans may use for a
// while without reading it again (a word's postings over the probe's limit, a term's many links).
// Such a mark only chooses among plans that give the same answer, so one a minute old is good
// enough. Bounded: marking past the bound forgets every mark. Thread-safe.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <vector>

namespace cal {

// Marks on keys of numbers (a set of ids in any order: sorted here).
class RecentMarks {
 public:
  RecentMarks(std::chrono::seconds kept, std::size_t max_marks) : kept_(kept), max_marks_(max_marks) {}
  RecentMarks(const RecentMarks&) = delete;
  RecentMarks& operator=(const RecentMarks&) = delete;

  // Whether `ids` were marked less than `kept` ago (in any order).
  bool marked(const std::vector<long long>& ids) {
    const std::vector<long long> key = sorted(ids);
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = marks_.find(key);
    return it != marks_.end() && Clock::now() - it->second < kept_;
  }

  void mark(const std::vector<long long>& ids) {
    std::vector<long long> key = sorted(ids);
    const std::lock_guard<std::mutex> lock(mutex_);
    if (marks_.size() >= max_marks_) marks_.clear();
    marks_[std::move(key)] = Clock::now();
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
  std::map<std::vector<long long>, Clock::time_point> marks_;
};

}  // namespace cal
