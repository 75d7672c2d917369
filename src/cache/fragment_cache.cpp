// The fragment cache (see cal/cache/fragment_cache.h).
#include "cal/cache/fragment_cache.h"

#include <algorithm>

namespace cal {
namespace {

// The last applies kept for store(): a renderer slower than this many changed versions stores
// nothing (its fragments may predate a change it can no longer check).
constexpr std::size_t kRecentApplies = 64;
constexpr std::size_t kRecentChanges = 16384;

// What an entry costs beyond its bytes: the list node, the index slots, the shared block.
constexpr std::size_t kEntryOverhead = 160;

std::size_t entry_bytes(const std::string& key, const Fragment& f) {
  std::size_t spliced = 0;
  for (const TermSplice& s : f.splices) spliced += sizeof(TermSplice) + s.ids.size() * sizeof(long long);
  return key.size() + f.json.size() + (f.posts.size() + f.terms.size()) * 2 * sizeof(long long) + spliced +
         f.source_bytes + kEntryOverhead;
}

// The serials a fragment puts into the indexes: one under each record it shows.
std::size_t serials_of(const Fragment& f) { return f.posts.size() + f.terms.size(); }

}  // namespace

FragmentCache::FragmentCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

void FragmentCache::set_max_bytes(std::size_t max_bytes) {
  std::lock_guard lock(mutex_);
  max_bytes_ = max_bytes;
  evict_locked();
}

std::uint64_t FragmentCache::epoch() const {
  std::lock_guard lock(mutex_);
  return epoch_;
}

bool FragmentCache::touches(const Fragment& fragment, const DataChange& change) {
  switch (change.kind) {
    case ChangeKind::kAll:
      return true;
    case ChangeKind::kTerm:
      return std::find(fragment.terms.begin(), fragment.terms.end(), change.id) != fragment.terms.end();
    default:  // events, venues, organizers and images are all posts
      return std::find(fragment.posts.begin(), fragment.posts.end(), change.id) != fragment.posts.end();
  }
}

void FragmentCache::apply(const std::optional<std::vector<DataChange>>& changes) {
  std::lock_guard lock(mutex_);
  apply_locked(changes);
}

void FragmentCache::apply(const DataVersion& version) {
  std::lock_guard lock(mutex_);
  const bool came_due = version.db_now >= next_change_ || (due_ && *due_ != version.due);
  next_change_ = version.next_change;
  due_ = version.due;
  apply_locked(came_due ? std::nullopt : version.changes);
}

void FragmentCache::apply_locked(const std::optional<std::vector<DataChange>>& changes) {
  if (changes && changes->empty()) return;
  ++epoch_;
  const bool everything = !changes || std::any_of(changes->begin(), changes->end(), [](const DataChange& c) {
    return c.kind == ChangeKind::kAll;
  });
  Applied applied{epoch_, {}};
  if (everything) {
    invalidations_ += lru_.size();
    clear_locked();
    applied.changes.push_back(DataChange{ChangeKind::kAll, 0});
  } else {
    for (const DataChange& c : *changes) {
      auto& index = c.kind == ChangeKind::kTerm ? by_term_ : by_post_;
      if (const auto it = index.find(c.id); it != index.end()) {
        drop_locked(it->second);
        index.erase(it);
      }
    }
    applied.changes = *changes;
  }
  recent_.push_back(std::move(applied));
  std::size_t kept = 0;
  for (const Applied& a : recent_) kept += a.changes.size();
  while (recent_.size() > kRecentApplies || (recent_.size() > 1 && kept > kRecentChanges)) {
    kept -= recent_.front().changes.size();
    recent_.pop_front();
  }
}

bool FragmentCache::unchanged_since_locked(std::uint64_t epoch, const Fragment& fragment) const {
  if (epoch == epoch_) return true;
  if (epoch > epoch_) return false;  // an epoch this cache never handed out
  // Every apply after `epoch` must still be known: the oldest kept is the one right after it or
  // earlier.
  if (recent_.empty() || recent_.front().epoch > epoch + 1) return false;
  for (const Applied& a : recent_) {
    if (a.epoch <= epoch) continue;
    for (const DataChange& c : a.changes)
      if (touches(fragment, c)) return false;
  }
  return true;
}

std::shared_ptr<const Fragment> FragmentCache::find(const std::string& key) {
  Found found;
  {
    std::lock_guard lock(mutex_);
    found = find_locked(key);
  }
  return unpacked(std::move(found));
}

std::shared_ptr<const Fragment> FragmentCache::find_row(const std::string& key) {
  Found found;
  {
    std::lock_guard lock(mutex_);
    found = find_locked(key, true);
  }
  return unpacked(std::move(found));
}

std::vector<std::shared_ptr<const Fragment>> FragmentCache::find_all(const std::vector<std::string>& keys) {
  std::vector<Found> found;
  found.reserve(keys.size());
  {
    std::lock_guard lock(mutex_);
    for (const std::string& key : keys) found.push_back(find_locked(key));
  }
  std::vector<std::shared_ptr<const Fragment>> out;
  out.reserve(keys.size());
  for (Found& f : found) out.push_back(unpacked(std::move(f)));
  return out;
}

FragmentCache::Found FragmentCache::find_locked(const std::string& key, bool row) {
  if (max_bytes_ == 0) return {};
  const auto it = index_.find(key);
  if (it == index_.end()) {
    ++(row ? row_misses_ : misses_);
    return {};
  }
  ++(row ? row_hits_ : hits_);
  lru_.splice(lru_.begin(), lru_, it->second);
  return {it->second->fragment, it->second->raw_size};
}

std::shared_ptr<const Fragment> FragmentCache::unpacked(Found found) const {
  if (!found.fragment || found.raw_size == 0) return std::move(found.fragment);
  auto copy = std::make_shared<Fragment>();
  if (!compressor_.decompress(found.fragment->json, found.raw_size, copy->json)) return nullptr;
  copy->posts = found.fragment->posts;
  copy->terms = found.fragment->terms;
  copy->splices = found.fragment->splices;
  copy->source = found.fragment->source;
  copy->source_bytes = found.fragment->source_bytes;
  return copy;
}

void FragmentCache::store(const std::string& key, std::uint64_t epoch, Fragment fragment) {
  if (max_bytes_ == 0) return;
  // Compressed before the lock is taken: the only part of a store that takes time.
  std::size_t raw_size = 0;
  if (std::string packed; compressor_.compress(fragment.json, packed)) {
    raw_size = fragment.json.size();
    fragment.json = std::move(packed);
  }
  const std::size_t bytes = entry_bytes(key, fragment);
  std::lock_guard lock(mutex_);
  if (max_bytes_ == 0 || bytes > max_bytes_ / 8) return;
  if (!unchanged_since_locked(epoch, fragment)) return;
  if (const auto old = index_.find(key); old != index_.end()) erase_locked(old->second);
  auto shared = std::make_shared<const Fragment>(std::move(fragment));
  lru_.push_front(Entry{key, shared, raw_size, bytes, ++serial_});
  const auto it = lru_.begin();
  index_.emplace(it->key, it);
  by_serial_.emplace(it->serial, it);
  for (long long id : shared->posts) by_post_[id].push_back(it->serial);
  for (long long id : shared->terms) by_term_[id].push_back(it->serial);
  indexed_ += serials_of(*shared);
  live_indexed_ += serials_of(*shared);
  bytes_ += bytes;
  compressed_ += raw_size ? 1 : 0;
  evict_locked();
  // Proportional to the serials of entries gone: each store then pays a constant share.
  if (indexed_ > 2 * live_indexed_ + 4096) rebuild_indexes_locked();
}

FragmentCache::Stats FragmentCache::stats() const {
  std::lock_guard lock(mutex_);
  return Stats{lru_.size(), bytes_,      max_bytes_, compressed_,    hits_,          misses_,
               row_hits_,   row_misses_, evictions_, invalidations_, index_rebuilds_};
}

void FragmentCache::clear_locked() {
  lru_.clear();
  index_.clear();
  by_serial_.clear();
  by_post_.clear();
  by_term_.clear();
  indexed_ = 0;
  live_indexed_ = 0;
  bytes_ = 0;
  compressed_ = 0;
}

void FragmentCache::erase_locked(Lru::iterator it) {
  live_indexed_ -= serials_of(*it->fragment);
  bytes_ -= it->bytes;
  compressed_ -= it->raw_size ? 1 : 0;
  index_.erase(it->key);
  by_serial_.erase(it->serial);
  lru_.erase(it);
}

void FragmentCache::drop_locked(Serials& serials) {
  indexed_ -= std::min(indexed_, serials.size());
  for (std::uint64_t serial : serials)
    if (const auto it = by_serial_.find(serial); it != by_serial_.end()) {
      ++invalidations_;
      erase_locked(it->second);
    }
  serials.clear();
}

void FragmentCache::evict_locked() {
  while (bytes_ > max_bytes_ && !lru_.empty()) {
    ++evictions_;
    erase_locked(std::prev(lru_.end()));
  }
}

void FragmentCache::rebuild_indexes_locked() {
  by_post_.clear();
  by_term_.clear();
  ++index_rebuilds_;
  for (const Entry& e : lru_) {
    for (long long id : e.fragment->posts) by_post_[id].push_back(e.serial);
    for (long long id : e.fragment->terms) by_term_[id].push_back(e.serial);
  }
  indexed_ = live_indexed_;
}

}  // namespace cal
