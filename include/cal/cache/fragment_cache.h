// The fragment cache: each record's rendered JSON (an event with its venue, organizers, terms and
// images), kept in memory so that lists and single reads that show it again write it without
// reading its relations or rendering it (docs/performance.md); and the rows of those venues,
// organizers, terms and images, so that records rendered later read their links only
// (cal/store/event_relations.h). Never stale: it is kept in step
// with the change log by the same data version reads as the response cache
// (cal/store/data_version.h), and a fragment is dropped by any logged change of a record it shows.
// Bounded: least recently used fragments are evicted to stay within a byte budget. Their JSON is
// kept zstd-compressed against a dictionary trained on the first records (as the response cache's
// bodies, cal/cache/body_compressor.h): a 5 KB event record takes about a fifth, so the budget
// holds about five times as many records and a site's whole calendar stays rendered. Thread-safe.
#pragma once

#include "cal/cache/body_compressor.h"
#include "cal/store/data_version.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace cal {

// A place in a fragment's JSON left for term records, filled whenever the fragment is written
// out: a term's record shows its count, which every write of an event carrying it changes, so a
// record that held its terms would be dropped with each such write.
struct TermSplice {
  std::size_t at = 0;          // offset in the JSON: inside an empty array
  std::vector<long long> ids;  // the terms shown there
};

// One rendered record and what it was made of.
struct Fragment {
  std::string json;  // the record, one complete JSON value, with empty arrays where `splices` go
  // The posts (events, venues, organizers, images) and terms it shows: a logged change of any of
  // them drops it, and an answer that writes it depends on them (cal/store/read_set.h).
  std::vector<long long> posts;
  std::vector<long long> terms;
  // In offset order. The terms written into them are not in `terms`: their changes leave the
  // fragment as it is, yet an answer that writes it depends on them.
  std::vector<TermSplice> splices;
  // What the renderer keeps beside the JSON for its own checks (e.g. the post row a single read's
  // access checks read); opaque to the cache, counted as `source_bytes`.
  std::shared_ptr<const void> source;
  std::size_t source_bytes = 0;
};

class FragmentCache {
 public:
  // `max_bytes` 0: off (find() always misses, store() keeps nothing).
  explicit FragmentCache(std::size_t max_bytes = 0);
  FragmentCache(const FragmentCache&) = delete;
  FragmentCache& operator=(const FragmentCache&) = delete;

  // Changes the budget (evicting down to it); call before the worker threads start.
  void set_max_bytes(std::size_t max_bytes);
  bool enabled() const { return max_bytes_ > 0; }

  // Incremented by every apply() that dropped or could have dropped fragments. A renderer takes
  // it before reading the rows it renders, and hands it to store().
  std::uint64_t epoch() const;

  // Drops the fragments that show a record of `changes`, all of them when the changes are unknown
  // (nullopt) or one is kAll. Called with each data version read, in commit order, before any
  // request that read that version looks a fragment up.
  void apply(const std::optional<std::vector<DataChange>>& changes);
  // The same for a data version read: its changes, or all of them once the database's clock has
  // reached the scheduled post date (`next_change`) of the version applied before, or when the
  // scheduled posts already due are others (DataVersion::due). From then on such a post reads as
  // published, or no more, and the terms it carries count it or not, which no change logs.
  void apply(const DataVersion& version);

  // The fragment under `key` (its JSON decompressed), or null; counted as a hit or a miss.
  std::shared_ptr<const Fragment> find(const std::string& key);
  // The fragments under `keys`, in their order (null where none is kept), under one lock: a list
  // page looks up all its records at once.
  std::vector<std::shared_ptr<const Fragment>> find_all(const std::vector<std::string>& keys);
  // As find(), for a fragment that is no record but rows records are rendered from (a venue an
  // event shows): counted apart, so that the hits and misses above stay the records'.
  std::shared_ptr<const Fragment> find_row(const std::string& key);

  // Keeps `fragment` under `key`, rendered from rows read after epoch() returned `epoch`; dropped
  // instead when a change applied since then touched it (or those changes are no longer known),
  // or when it alone exceeds an eighth of the budget.
  void store(const std::string& key, std::uint64_t epoch, Fragment fragment);

  struct Stats {
    std::size_t entries = 0, bytes = 0, max_bytes = 0;
    std::size_t compressed = 0;  // entries whose JSON is kept compressed
    unsigned long long hits = 0, misses = 0;
    unsigned long long row_hits = 0, row_misses = 0;  // of find_row()
    unsigned long long evictions = 0;                 // dropped to stay within the budget
    unsigned long long invalidations = 0;             // dropped by a change
    unsigned long long index_rebuilds = 0;            // the indexes rebuilt to shed entries gone
  };
  Stats stats() const;

 private:
  struct Entry {
    std::string key;
    // When `raw_size` is not 0, the fragment's json is compressed and decompresses to that many bytes.
    std::shared_ptr<const Fragment> fragment;
    std::size_t raw_size = 0;
    std::size_t bytes = 0;
    std::uint64_t serial = 0;
  };
  struct Found {
    std::shared_ptr<const Fragment> fragment;
    std::size_t raw_size = 0;
  };
  using Lru = std::list<Entry>;  // most recently used first
  using Serials = std::vector<std::uint64_t>;
  struct Applied {
    std::uint64_t epoch = 0;
    std::vector<DataChange> changes;
  };

  void apply_locked(const std::optional<std::vector<DataChange>>& changes);
  Found find_locked(const std::string& key, bool row = false);
  // The fragment as stored, with its JSON decompressed outside the lock; null when that fails.
  std::shared_ptr<const Fragment> unpacked(Found found) const;
  static bool touches(const Fragment& fragment, const DataChange& change);
  bool unchanged_since_locked(std::uint64_t epoch, const Fragment& fragment) const;
  void clear_locked();
  void erase_locked(Lru::iterator it);
  void drop_locked(Serials& serials);
  void evict_locked();
  void rebuild_indexes_locked();

  std::size_t max_bytes_;
  BodyCompressor compressor_;
  mutable std::mutex mutex_;
  Lru lru_;
  std::unordered_map<std::string_view, Lru::iterator> index_;  // views into Entry::key
  std::unordered_map<std::uint64_t, Lru::iterator> by_serial_;
  // Entries by what they show. Serials of entries gone since stay until their record changes or
  // the indexes are rebuilt (when the serials of entries gone outnumber the live ones).
  std::unordered_map<long long, Serials> by_post_, by_term_;
  std::size_t indexed_ = 0;
  std::size_t live_indexed_ = 0;  // of them, the serials of entries still held
  unsigned long long index_rebuilds_ = 0;
  std::uint64_t serial_ = 0;
  std::uint64_t epoch_ = 0;
  long long next_change_ = std::numeric_limits<long long>::max();  // of the last version applied
  std::optional<DueScheduled> due_;                                // of the last version applied
  std::deque<Applied> recent_;  // the last applies' changes, oldest first, for store()
  std::size_t bytes_ = 0;
  std::size_t compressed_ = 0;
  unsigned long long hits_ = 0, misses_ = 0, evictions_ = 0, invalidations_ = 0;
  unsigned long long row_hits_ = 0, row_misses_ = 0;
};

// One request's use of a fragment cache: the cache (null: none) and its epoch() taken after the
// request's data version was applied and before the request read a row.
struct FragmentUse {
  FragmentCache* cache = nullptr;
  std::uint64_t epoch = 0;
};

}  // namespace cal
