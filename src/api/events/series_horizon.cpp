// Infinite series extended on demand (see cal/api/events/series_horizon.h).
#include "cal/api/events/series_horizon.h"

#include "cal/api/events/event_recurrence.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/posts/site_time.h"
#include "cal/store/posts.h"
#include "cal/store/search_index.h"

#include <algorithm>
#include <chrono>
#include <set>

namespace cal {
namespace {

// Series looked up per statement: a window far ahead may pass many series' horizons.
constexpr int kSeriesPerBatch = 500;

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

// Series `id`'s horizon moved past `latest` in whole months from where it is; false when another
// extender got there first or it is no infinite series any more.
bool extend_one(RequestContext& ctx, long long id, Seconds latest) {
  lock_post(ctx.db, id);
  const std::optional<SeriesRule> rule = find_series_rule(ctx.db, id, true);
  if (!rule || !rule->is_infinite) return false;
  const Seconds from = from_utc_date_time(parse_sql_date_time(rule->horizon_utc).value_or(LocalDateTime{}));
  if (from > latest) return false;
  Seconds horizon = from;
  for (int months = 1; horizon <= latest; ++months) horizon = months_after(from, months);
  unpark_series(ctx.db, id);
  // The series' words, for its new occurrences' postings to copy (unparked, it is pending).
  if (ctx.config.search.index) index_pending_events(ctx.db, 1, id);
  std::vector<Event> series = find_events(ctx.db, {id});
  if (series.empty()) throw std::runtime_error("series " + std::to_string(id) + " has no details");
  park_series(ctx.db, id, extend_series(ctx, series.front(), *rule, horizon).rule);
  return true;
}

}  // namespace

void extend_series_horizons(RequestContext& ctx, const EventDateWindow& window) {
  const std::optional<Seconds> latest = latest_start(window);
  if (!latest || ctx.db.read_only()) return;
  // Horizons are instants; a series whose horizon equals the latest start lacks that start.
  const std::string reached = sql_utc(*latest + std::chrono::seconds(1));
  std::vector<long long> ids = find_series_short_of(ctx.db, reached, kSeriesPerBatch);
  if (ids.empty()) return;
  const int years = std::max(1, ctx.config.recurrence.max_horizon_years);
  if (*latest >= months_after(now_seconds(), 12 * years))
    throw invalid_param(ctx, "end_date",
                        format_message(ctx.locale,
                                       "Recurring events are listed at most %s years ahead "
                                       "([recurrence] max_horizon_years).",
                                       {std::to_string(years)}));
  Transaction tx(ctx.db);
  std::set<long long> tried;
  for (;;) {
    std::erase_if(ids, [&](long long id) { return !tried.insert(id).second; });
    if (ids.empty()) break;
    for (long long id : ids) extend_one(ctx, id, *latest);
    ids = find_series_short_of(ctx.db, reached, kSeriesPerBatch);
  }
  tx.commit();
}

}  // namespace cal
