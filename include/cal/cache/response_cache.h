// The response cache of the FastCGI service: 200 answers to GET/HEAD, kept in memory and served
// again only while provably identical to what the handler would compute, so a repeated read costs
// one shared version check instead of its statements (docs/performance.md). Thread-safe.
#pragma once

#include "cal/cache/body_compressor.h"
#include "cal/cache/fragment_cache.h"
#include "cal/cache/version_flights.h"
#include "cal/core/dates/clock_use.h"
#include "cal/http/request.h"
#include "cal/store/data_version.h"
#include "cal/store/read_set.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>

#include <condition_variable>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace cal {

// When a stored response was computed: what find() checks it against.
struct CacheValidity {
  DataVersion version;      // read before the computation started
  ClockUse clock;           // what the computation recorded about the time it read
  std::uint64_t epoch = 0;  // the cache's epoch() when that version was applied
};

// A stored answer: status 200, its headers (ETag and Cache-Control included) and body.
struct CachedResponse {
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string etag;
};

// Validity, checked on every lookup against a DataVersion read for that request (one round
// trip, shared by concurrent requests: cal/cache/version_flights.h; cal/store/data_version.h):
//  - data: each read of the version brings the records changed since the previous
//    one, logged by triggers inside every writing transaction, whoever writes; apply() drops the
//    answers that read one of them (cal/store/read_set.h) and the lists of their family: a new
//    tag leaves the events' answers alone, an edited venue drops the events that embed it and
//    the lists of venues and events. Settings and users, an answer that read no record, and a
//    read that cannot tell what changed (a pruned log, a bulk load) empty the whole cache.
//  - scheduled posts: the database clock must still be before the first `future` post that was
//    due after the computation started (such posts then read as `publish`).
//  - the clock: a response whose computation read the current time is served only while what
//    it read still holds (cal/core/dates/clock_use.h): until the next site-local midnight for the
//    default date window of /events, within the same second for relative dates, and within the
//    same second of the database's clock for SQL that reads it ("upcoming" filters).
// The key is everything of the request a visitor's answer may depend on (method, scheme, host,
// mount point, path, raw query, language inputs, forwarded-host headers); an authenticated
// caller's answer is kept under a key that also holds the caller, once the credentials are
// checked (src/api/pipeline/response_cache_use.h). Entries are evicted least recently used first
// to stay within a byte budget. Bodies up to 16 KiB (single records, short lists: most entries)
// are kept zstd-compressed (cal/cache/body_compressor.h); larger bodies (few, hot list pages) are
// kept as they are, so the hottest answers cost no decompression. Identical header sets are
// stored once. Identical misses since the last apply() are computed once (find()).
class ResponseCache {
 public:
  // `max_bytes`: the budget for keys, headers and bodies together.
  explicit ResponseCache(std::size_t max_bytes);
  ~ResponseCache();
  ResponseCache(const ResponseCache&) = delete;
  ResponseCache& operator=(const ResponseCache&) = delete;

  // The cache key of a visitor's request, or "" when its answer must not be cached this way (not
  // GET/HEAD, or it carries credentials).
  static std::string key_of(const Request& request);
  // The cache key of an authenticated caller's GET/HEAD ("" for other methods): the request's
  // inputs without its credentials, and `principal`, everything of the caller an answer depends
  // on (who it is and its role), so a key is never shared by callers who may see differently.
  static std::string key_of(const Request& request, std::string_view principal);

  // The right to compute the answer for a key that find() missed; released (waking the
  // requests that wait for that answer) when destroyed, after store() if the answer is kept.
  class Claim {
   public:
    Claim() = default;
    Claim(const Claim&) = delete;
    Claim& operator=(const Claim&) = delete;
    ~Claim();

   private:
    friend class ResponseCache;
    struct Flight;
    ResponseCache* cache_ = nullptr;
    std::string key_;
    std::shared_ptr<Flight> flight_;
  };

  // The counters the next version read starts from (the changes after them are what apply()
  // needs), or nullopt before the first.
  std::optional<ShardVersions> applied() const;

  // Drops what the changes of `now` touched (all answers when they are unknown) and makes `now`
  // the applied version. Called by the thread that read it before any later read starts
  // (VersionFlights has one in the air at a time), so changes apply in commit order.
  void apply(const DataVersion& now);

  // Incremented by every apply() that dropped or could have dropped answers.
  std::uint64_t epoch() const;

  // Counters applied at least `age` before `now` and not handed out in the last minute: the log
  // up to them is no longer needed by this cache (cal/store/data_version.h prune_data_changes).
  std::optional<ShardVersions> prunable(std::chrono::steady_clock::time_point now, std::chrono::seconds age);

  // The stored answer for `key`, into `out`, if it is valid at `now` (read just before) and
  // `local_now` (the service's clock): true. On a miss, when another request is computing the same key
  // since the last apply(), waits for it and looks again: a burst of identical requests after a write costs
  // one computation (at a million events a list costs seconds). A miss sets `claim` when this request is now
  // the one computing the key; after a wait that brought no answer (an error, say), it is not set and the
  // waiters compute side by side. A `claim` that already holds `key` (a request looking again, as a retry
  // after a lost connection does) is a miss at once: it never waits for itself; one that holds another key
  // lets it go first.
  bool find(const std::string& key, const DataVersion& now, Seconds local_now, CachedResponse& out,
            Claim& claim);

  // Stores an answer computed under `validity` from what `read` lists; dropped when a change
  // applied since touched it (or is no longer known), or when the answer alone exceeds a
  // quarter of the budget.
  void store(const std::string& key, const CacheValidity& validity, const ReadSet& read,
             CachedResponse response);

  // The shared reads of the data version that find() is checked against.
  VersionFlights& versions() { return versions_; }

  // The rendered records of the same server's data, kept in step by the same version reads
  // (src/api/pipeline/response_cache_use.cpp applies each to both); off until given a budget.
  FragmentCache& fragments() { return fragments_; }
  const FragmentCache& fragments() const { return fragments_; }

  // Counters for tests and the log.
  struct Stats {
    std::size_t entries = 0, bytes = 0, compressed = 0;
    unsigned long long hits = 0, misses = 0;
    unsigned long long evictions = 0;  // entries dropped to stay within the budget
    // Data version reads made (round trips), and lookups that rested on the lease instead.
    unsigned long long version_reads = 0, leased = 0;
    unsigned long long index_rebuilds = 0;  // the dependency indexes rebuilt to shed dropped entries
  };
  Stats stats() const;

 private:
  using Headers = std::vector<std::pair<std::string, std::string>>;
  // An answer as kept: the body compressed when `raw_size` is set.
  struct Stored {
    std::shared_ptr<const Headers> headers;  // shared by entries with the same set
    std::string etag;
    std::string data;
    std::size_t raw_size = 0;  // 0: `data` is the body itself
  };
  // What an answer depends on, deduplicated; `everything` when it read no record.
  struct Dependencies {
    std::vector<long long> posts, terms;
    unsigned lists = 0;
    bool everything = false;
  };
  struct Entry {
    std::string key;
    CacheValidity validity;
    std::shared_ptr<const Stored> stored;
    std::size_t bytes = 0;
    std::uint64_t serial = 0;  // names the entry in the dependency indexes
    Dependencies deps;
    std::size_t indexed = 0;  // serials it put into the indexes
  };
  using Lru = std::list<Entry>;  // most recently used first
  using Serials = std::vector<std::uint64_t>;
  // The changes of one apply(), kept a while for store() of answers computed before it.
  struct AppliedChanges {
    std::uint64_t epoch = 0;
    std::vector<DataChange> changes;
  };

  void release(Claim& claim);
  void clear_locked();
  void erase_locked(Lru::iterator it);
  // Whether an entry computed under `v` may be served at `now` / `local_now`.
  static bool still_valid(const CacheValidity& v, const DataVersion& now, Seconds local_now);
  static bool touches(const Dependencies& deps, const DataChange& change);
  // Whether no change applied after `epoch` touched `deps` (false when they are not known).
  bool unchanged_since_locked(std::uint64_t epoch, const Dependencies& deps) const;
  void invalidate_locked(const DataChange& change);
  void drop_locked(Serials& serials);
  void index_locked(Entry& entry);
  void rebuild_indexes_locked();

  const std::size_t max_bytes_;
  VersionFlights versions_;
  FragmentCache fragments_;
  BodyCompressor compressor_;
  mutable std::mutex mutex_;
  std::shared_ptr<const Headers> last_headers_;  // the most recent set, for sharing
  Lru lru_;
  std::unordered_map<std::string_view, Lru::iterator> index_;  // views into Entry::key
  std::optional<ShardVersions> applied_;
  std::uint64_t epoch_ = 0;
  std::deque<AppliedChanges> recent_;  // the last applies' changes, oldest first
  std::uint64_t serial_ = 0;
  std::unordered_map<std::uint64_t, Lru::iterator> by_serial_;
  // Entries by what they read. Serials of evicted entries stay until their list is dropped or
  // the indexes are rebuilt (when the serials of entries gone outnumber the live ones).
  std::unordered_map<long long, Serials> by_post_, by_term_;
  std::array<Serials, 4> by_list_;  // by ListFamily bit
  Serials by_anything_;             // entries that depend on everything
  std::size_t indexed_ = 0;         // serials in the indexes
  std::size_t live_indexed_ = 0;    // of them, the serials of entries still held
  unsigned long long index_rebuilds_ = 0;
  // Counters applied, once a minute, for prunable().
  std::deque<std::pair<std::chrono::steady_clock::time_point, ShardVersions>> applied_at_;
  std::chrono::steady_clock::time_point last_prune_{};
  std::unordered_map<std::string, std::shared_ptr<Claim::Flight>> computing_;  // claimed keys
  std::condition_variable computed_;                                           // a claim was released
  std::size_t bytes_ = 0;
  std::size_t compressed_ = 0;
  unsigned long long hits_ = 0, misses_ = 0, evictions_ = 0;
};

}  // namespace cal
