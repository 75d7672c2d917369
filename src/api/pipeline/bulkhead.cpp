// Slots and statement budgets for expensive requests (see cal/api/pipeline/bulkhead.h).
#include "cal/api/pipeline/bulkhead.h"

#include "cal/api/pipeline/context.h"
#include "cal/core/i18n/i18n.h"
#include "cal/core/ops/metrics.h"

#include <algorithm>
#include <thread>
#include <utility>

namespace cal {

SlotPool::SlotPool(int capacity) : capacity_(std::max(1, capacity)) {}

bool SlotPool::try_acquire_for(std::chrono::milliseconds wait) {
  std::unique_lock lock(mutex_);
  if (in_use_ >= capacity_) {
    if (waiting_ >= capacity_ || wait.count() <= 0) return false;
    ++waiting_;
    const bool freed = freed_.wait_for(lock, wait, [&] { return in_use_ < capacity_; });
    --waiting_;
    if (!freed) return false;
  }
  ++in_use_;
  return true;
}

void SlotPool::release() {
  {
    std::lock_guard lock(mutex_);
    --in_use_;
  }
  freed_.notify_one();
}

int SlotPool::in_use() const {
  std::lock_guard lock(mutex_);
  return in_use_;
}

int SlotPool::waiting() const {
  std::lock_guard lock(mutex_);
  return waiting_;
}

WorkClass classify(const PlannedWork& work) {
  if (work.event_list == EventListPlan::kTextScan) return WorkClass::kExpensive;
  if (work.feed_events > kFeedEventsExpensive) return WorkClass::kExpensive;
  if (work.changes_since_seconds > kChangesAgeExpensive) return WorkClass::kExpensive;
  return WorkClass::kCheap;
}

SlotPool& expensive_slots(const Config& config) {
  // The worker count as http/fcgi_server.cpp resolves server.threads = 0.
  static SlotPool pool([&] {
    if (config.limits.expensive_slots > 0) return config.limits.expensive_slots;
    const int threads = config.server.threads > 0
                            ? config.server.threads
                            : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()) * 2);
    return std::max(1, threads / 4);
  }());
  return pool;
}

ApiError busy_error(const Locale& locale, const Config& config) {
  ApiError e{503, "rest_busy", translate(locale, "The service is busy; try again shortly.")};
  e.retry_after = config.limits.retry_after;
  return e;
}

Admission::Admission(SlotPool* pool, Db* db, double budget_seconds)
    : pool_(pool), db_(db), previous_budget_(db->statement_budget()) {
  db_->set_statement_budget(budget_seconds);
}

Admission::Admission(Admission&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)),
      db_(std::exchange(other.db_, nullptr)),
      previous_budget_(other.previous_budget_) {}

Admission::~Admission() {
  if (db_) db_->set_statement_budget(previous_budget_);
  if (pool_) pool_->release();
}

Admission admit(RequestContext& ctx, const PlannedWork& work, SlotPool& pool) {
  if (classify(work) == WorkClass::kCheap) return Admission();
  if (!pool.try_acquire_for(std::chrono::milliseconds(ctx.config.limits.slot_wait_ms))) {
    metrics::add(metrics::Counter::kBulkheadRefusals);
    throw busy_error(ctx.locale, ctx.config);
  }
  return Admission(&pool, &ctx.db, ctx.config.limits.statement_seconds);
}

Admission admit(RequestContext& ctx, const PlannedWork& work) {
  return admit(ctx, work, expensive_slots(ctx.config));
}

}  // namespace cal
