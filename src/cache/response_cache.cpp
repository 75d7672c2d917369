// The response cache (see cal/cache/response_cache.h).
#include "cal/cache/response_cache.h"

#include "cal/core/text/ascii.h"
#include "cal/http/accept.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace cal {
namespace {

// Bookkeeping per entry beyond its strings: list node, index node and bucket, the shared
// control block and Stored, malloc headers.
constexpr std::size_t kEntryOverhead = 320;

bool is_get_or_head(std::string_view method) {
  return ascii::iequals(method, "GET") || ascii::iequals(method, "HEAD");
}

// Applies kept for answers still being computed: a list takes well under a second, and a
// thousand applies take longer at any load that reaches them.
constexpr std::size_t kRecentApplies = 1024;

// The lists a change of each kind may reshape. Venues, organizers and terms filter and embed
// in event lists; an image only appears inside its records.
unsigned lists_changed_by(ChangeKind kind) {
  const auto bit = [](ListFamily f) { return static_cast<unsigned>(f); };
  switch (kind) {
    case ChangeKind::kEvent:
      return bit(ListFamily::kEvents);
    case ChangeKind::kVenue:
      return bit(ListFamily::kVenues) | bit(ListFamily::kEvents);
    case ChangeKind::kOrganizer:
      return bit(ListFamily::kOrganizers) | bit(ListFamily::kEvents);
    case ChangeKind::kTerm:
      return bit(ListFamily::kTerms) | bit(ListFamily::kEvents);
    case ChangeKind::kAttachment:
      return 0;
    case ChangeKind::kAll:
      break;
  }
  return ~0u;
}

std::vector<long long> sorted_unique(std::vector<long long> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

bool contains(const std::vector<long long>& sorted, long long id) {
  return std::binary_search(sorted.begin(), sorted.end(), id);
}

// Every input the pipeline reads for a GET but the credentials, separated by a byte no header or
// CGI variable contains. HEAD shares GET's entry (same headers, body not sent).
std::string request_key(const Request& r) {
  std::string key;
  key.reserve(r.host.size() + r.script_name.size() + r.path.size() + r.query_string.size() + 64);
  for (const std::string* part :
       {&r.scheme, &r.host, &r.script_name, &r.path, &r.query_string, &r.site_locale,
        &r.header("accept-language"), &r.header("x-forwarded-proto"), &r.header("x-forwarded-host")}) {
    key += *part;
    key += '\n';
  }
  // Of Accept only what the pipeline reads (an iCalendar feed or JSON): browsers'
  // many Accept values share their JSON entries.
  if (prefers_calendar(r.header("accept"))) key += "text/calendar\n";
  return key;
}

}  // namespace

ResponseCache::ResponseCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

ResponseCache::~ResponseCache() = default;

std::string ResponseCache::key_of(const Request& r) {
  if (!is_get_or_head(r.method) || !r.header("authorization").empty()) return {};
  return request_key(r);
}

std::string ResponseCache::key_of(const Request& r, std::string_view principal) {
  if (!is_get_or_head(r.method)) return {};
  // After the request's last newline (no part holds one): a visitor's key ends at it, and no two
  // principals share a key.
  std::string key = request_key(r);
  key += '\x01';
  key += principal;
  return key;
}

bool ResponseCache::touches(const Dependencies& deps, const DataChange& change) {
  if (deps.everything || change.kind == ChangeKind::kAll) return true;
  if (deps.lists & lists_changed_by(change.kind)) return true;
  return change.kind == ChangeKind::kTerm ? contains(deps.terms, change.id) : contains(deps.posts, change.id);
}

bool ResponseCache::still_valid(const CacheValidity& v, const DataVersion& now, Seconds local_now) {
  if (now.db_now >= v.version.next_change) return false;  // a scheduled post came due
  if (now.due != v.version.due) return false;             // a write moved one in or out of the past
  if (v.clock.valid_until && local_now >= *v.clock.valid_until) return false;
  return true;
}

// One computation of a key at a data version.
struct ResponseCache::Claim::Flight {
  std::uint64_t epoch = 0;
  bool done = false;
};

ResponseCache::Claim::~Claim() {
  if (cache_) cache_->release(*this);
}

void ResponseCache::release(Claim& claim) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    claim.flight_->done = true;
    if (const auto it = computing_.find(claim.key_); it != computing_.end() && it->second == claim.flight_)
      computing_.erase(it);
  }
  computed_.notify_all();
}

bool ResponseCache::find(const std::string& key, const DataVersion& now, Seconds local_now,
                         CachedResponse& out, Claim& claim) {
  if (claim.cache_ == this) {
    if (claim.key_ == key) return false;
    release(claim);  // a claim moves to the new key: the old one's waiters compute it themselves
    claim.cache_ = nullptr;
    claim.flight_.reset();
  }
  std::shared_ptr<const Stored> stored;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    for (bool waited = false;; waited = true) {
      if (const auto found = index_.find(key); found != index_.end()) {
        const Lru::iterator it = found->second;
        if (still_valid(it->validity, now, local_now)) {
          lru_.splice(lru_.begin(), lru_, it);
          ++hits_;
          stored = it->stored;
          break;
        }
        erase_locked(it);
      }
      ++misses_;
      if (waited) return false;
      // Being computed since the last apply: its answer is as current as one computed now (it
      // started after the writes applied so far, like this request).
      if (const auto flying = computing_.find(key);
          flying != computing_.end() && flying->second->epoch == epoch_) {
        const std::shared_ptr<Claim::Flight> flight = flying->second;
        computed_.wait(lock, [&] { return flight->done; });
        continue;
      }
      auto flight = std::make_shared<Claim::Flight>();
      flight->epoch = epoch_;
      computing_[key] = flight;
      claim.cache_ = this;
      claim.key_ = key;
      claim.flight_ = std::move(flight);
      return false;
    }
  }
  // Copying and decompressing happen outside the lock; the entry stays alive through `stored`.
  out.headers = *stored->headers;
  out.headers.emplace_back("ETag", stored->etag);
  out.etag = stored->etag;
  if (stored->raw_size == 0) {
    out.body = stored->data;
    return true;
  }
  return compressor_.decompress(stored->data, stored->raw_size, out.body);  // a failure is a miss
}

void ResponseCache::store(const std::string& key, const CacheValidity& validity, const ReadSet& read,
                          CachedResponse response) {
  Dependencies deps;
  deps.everything = read.empty();
  if (!deps.everything) {
    deps.posts = sorted_unique(read.posts);
    deps.terms = sorted_unique(read.terms);
    deps.lists = read.lists;
  }
  auto stored = std::make_shared<Stored>();
  stored->etag = std::move(response.etag);
  if (compressor_.compress(response.body, stored->data)) {
    stored->raw_size = response.body.size();
  } else {
    stored->data = std::move(response.body);
  }
  // The ETag is kept apart (find() adds it), so that records of one kind share a header set.
  Headers& headers = response.headers;
  headers.erase(
      std::remove_if(headers.begin(), headers.end(), [](const auto& h) { return h.first == "ETag"; }),
      headers.end());
  std::size_t bytes = kEntryOverhead + key.size() + stored->data.size() + stored->etag.size() +
                      sizeof(long long) * (deps.posts.size() + deps.terms.size());
  std::lock_guard<std::mutex> lock(mutex_);
  if (!unchanged_since_locked(validity.epoch, deps)) return;  // a write since: already outdated
  if (last_headers_ && *last_headers_ == headers) {
    stored->headers = last_headers_;
  } else {
    stored->headers = last_headers_ = std::make_shared<const Headers>(std::move(headers));
    for (const auto& [name, value] : *stored->headers) bytes += name.size() + value.size() + 64;
  }
  if (bytes > max_bytes_ / 4) return;
  if (const auto found = index_.find(key); found != index_.end()) erase_locked(found->second);
  compressed_ += stored->raw_size ? 1 : 0;
  lru_.push_front(Entry{key, validity, std::move(stored), bytes, ++serial_, std::move(deps)});
  index_.emplace(lru_.front().key, lru_.begin());
  by_serial_.emplace(serial_, lru_.begin());
  index_locked(lru_.front());
  // Proportional to the serials of entries gone, so that each store pays a constant share: a
  // threshold in entries alone would rebuild on every store once answers read more records than
  // it allows for (a list of 50 events reads about 150).
  if (indexed_ > 2 * live_indexed_ + 4096) rebuild_indexes_locked();
  bytes_ += bytes;
  while (bytes_ > max_bytes_ && !lru_.empty()) {
    erase_locked(std::prev(lru_.end()));
    ++evictions_;
  }
}

ResponseCache::Stats ResponseCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return Stats{lru_.size(),        bytes_,         compressed_, hits_, misses_, evictions_, versions_.reads(),
               versions_.leased(), index_rebuilds_};
}

void ResponseCache::clear_locked() {
  index_.clear();
  lru_.clear();
  by_serial_.clear();
  by_post_.clear();
  by_term_.clear();
  for (Serials& s : by_list_) s.clear();
  by_anything_.clear();
  indexed_ = 0;
  live_indexed_ = 0;
  bytes_ = 0;
  compressed_ = 0;
}

void ResponseCache::erase_locked(Lru::iterator it) {
  live_indexed_ -= it->indexed;
  bytes_ -= it->bytes;
  compressed_ -= it->stored->raw_size ? 1 : 0;
  index_.erase(it->key);
  by_serial_.erase(it->serial);
  lru_.erase(it);
}

std::optional<ShardVersions> ResponseCache::applied() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return applied_;
}

std::uint64_t ResponseCache::epoch() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return epoch_;
}

void ResponseCache::apply(const DataVersion& now) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto at = std::chrono::steady_clock::now();
  if (applied_at_.empty() || at - applied_at_.back().first >= std::chrono::minutes(1))
    applied_at_.emplace_back(at, now.shards);
  const bool known = applied_ && now.changes;
  applied_ = now.shards;
  if (known && now.changes->empty()) return;
  ++epoch_;
  if (!known) {
    clear_locked();
    recent_.clear();  // answers computed before cannot be checked: store() drops them
    return;
  }
  for (const DataChange& change : *now.changes) invalidate_locked(change);
  recent_.push_back(AppliedChanges{epoch_, *now.changes});
  if (recent_.size() > kRecentApplies) recent_.pop_front();
}

std::optional<ShardVersions> ResponseCache::prunable(std::chrono::steady_clock::time_point now,
                                                     std::chrono::seconds age) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (now - last_prune_ < std::chrono::minutes(1)) return std::nullopt;
  std::optional<ShardVersions> upto;
  while (!applied_at_.empty() && now - applied_at_.front().first >= age) {
    upto = applied_at_.front().second;
    applied_at_.pop_front();
  }
  if (upto) last_prune_ = now;
  return upto;
}

bool ResponseCache::unchanged_since_locked(std::uint64_t epoch, const Dependencies& deps) const {
  if (epoch == epoch_) return true;
  if (recent_.empty() || recent_.front().epoch > epoch + 1) return false;  // not known any more
  for (const AppliedChanges& applied : recent_) {
    if (applied.epoch <= epoch) continue;
    for (const DataChange& change : applied.changes)
      if (touches(deps, change)) return false;
  }
  return true;
}

void ResponseCache::drop_locked(Serials& serials) {
  for (const std::uint64_t serial : serials)
    if (const auto it = by_serial_.find(serial); it != by_serial_.end()) erase_locked(it->second);
  indexed_ -= std::min(indexed_, serials.size());
  serials.clear();
}

void ResponseCache::invalidate_locked(const DataChange& change) {
  if (change.kind == ChangeKind::kAll) {
    clear_locked();
    return;
  }
  drop_locked(by_anything_);
  const unsigned lists = lists_changed_by(change.kind);
  for (std::size_t bit = 0; bit < by_list_.size(); ++bit)
    if (lists & (1u << bit)) drop_locked(by_list_[bit]);
  auto& by_record = change.kind == ChangeKind::kTerm ? by_term_ : by_post_;
  if (const auto it = by_record.find(change.id); it != by_record.end()) {
    drop_locked(it->second);
    by_record.erase(it);
  }
}

void ResponseCache::index_locked(Entry& entry) {
  const Dependencies& d = entry.deps;
  entry.indexed = 0;
  const auto add = [&](Serials& serials) {
    serials.push_back(entry.serial);
    ++entry.indexed;
  };
  if (d.everything) add(by_anything_);
  for (std::size_t bit = 0; bit < by_list_.size(); ++bit)
    if (d.lists & (1u << bit)) add(by_list_[bit]);
  for (long long id : d.posts) add(by_post_[id]);
  for (long long id : d.terms) add(by_term_[id]);
  indexed_ += entry.indexed;
  live_indexed_ += entry.indexed;
}

void ResponseCache::rebuild_indexes_locked() {
  by_post_.clear();
  by_term_.clear();
  for (Serials& s : by_list_) s.clear();
  by_anything_.clear();
  indexed_ = 0;
  live_indexed_ = 0;
  ++index_rebuilds_;
  for (Entry& entry : lru_) index_locked(entry);
}

}  // namespace cal
