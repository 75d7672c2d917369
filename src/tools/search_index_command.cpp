// `calendarctl search-index` (search_index_command.h).
#include "search_index_command.h"

#include "cal/core/text/search_words.h"
#include "cal/store/db.h"
#include "cal/store/search_index.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <thread>

namespace cal {
namespace {

constexpr long long kBatch = 500;
// Batches tried again after a deadlock or a lock wait (see index_all_pending()).
constexpr int kConflictTries = 4;

std::string code_point_list(const std::vector<char32_t>& cps) {
  std::string out;
  for (char32_t c : cps) {
    char hex[16];
    std::snprintf(hex, sizeof hex, " U+%04X", static_cast<unsigned>(c));
    out += hex;
  }
  return out;
}

int check(const Config& config) {
  Db db(config.database);
  const std::vector<char32_t> server = server_search_separators(db);
  const std::vector<char32_t>& ours = search_separators();
  std::vector<char32_t> missing, extra;
  std::set_difference(server.begin(), server.end(), ours.begin(), ours.end(), std::back_inserter(missing));
  std::set_difference(ours.begin(), ours.end(), server.begin(), server.end(), std::back_inserter(extra));
  if (missing.empty() && extra.empty()) {
    std::cout << "search-index: the server's utf8mb4_unicode_ci separates words at the same " << ours.size()
              << " characters as the service\n";
    return 0;
  }
  std::cout << "search-index: the server's collation differs; searches may miss events until this "
               "service is built for it\n";
  if (!missing.empty()) std::cout << "  separators only on the server:" << code_point_list(missing) << "\n";
  if (!extra.empty()) std::cout << "  separators only in the service:" << code_point_list(extra) << "\n";
  return 1;
}

int rebuild(const Config& config) {
  Db db(config.database);
  const auto start = std::chrono::steady_clock::now();
  const long long n = rebuild_search_index(db, kBatch, [&](long long done, long long total) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cerr << "\rsearch-index: " << done << " of " << total << " events, "
              << static_cast<long long>(done / s) << "/s" << std::flush;
  });
  std::cerr << "\n";
  std::cout << "search-index: " << n << " events indexed\n";
  return 0;
}

}  // namespace

long long index_all_pending(const Config& config) {
  Db db(config.database);
  long long total = 0;
  for (int conflicts = 0;;) {
    long long n = 0;
    try {
      Transaction tx(db);
      n = index_pending_events(db, kBatch, 0);
      tx.commit();
    } catch (const DatabaseConflict&) {
      // A running service writes meanwhile (its indexer, a write's day counts) and holds what
      // the batch needs: again shortly. Pending is a state searches handle (LIKE), so past a
      // few tries the rest is left to the service's indexer or the next run, not a failure.
      if (++conflicts > kConflictTries) {
        std::cerr << "calendarctl: events left pending: a writer held what indexing them needed "
                     "(the service's indexer or the next migrate indexes them)\n";
        return total;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50 << conflicts));
      continue;
    }
    if (n == 0) return total;
    total += n;
  }
}

int run_search_index(const Config& config, const std::vector<std::string>& positional) {
  if (positional.size() == 2 && positional[1] == "check") return check(config);
  if (positional.size() == 2 && positional[1] == "rebuild") return rebuild(config);
  std::cerr << "calendarctl: search-index takes check or rebuild\n(see calendarctl --help)\n";
  return 2;
}

}  // namespace cal
