// The search indexer of a long-running process (docs/search.md, "Keeping it current"): writes of
// one-off events through the API leave their event pending (the triggers mark it, as for a write
// by hand) and wake this thread once committed; it indexes every pending event in batches, in
// transactions of its own, on its own connection. Searches stay exact meanwhile: they test a
// pending event with LIKE. A write's own transaction then carries none of the index's statements,
// and the indexer's rounds, at least a tenth of a second apart, share theirs among the events
// that came in meanwhile. A CGI
// process has no indexer: its write indexes inline, as series writes always do (their
// occurrences copy the series' postings).
#pragma once

#include "cal/core/config.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace cal {

class SearchIndexer {
 public:
  // Starts the thread, which first indexes whatever is pending (writes by hand, or those of a
  // process that stopped before its indexer got to them).
  explicit SearchIndexer(const Config& config);
  ~SearchIndexer();  // finishes the batch under way, stops and joins the thread
  SearchIndexer(const SearchIndexer&) = delete;
  SearchIndexer& operator=(const SearchIndexer&) = delete;

  // Something was written: index what is pending. Cheap; never waits for the indexer.
  void wake();

 private:
  void run();
  // Indexes batches until nothing is pending; false when the database failed (retried later).
  bool index_all(class Db& db);

  const Config& config_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool woken_ = true;
  bool stop_ = false;
  std::thread thread_;
};

// The process's indexer, or nullptr (CGI mode, [search] index = false, before start and after
// stop): event writes index inline without one.
SearchIndexer* search_indexer();
void set_search_indexer(SearchIndexer* indexer);

}  // namespace cal
