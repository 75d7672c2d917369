// Bulkheads for expensive requests (docs/reliability.md): a request whose plan grows
// with the data runs in one of a few slots shared by the worker threads of the process, with a
// time budget on each of its statements, so that such requests can never occupy every worker.
// A request that finds no free slot within a short wait, or whose statement runs out of its
// budget, answers 503 rest_busy with Retry-After and Cache-Control: no-store. Cheap requests,
// and answers from the response cache (they never reach a handler), take no slot.
//
// Handlers describe the work their plan will do (PlannedWork) and call admit(); classify() alone
// decides what is expensive.
#pragma once

#include "cal/api/pipeline/error.h"
#include "cal/core/config.h"
#include "cal/store/events.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

namespace cal {

struct Locale;
struct RequestContext;

// A counting semaphore whose holders are visible (for tests and the future metrics endpoint).
// At most as many requests wait for a slot as there are slots: a waiter holds a worker thread
// too, so a flood of expensive requests would otherwise occupy every worker by waiting; the
// others are refused at once.
class SlotPool {
 public:
  explicit SlotPool(int capacity);
  SlotPool(const SlotPool&) = delete;
  SlotPool& operator=(const SlotPool&) = delete;

  // Takes a slot when one is free within `wait` (0: only if one is free now), unless as many
  // requests as there are slots wait already; true when taken.
  bool try_acquire_for(std::chrono::milliseconds wait);
  // Gives back a slot taken by try_acquire_for(), waking one waiter.
  void release();
  int in_use() const;
  int waiting() const;
  int capacity() const { return capacity_; }

 private:
  const int capacity_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  int in_use_ = 0;
  int waiting_ = 0;
};

// What a request's plan says it will do, known before any of it runs. Fields a handler does not
// touch keep their cheap defaults.
struct PlannedWork {
  std::optional<EventListPlan> event_list;  // the plan of an event list (cal/store/events.h)
  long long feed_events = 0;                // VEVENTs an iCalendar feed may write
  long long changes_since_seconds = 0;      // GET /changes: the age of the sync token
};

enum class WorkClass { kCheap, kExpensive };

// Expensive: an event list whose plan tests text on every event of the window (kTextScan), an
// iCalendar feed of more than kFeedEventsExpensive events, /changes from a token older than
// kChangesAgeExpensive seconds. Everything else is cheap.
inline constexpr long long kFeedEventsExpensive = 100;
inline constexpr long long kChangesAgeExpensive = 86400;
WorkClass classify(const PlannedWork& work);

// The slots of this process: limits.expensive_slots, or max(1, worker threads / 4) when 0. Made
// on first use; the configuration of a process does not change.
SlotPool& expensive_slots(const Config& config);

// 503 rest_busy "The service is busy; try again shortly." with Retry-After (limits.retry_after).
ApiError busy_error(const Locale& locale, const Config& config);

// Holds a slot and the statement budget on the request's connection while it lives (nothing when
// the work is cheap).
class Admission {
 public:
  Admission() = default;
  Admission(SlotPool* pool, Db* db, double budget_seconds);
  Admission(Admission&& other) noexcept;
  Admission& operator=(Admission&&) = delete;
  Admission(const Admission&) = delete;
  ~Admission();
  bool holds_slot() const { return pool_ != nullptr; }

 private:
  SlotPool* pool_ = nullptr;
  Db* db_ = nullptr;
  double previous_budget_ = 0;
};

// Classifies `work`; when expensive, waits at most limits.slot_wait_ms for a slot of `pool` and
// sets limits.statement_seconds as the budget of ctx.db's statements. Throws busy_error() when no
// slot frees in time.
Admission admit(RequestContext& ctx, const PlannedWork& work, SlotPool& pool);
// The same with the process's slots.
Admission admit(RequestContext& ctx, const PlannedWork& work);

}  // namespace cal
