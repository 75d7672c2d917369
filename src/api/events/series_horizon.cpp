// Infinite series extended on demand (see cal/api/events/series_horizon.h).
#include "cal/api/events/series_horizon.h"

#include "cal/api/events/event_recurrence.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/posts/site_time.h"
#include "cal/core/dates/clock_use.h"
#include "cal/store/posts.h"
#include "cal/store/search_index.h"
#include "cal/store/series_extension.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <limits>
#include <optional>
#include <set>
#include <thread>

namespace cal {
namespace {

// Series looked up per statement: a window far ahead may pass many series' horizons.
constexpr int kSeriesPerBatch = 1000;

// From this many series on, half of a batch is extended on a second connection beside the
// request's: the extension is MariaDB's work, row by row, and a second core about halves the
// list's wait. A month of eight weekly series is some 35 occurrences, a few milliseconds of
// work against about one for the connection.
constexpr std::size_t kSeriesForTwoConnections = 8;

std::string sql_utc(Seconds instant) { return format_date_time(to_utc_date_time(instant)); }

// The latest instant an event of the window may start at; nullopt when the window has no end.
std::optional<Seconds> latest_start(const EventDateWindow& w) {
  std::optional<Seconds> latest;
  const auto bound = [&](const std::optional<Seconds>& b) {
    if (b && (!latest || *b < *latest)) latest = *b;
  };
  bound(w.end_max);
  bound(w.start_before);
  bound(w.end_before);
  return latest;
}

Seconds sql_seconds(const std::string& text) {
  return from_utc_date_time(parse_sql_date_time(text).value_or(LocalDateTime{}));
}

// What this process last read of the earliest horizon of infinite series, and when (seconds since
// the epoch; kNever before the first read, kNone for no infinite series). Horizons only move
// ahead: an extension moves one further, and every series write sets now + horizon_months, so a
// series written since the read has a horizon at or after the read's time + horizon_months (the
// processes of a site share [recurrence]). Until a window passes the lesser of the two, no series
// can need extending and a list costs no statement more.
constexpr long long kNever = std::numeric_limits<long long>::min();
constexpr long long kNone = std::numeric_limits<long long>::max();
std::atomic<long long> g_earliest{kNone};
std::atomic<long long> g_read_at{kNever};

Seconds earliest_horizon_bound(const RequestContext& ctx, Seconds now) {
  const long long read_at = g_read_at.load(std::memory_order_acquire);
  if (read_at == kNever || Seconds{std::chrono::seconds(read_at)} > now)
    return Seconds{std::chrono::seconds(kNever)};
  const Seconds written_since =
      months_after(Seconds{std::chrono::seconds(read_at)}, std::max(0, ctx.config.recurrence.horizon_months));
  const long long earliest = g_earliest.load(std::memory_order_acquire);
  return earliest == kNone ? written_since : std::min(written_since, Seconds{std::chrono::seconds(earliest)});
}

void remember_earliest_horizon(const std::optional<std::string>& earliest, Seconds now) {
  g_earliest.store(earliest ? sql_seconds(*earliest).time_since_epoch().count() : kNone,
                   std::memory_order_release);
  g_read_at.store(std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count(),
                  std::memory_order_release);
}

// The horizon that takes `from` past `latest`, in whole months.
Seconds horizon_past(Seconds from, Seconds latest) {
  Seconds horizon = from;
  for (int months = 1; horizon <= latest; ++months) horizon = months_after(from, months);
  return horizon;
}

// Series `id`'s horizon moved past `latest` in whole months from where it is; false when another
// extender got there first or it is no infinite series any more.
bool extend_one(RequestContext& ctx, long long id, Seconds latest) {
  lock_post(ctx.db, id);
  const std::optional<SeriesRule> rule = find_series_rule(ctx.db, id, true);
  if (!rule || !rule->is_infinite) return false;
  const Seconds from = sql_seconds(rule->horizon_utc);
  if (from > latest) return false;
  const Seconds horizon = horizon_past(from, latest);
  unpark_series(ctx.db, id);
  // The series' words, for its new occurrences' postings to copy (unparked, it is pending).
  if (ctx.config.search.index) index_pending_events(ctx.db, 1, id);
  std::vector<Event> series = find_events(ctx.db, {id});
  if (series.empty()) throw std::runtime_error("series " + std::to_string(id) + " has no details");
  park_series(ctx.db, id, extend_series(ctx, series.front(), *rule, horizon).rule);
  return true;
}

// Series `ids` moved past `latest` together, each statement writing the occurrences of up to
// 1,000 series (cal/store/series_extension.h); the series without an occurrence not edited alone
// to copy the search postings of are left to extend_one(): their ids.
std::vector<long long> extend_together(RequestContext& ctx, const std::vector<long long>& ids,
                                       Seconds latest) {
  std::vector<SeriesExtension> together;
  std::vector<long long> alone;
  for (const ExtendableSeries& s : lock_infinite_series(ctx.db, ids)) {
    const Seconds from = sql_seconds(s.rule.horizon_utc);
    if (from > latest) continue;
    if (s.model == 0) {
      alone.push_back(s.id);
      continue;
    }
    const Seconds horizon = horizon_past(from, latest);
    together.push_back(
        {s.id, s.model, sql_utc(horizon), occurrences_to_horizon(ctx, s.event, s.rule, horizon)});
  }
  extend_occurrences(ctx.db, together);
  return alone;
}

// The shards of the rollups and counters a connection writes: CONNECTION_ID() % 8 (schema.sql).
constexpr long long kWriterShards = 8;

// extend_together() on a connection of its own, committed; the series left to extend_one(), or
// nullopt when it failed: no second connection to be had (a limit of connections, say), or a
// conflict with the request's connection, which then extends them itself. The connection writes
// another shard than the request's: two connections of one shard write the same rollup rows,
// each chunk of series in key order from the first again, and each can come to wait for the
// other (a deadlock, the work of one of them then done again).
std::optional<std::vector<long long>> extend_beside(const RequestContext& ctx,
                                                    const std::vector<long long>& ids, Seconds latest,
                                                    long long request_shard) {
  try {
    std::optional<Db> own;
    for (int tries = 0; tries < 3 && !own; ++tries) {
      own.emplace(ctx.config.database);
      if (own->connection_id() % kWriterShards == request_shard) own.reset();
    }
    if (!own) return std::nullopt;
    Db& db = *own;
    RequestContext beside{ctx.request, ctx.params,   ctx.caller,    db, ctx.config,
                          ctx.locale,  ctx.site_url, ctx.rest_root, {}};
    Transaction tx(db);
    std::vector<long long> alone = extend_together(beside, ids, latest);
    tx.commit();
    return alone;
  } catch (const DatabaseUnavailable& e) {
    std::cerr << "calendar-fcgi: series extension beside the request: " << e.detail << "\n";
  } catch (const DatabaseConflict& e) {
    std::cerr << "calendar-fcgi: series extension beside the request: " << e.detail << "\n";
  } catch (const std::exception& e) {
    std::cerr << "calendar-fcgi: series extension beside the request: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "calendar-fcgi: series extension beside the request failed\n";
  }
  return std::nullopt;
}

}  // namespace

void extend_series_horizons(RequestContext& ctx, const EventDateWindow& window) {
  const std::optional<Seconds> latest = latest_start(window);
  if (!latest) return;
  // No statement while the window ends before every horizon there can be (earliest_horizon_bound).
  // The clock decides only what is written first, not the answer: unmarked, so the response
  // cache keeps the list as long as its window allows (now_seconds() would make it one second).
  const Seconds now = unmarked_now();
  if (*latest < earliest_horizon_bound(ctx, now)) return;
  const std::optional<std::string> earliest = earliest_infinite_horizon(ctx.db);
  remember_earliest_horizon(earliest, now);
  if (!earliest || sql_seconds(*earliest) > *latest) return;
  // Horizons are instants; a series whose horizon equals the latest start lacks that start.
  const std::string reached = sql_utc(*latest + std::chrono::seconds(1));
  std::vector<long long> ids = find_series_short_of(ctx.db, reached, kSeriesPerBatch);
  if (ids.empty()) return;
  if (ctx.db.read_only()) throw PrimaryNeeded{"series " + std::to_string(ids.front()) + " must be extended"};
  const int years = std::max(1, ctx.config.recurrence.max_horizon_years);
  if (*latest >= months_after(now, 12 * years))
    throw invalid_param(ctx, "end_date",
                        format_message(ctx.locale,
                                       "Recurring events are listed at most %s years ahead "
                                       "([recurrence] max_horizon_years).",
                                       {std::to_string(years)}));
  std::set<long long> tried;
  bool beside_works = true;
  for (;;) {
    std::erase_if(ids, [&](long long id) { return !tried.insert(id).second; });
    if (ids.empty()) break;
    std::vector<long long> beside;
    long long request_shard = 0;
    if (beside_works && ids.size() >= kSeriesForTwoConnections) {
      request_shard = ctx.db.connection_id() % kWriterShards;
      beside.assign(ids.begin() + static_cast<long>(ids.size() / 2), ids.end());
      ids.resize(ids.size() / 2);
    }
    std::optional<std::vector<long long>> beside_alone = std::vector<long long>{};
    std::vector<long long> alone;
    {
      // Each connection commits its own series (an extension is whole per series), this one
      // before waiting for the other, which may wait for its locks (a row both write, such as a
      // duration bound new to both).
      std::jthread other;
      if (!beside.empty())
        other = std::jthread([&] { beside_alone = extend_beside(ctx, beside, *latest, request_shard); });
      Transaction tx(ctx.db);
      alone = extend_together(ctx, ids, *latest);
      tx.commit();
    }
    if (beside_alone) {
      alone.insert(alone.end(), beside_alone->begin(), beside_alone->end());
    } else {
      beside_works = false;
      for (long long id : beside) tried.erase(id);
    }
    // Series writes of their own, after both: a series write changes the unique slugs of its
    // series, whose locks the other connection's inserts of slugs could meet.
    if (!alone.empty()) {
      std::sort(alone.begin(), alone.end());
      Transaction tx(ctx.db);
      for (long long id : alone) extend_one(ctx, id, *latest);
      tx.commit();
    }
    ids = find_series_short_of(ctx.db, reached, kSeriesPerBatch);
  }
}

}  // namespace cal
