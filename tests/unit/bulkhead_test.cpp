// The bulkhead (cal/api/pipeline/bulkhead.h): slots taken and given back, the bounded wait, the
// refusal as 503 rest_busy, the statement budget set for exactly the admitted request, and which
// planned work counts as expensive.
#include "cal/api/pipeline/bulkhead.h"

#include "cal/api/pipeline/context.h"

#include <doctest/doctest.h>

#include <chrono>
#include <future>
#include <thread>

using namespace std::chrono_literals;

namespace {

// A context for admit(): the Db is never connected (setting a budget needs no connection).
struct AdmitContext {
  cal::Request request;
  cal::Params params;
  cal::Caller caller;
  cal::Db db{cal::DatabaseConfig{}};
  cal::Config config;
  cal::Locale locale;
  cal::RequestContext ctx{request, params, caller, db, config, locale, "", "", {}};
};

cal::PlannedWork list_of(cal::EventListPlan plan) {
  cal::PlannedWork work;
  work.event_list = plan;
  return work;
}

}  // namespace

TEST_CASE("a slot pool gives out at most its capacity and takes slots back") {
  cal::SlotPool pool(2);
  CHECK(pool.capacity() == 2);
  CHECK(pool.try_acquire_for(0ms));
  CHECK(pool.try_acquire_for(0ms));
  CHECK(pool.in_use() == 2);
  CHECK_FALSE(pool.try_acquire_for(0ms));
  pool.release();
  CHECK(pool.in_use() == 1);
  CHECK(pool.try_acquire_for(0ms));
  pool.release();
  pool.release();
  CHECK(pool.in_use() == 0);
  CHECK(cal::SlotPool(0).capacity() == 1);  // never none: expensive work must stay possible
}

TEST_CASE("a full pool refuses after the wait, no sooner and not much later") {
  cal::SlotPool pool(1);
  REQUIRE(pool.try_acquire_for(0ms));
  const auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(pool.try_acquire_for(60ms));
  const auto waited = std::chrono::steady_clock::now() - start;
  CHECK(waited >= 60ms);
  CHECK(waited < 1000ms);
  CHECK(pool.waiting() == 0);
  pool.release();
}

TEST_CASE("a waiter gets the slot as soon as it is given back") {
  cal::SlotPool pool(1);
  REQUIRE(pool.try_acquire_for(0ms));
  auto waiter = std::async(std::launch::async, [&] {
    const auto start = std::chrono::steady_clock::now();
    const bool got = pool.try_acquire_for(5000ms);
    return std::pair{got, std::chrono::steady_clock::now() - start};
  });
  while (pool.waiting() == 0) std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(20ms);
  pool.release();
  const auto [got, waited] = waiter.get();
  CHECK(got);
  CHECK(waited < 2000ms);
  CHECK(pool.in_use() == 1);
  pool.release();
}

TEST_CASE("no more requests wait than there are slots: the rest are refused at once") {
  cal::SlotPool pool(1);
  REQUIRE(pool.try_acquire_for(0ms));
  auto waiter = std::async(std::launch::async, [&] { return pool.try_acquire_for(3000ms); });
  while (pool.waiting() == 0) std::this_thread::sleep_for(1ms);
  const auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(pool.try_acquire_for(3000ms));
  CHECK(std::chrono::steady_clock::now() - start < 1000ms);
  pool.release();
  CHECK(waiter.get());
  pool.release();
}

TEST_CASE("classify: only work whose plan grows with the data is expensive") {
  struct Case {
    const char* what;
    cal::PlannedWork work;
    cal::WorkClass expected;
  };
  cal::PlannedWork feed_small, feed_large, changes_recent, changes_old, scan_feed;
  feed_small.feed_events = cal::kFeedEventsExpensive;
  feed_large.feed_events = cal::kFeedEventsExpensive + 1;
  changes_recent.changes_since_seconds = cal::kChangesAgeExpensive;
  changes_old.changes_since_seconds = cal::kChangesAgeExpensive + 1;
  scan_feed = list_of(cal::EventListPlan::kTextScan);
  scan_feed.feed_events = 10;
  const Case cases[] = {
      {"nothing planned", cal::PlannedWork{}, cal::WorkClass::kCheap},
      {"ids", list_of(cal::EventListPlan::kIds), cal::WorkClass::kCheap},
      {"window", list_of(cal::EventListPlan::kWindow), cal::WorkClass::kCheap},
      {"links", list_of(cal::EventListPlan::kLinks), cal::WorkClass::kCheap},
      {"filter", list_of(cal::EventListPlan::kFilter), cal::WorkClass::kCheap},
      {"text scan", list_of(cal::EventListPlan::kTextScan), cal::WorkClass::kExpensive},
      {"feed at the bound", feed_small, cal::WorkClass::kCheap},
      {"feed over it", feed_large, cal::WorkClass::kExpensive},
      {"a short feed of a text scan", scan_feed, cal::WorkClass::kExpensive},
      {"changes from a day ago", changes_recent, cal::WorkClass::kCheap},
      {"changes from longer ago", changes_old, cal::WorkClass::kExpensive},
  };
  for (const Case& c : cases) CHECK_MESSAGE(cal::classify(c.work) == c.expected, c.what);
}

TEST_CASE(
    "the plan of an event list: a search the index cannot narrow is a text scan unless ids are listed") {
  cal::EventFilter filter;
  CHECK(cal::plan_event_list(filter) == cal::EventListPlan::kWindow);
  filter.parent = 3;
  CHECK(cal::plan_event_list(filter) == cal::EventListPlan::kFilter);
  filter.search.required = {"jazz"};
  CHECK(cal::plan_event_list(filter) == cal::EventListPlan::kFilter);  // narrowed by the index
  filter.search_is_expensive = true;
  CHECK(cal::plan_event_list(filter) == cal::EventListPlan::kTextScan);
  cal::EventFilter by_venue;
  by_venue.venues = {5};
  CHECK(cal::plan_event_list(by_venue) == cal::EventListPlan::kLinks);
  by_venue.search.excluded = {"rock"};
  by_venue.search_is_expensive = true;  // excluded words only: nothing to narrow by
  CHECK(cal::plan_event_list(by_venue) == cal::EventListPlan::kTextScan);
  filter.include = {1, 2};
  CHECK(cal::plan_event_list(filter) == cal::EventListPlan::kIds);
}

TEST_CASE("admit: cheap work takes no slot and no budget; expensive work holds both until done") {
  AdmitContext c;
  c.config.limits.statement_seconds = 0.25;
  c.config.limits.slot_wait_ms = 0;
  cal::SlotPool pool(1);
  {
    const cal::Admission cheap = cal::admit(c.ctx, list_of(cal::EventListPlan::kWindow), pool);
    CHECK_FALSE(cheap.holds_slot());
    CHECK(pool.in_use() == 0);
    CHECK(c.db.statement_budget() == 0);
  }
  {
    const cal::Admission scan = cal::admit(c.ctx, list_of(cal::EventListPlan::kTextScan), pool);
    CHECK(scan.holds_slot());
    CHECK(pool.in_use() == 1);
    CHECK(c.db.statement_budget() == doctest::Approx(0.25));
    // A cheap request meanwhile is never made to wait.
    CHECK_FALSE(cal::admit(c.ctx, list_of(cal::EventListPlan::kIds), pool).holds_slot());
  }
  CHECK(pool.in_use() == 0);
  CHECK(c.db.statement_budget() == 0);
}

TEST_CASE("admit refuses with 503 rest_busy and Retry-After when no slot frees in time") {
  AdmitContext c;
  c.config.limits.slot_wait_ms = 20;
  c.config.limits.retry_after = 3;
  cal::SlotPool pool(1);
  const cal::Admission first = cal::admit(c.ctx, list_of(cal::EventListPlan::kTextScan), pool);
  REQUIRE(first.holds_slot());
  try {
    const cal::Admission second = cal::admit(c.ctx, list_of(cal::EventListPlan::kTextScan), pool);
    FAIL("a second expensive request was admitted with the only slot taken");
  } catch (const cal::ApiError& e) {
    CHECK(e.status == 503);
    CHECK(e.code == "rest_busy");
    CHECK(e.retry_after == 3);
    CHECK(e.message == "The service is busy; try again shortly.");
  }
  CHECK(pool.in_use() == 1);
}
