// The search indexer (see cal/api/events/search_indexer.h).
#include "cal/api/events/search_indexer.h"

#include "cal/store/db.h"
#include "cal/store/search_index.h"

#include <atomic>
#include <chrono>
#include <iostream>

namespace cal {
namespace {

// Events a transaction indexes: large enough that a burst of writes shares few statements, small
// enough that the locks on their pending rows are held for milliseconds.
constexpr long long kBatch = 200;

// The least time from the end of one round to the start of the next. A round costs about a dozen
// statements however few events it takes: under a steady stream of writes, rounds run back to
// back with a couple of events each, and those statements cost the writes more than the words
// themselves. Waiting gathers the events of this long into one round; meanwhile searches find
// them with LIKE, as every pending event. The first write after a quiet spell is indexed at once.
constexpr std::chrono::milliseconds kGathering{100};

std::atomic<SearchIndexer*> g_indexer{nullptr};

}  // namespace

SearchIndexer* search_indexer() { return g_indexer.load(std::memory_order_acquire); }
void set_search_indexer(SearchIndexer* indexer) { g_indexer.store(indexer, std::memory_order_release); }

SearchIndexer::SearchIndexer(const Config& config) : config_(config), thread_([this] { run(); }) {}

SearchIndexer::~SearchIndexer() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void SearchIndexer::wake() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    woken_ = true;
  }
  wake_.notify_one();
}

bool SearchIndexer::index_all(Db& db) {
  for (int conflicts = 0;;) {
    try {
      Transaction tx(db);
      const long long n = index_pending_events(db, kBatch, 0);
      tx.commit();
      if (n < kBatch) return true;
    } catch (const DatabaseConflict&) {
      // A writer holds what the batch needs (a deadlock or a lock wait): again shortly, else in
      // a second.
      if (++conflicts > 3) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(10 << conflicts));
    } catch (const DatabaseUnavailable& e) {
      std::cerr << "calendar-fcgi: search indexer: database unavailable: " << e.detail << "\n";
      db.reset();
      return false;
    } catch (const std::exception& e) {
      std::cerr << "calendar-fcgi: search indexer: " << e.what() << "\n";
      db.reset();
      return false;
    } catch (...) {
      // Whatever else a statement throws (cal/store/db.h): the thread lives on, the events stay
      // pending and searches keep finding them with LIKE.
      std::cerr << "calendar-fcgi: search indexer: a batch failed\n";
      db.reset();
      return false;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (stop_) return true;
  }
}

void SearchIndexer::run() {
  Db db(config_.database);
  std::unique_lock<std::mutex> lock(mutex_);
  std::chrono::steady_clock::time_point round_ended{};
  while (!stop_) {
    if (!woken_) {
      wake_.wait(lock, [this] { return stop_ || woken_; });
      continue;
    }
    if (wake_.wait_until(lock, round_ended + kGathering, [this] { return stop_; })) break;
    woken_ = false;
    lock.unlock();
    const bool done = index_all(db);
    round_ended = std::chrono::steady_clock::now();
    lock.lock();
    // After a failure the pending events wait a second (or the next write) for another try.
    if (!done) wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stop_ || woken_; });
    if (!done) woken_ = true;
  }
}

}  // namespace cal
