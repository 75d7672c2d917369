// The list by visibility, date window and featured only (see event_window_list.h).
#include "store/event_window_list.h"

#include "store/event_count_plan.h"
#include "store/event_rows.h"
#include "store/sql_where.h"

#include <algorithm>
#include <mutex>
#include <optional>

namespace cal {
namespace {

const char* const kAllStatuses[] = {"publish", "future", "draft", "pending", "private", "trash"};

// " AND d.status IN (?, ...)" for the plan's statuses.
void add_statuses(SqlWhere& w, const StatusPlan& s) {
  if (s.statuses.size() == 1) {
    w.add("d.status = ?").bind(s.statuses.front());
    return;
  }
  w.add("d.status IN (" + placeholders(s.statuses.size()) + ")");
  for (const std::string& status : s.statuses) w.bind(status);
}

void add_featured(SqlWhere& w, const EventFilter& f) {
  if (f.featured) w.add("d.featured = ?").bind(*f.featured);
}

void add_window(SqlWhere& w, const EventDateWindow& window) {
  const WindowRanges r = window_ranges(window);
  if (r.start.lo > kFirstSecond) w.add("d.start_utc >= ?").bind(utc_second_text(r.start.lo));
  if (r.start.hi < kLastSecond) w.add("d.start_utc <= ?").bind(utc_second_text(r.start.hi));
  if (r.end.lo > kFirstSecond) w.add("d.end_utc >= ?").bind(utc_second_text(r.end.lo));
  if (r.end.hi < kLastSecond) w.add("d.end_utc <= ?").bind(utc_second_text(r.end.hi));
}

constexpr const char* kDue = "d.status = 'future' AND d.publish_utc <= UTC_TIMESTAMP()";

// An author's own rows that do not read as published (kPublishedAndOwn): the published ones are
// the visitors' list, these come from the author index, so the two parts never overlap.
struct OwnPlan {
  long long user = 0;
  std::vector<std::string> statuses;  // stored statuses asked for, but `publish`
};

std::optional<OwnPlan> plan_own(const PostVisibility& v) {
  if (v.scope != ReadScope::kPublishedAndOwn) return std::nullopt;
  OwnPlan own{v.user_id, {}};
  for (const char* status : kAllStatuses) {
    const std::string_view s = status;
    const bool asked = v.statuses.empty()
                           ? s != "trash"
                           : std::find(v.statuses.begin(), v.statuses.end(), s) != v.statuses.end();
    if (asked && s != "publish") own.statuses.emplace_back(status);
  }
  if (own.statuses.empty()) return std::nullopt;
  return own;
}

// " AND ..." for the own rows in the window.
SqlWhere own_where(const EventFilter& f, const OwnPlan& own) {
  SqlWhere w;
  w.add("d.author = ?").bind(own.user);
  w.add("d.status IN (" + placeholders(own.statuses.size()) + ")");
  for (const std::string& status : own.statuses) w.bind(status);
  w.add(std::string("NOT (") + kDue + ")");
  add_window(w, f.window);
  add_featured(w, f);
  return w;
}

// One ordered branch of the page: event ids and starts, the first `prefix` in list order.
std::string branch(const std::string& index, const SqlWhere& w) {
  return "SELECT d.event_id, d.start_utc FROM event_details d FORCE INDEX (" + index +
         ") WHERE d.hide_from_listings = 0" + w.sql + " ORDER BY d.start_utc, d.event_id LIMIT ?";
}

struct PageSql {
  std::string sql;
  std::vector<SqlValue> args;
};

PageSql published_keys(const EventFilter& f, const StatusPlan& s, long long limit, long long offset);

struct Hours {
  std::optional<long long> lo, hi;
  bool operator==(const Hours&) const = default;
};

Hours hours_at(const Rows& rows, int column) {
  Hours h;
  if (!rows.is_null(column)) h.lo = rows.integer(column);
  if (!rows.is_null(column + 1)) h.hi = rows.integer(column + 1);
  return h;
}

// The count as one expression ("CAST(sum AS SIGNED)"), for duration bounds `h` (below).
PageSql count_expr(const EventFilter& f, const StatusPlan& s, const std::optional<OwnPlan>& own,
                   const Hours& h);

// What the page statement selects for each event of the page: whole rows, or only the keys
// (find_window_keys()).
enum class PageColumns { kRows, kKeys };

// The page statement: the duration bounds, the count planned for `count_hours` when given (else
// NULL), then the page's events. The count rides in the bounds' one-row derived table, so its
// subqueries run once, in the statement's one read view with the bounds it is checked against.
PageSql page_sql(const EventFilter& f, const StatusPlan& s, const std::optional<OwnPlan>& own,
                 long long limit, long long offset, PageColumns columns = PageColumns::kRows,
                 const std::optional<Hours>& count_hours = std::nullopt) {
  PageSql out;
  PageSql count{"NULL", {}};
  if (count_hours) count = count_expr(f, s, own, *count_hours);
  out.args = count.args;
  std::string keys;
  if (!s.statuses.empty()) {
    const PageSql published = published_keys(f, s, limit, offset);
    keys = published.sql;
    out.args.insert(out.args.end(), published.args.begin(), published.args.end());
  }
  if (own) {
    SqlWhere w = own_where(f, *own);
    w.bind(offset + limit);
    const std::string mine = branch("event_details_author_start", w);
    keys = keys.empty() ? mine : "(" + keys + ") UNION ALL (" + mine + ")";
    out.args.insert(out.args.end(), w.args.begin(), w.args.end());
  }
  out.args.emplace_back(limit);
  out.args.emplace_back(offset);
  // The duration bounds ride along (one row even for an empty page) for the count's plan. No
  // ORDER BY: k sits on the inner side of the outer join, so sorting the joined rows took a
  // temporary table, on disk for the TEXT columns (a file created and removed per request, the
  // largest single cost of GET /events without the response cache); find_window_page() sorts
  // the page's few rows instead.
  const bool rows = columns == PageColumns::kRows;
  out.sql = "SELECT dur.lo, dur.hi, dur.total, " + (rows ? event_columns() : std::string(kKeyColumns)) +
            " FROM (SELECT MIN(hours) AS lo, MAX(hours) AS hi, " + count.sql +
            " AS total FROM event_duration_hours) dur"
            " LEFT JOIN (SELECT u.event_id, u.start_utc FROM (" +
            keys + ") u ORDER BY u.start_utc, u.event_id LIMIT ? OFFSET ?) k ON TRUE" +
            (rows ? " LEFT JOIN posts p ON p.id = k.event_id" : "") +
            " LEFT JOIN event_details d ON d.event_id = k.event_id" +
            (rows ? " LEFT JOIN event_venues ev ON ev.event_id = k.event_id" : "");
  return out;
}

// The published part's keys (statuses of `s`, scheduled ones due or not per s.due), first
// offset + limit of each branch.
PageSql published_keys(const EventFilter& f, const StatusPlan& s, long long limit, long long offset) {
  PageSql out;
  SqlWhere main;
  add_statuses(main, s);
  if (s.due < 0) main.add(std::string("NOT (") + kDue + ")");
  add_window(main, f.window);
  add_featured(main, f);
  main.bind(offset + limit);
  // One status: its own stretch of the status index; several: the listed index, statuses
  // filtered from it.
  std::string keys =
      branch(s.statuses.size() == 1 ? "event_details_status_start" : "event_details_listed_start", main);
  out.args = main.args;
  if (s.due > 0) {
    SqlWhere due;
    due.add(kDue);
    add_window(due, f.window);
    add_featured(due, f);
    due.bind(offset + limit);
    keys = "(" + keys + ") UNION ALL (" + branch("event_details_due", due) + ")";
    out.args.insert(out.args.end(), due.args.begin(), due.args.end());
  }
  out.sql = keys;
  return out;
}

// The count statement for duration bounds `h`: rollup months and days + partial days - end corrections
// +/- due scheduled events, and the bounds again (a longer event written since: plan again).
PageSql published_count(const EventFilter& f, const StatusPlan& s, const Hours& h);

PageSql count_expr(const EventFilter& f, const StatusPlan& s, const std::optional<OwnPlan>& own,
                   const Hours& h) {
  PageSql out = published_count(f, s, h);
  if (own) {
    const SqlWhere w = own_where(f, *own);
    out.sql +=
        " + (SELECT COUNT(*) FROM event_details d FORCE INDEX (event_details_author_start) WHERE "
        "d.hide_from_listings = 0" +
        w.sql + ")";
    out.args.insert(out.args.end(), w.args.begin(), w.args.end());
  }
  out.sql = "CAST(" + out.sql + " AS SIGNED)";
  return out;
}

PageSql count_sql(const EventFilter& f, const StatusPlan& s, const std::optional<OwnPlan>& own,
                  const Hours& h) {
  PageSql out = count_expr(f, s, own, h);
  out.sql = "SELECT " + out.sql +
            ", (SELECT MIN(hours) FROM event_duration_hours), (SELECT MAX(hours) FROM event_duration_hours)";
  return out;
}

// The sum expression of the published part's count ("0" when it has no status).
PageSql published_count(const EventFilter& f, const StatusPlan& s, const Hours& h) {
  PageSql out;
  if (s.statuses.empty()) {
    out.sql = "0";
    return out;
  }
  std::string sum = "0";
  // `sign` COUNT(*) of the rows whose `column` (start_utc or end_utc, through `index`) is in
  // `seconds`, and `extra` with `bound` when given.
  auto scan = [&](const char* sign, const char* index, const char* column, const ClosedRange& seconds,
                  const char* extra = nullptr, long long bound = 0) {
    SqlWhere w;
    add_statuses(w, s);
    w.add(std::string("d.") + column + " BETWEEN ? AND ?")
        .bind(utc_second_text(seconds.lo))
        .bind(utc_second_text(seconds.hi));
    if (extra) w.add(extra).bind(utc_second_text(bound));
    add_featured(w, f);
    sum += std::string(" ") + sign + " (SELECT COUNT(*) FROM event_details d FORCE INDEX (" + index +
           ") WHERE d.hide_from_listings = 0" + w.sql + ")";
    out.args.insert(out.args.end(), w.args.begin(), w.args.end());
  };
  // `sign` the rollup rows summed: `column` of `table` in `range` (day numbers; a month row is
  // named by its first day, so a range of whole months takes the rows of its months).
  auto rollup = [&](const char* sign, const char* table, const char* column, const ClosedRange& range) {
    SqlWhere w;
    add_statuses(w, s);
    w.add(std::string("d.") + column + " BETWEEN ? AND ?")
        .bind(utc_day_text(range.lo))
        .bind(utc_day_text(range.hi));
    add_featured(w, f);
    sum += std::string(" ") + sign + " COALESCE((SELECT SUM(d.events) FROM " + table +
           " d WHERE d.hide_from_listings = 0" + w.sql + "), 0)";
    out.args.insert(out.args.end(), w.args.begin(), w.args.end());
  };
  // Whole days `days` from the month rollup `months` and the day rollup `day_table`.
  auto rollup_days = [&](const char* sign, const char* months, const char* day_table,
                         const ClosedRange& days) {
    const MonthSplit split = split_months(days);
    if (split.months) rollup(sign, months, "month", *split.months);
    for (const ClosedRange& r : split.days) rollup(sign, day_table, "day", r);
  };
  const long long max_duration = max_duration_of(h.hi.value_or(0));
  if (const std::optional<OneSidedCountPlan> one_sided = plan_one_sided_count(f.window, max_duration)) {
    if (one_sided->starts.days)
      rollup_days("+", "event_month_counts", "event_day_counts", *one_sided->starts.days);
    if (one_sided->starts.seconds)
      scan("+", "event_details_status_start", "start_utc", *one_sided->starts.seconds);
    if (one_sided->ends.days)
      rollup_days("-", "event_end_month_counts", "event_end_day_counts", *one_sided->ends.days);
    if (one_sided->ends.seconds) scan("-", "event_details_status_end", "end_utc", *one_sided->ends.seconds);
  } else if (const WindowCountPlan plan =
                 plan_window_count(f.window, min_duration_of(h.lo.value_or(0)), max_duration);
             !plan.empty) {
    if (plan.days) rollup_days("+", "event_month_counts", "event_day_counts", *plan.days);
    for (const ClosedRange& r : plan.starts) scan("+", "event_details_status_start", "start_utc", r);
    if (plan.end_high)
      scan("-", "event_details_status_start", "start_utc", *plan.end_high, "d.end_utc > ?", plan.end_hi);
    if (plan.end_low)
      scan("-", "event_details_status_start", "start_utc", *plan.end_low, "d.end_utc < ?", plan.end_lo);
  }
  if (s.due != 0) {
    SqlWhere w;
    w.add(kDue);
    add_window(w, f.window);
    add_featured(w, f);
    sum += std::string(s.due > 0 ? " +" : " -") +
           " (SELECT COUNT(*) FROM event_details d FORCE INDEX (event_details_due) WHERE "
           "d.hide_from_listings = 0" +
           w.sql + ")";
    out.args.insert(out.args.end(), w.args.begin(), w.args.end());
  }
  out.sql = sum;
  return out;
}

}  // namespace

StatusPlan plan_statuses(const PostVisibility& v) {
  std::vector<std::string> wanted;
  for (const char* status : kAllStatuses) {
    const bool asked = v.statuses.empty()
                           ? std::string_view(status) != "trash"
                           : std::find(v.statuses.begin(), v.statuses.end(), status) != v.statuses.end();
    const bool allowed = v.scope != ReadScope::kPublished || std::string_view(status) == "publish";
    if (asked && allowed) wanted.emplace_back(status);
  }
  const bool publish = std::find(wanted.begin(), wanted.end(), "publish") != wanted.end();
  const bool future = std::find(wanted.begin(), wanted.end(), "future") != wanted.end();
  StatusPlan plan;
  plan.statuses = wanted;
  if (publish && !future && !v.none_due) plan.due = 1;
  if (future && !publish && !v.none_due) plan.due = -1;
  return plan;
}

bool window_list_applies(const EventFilter& f) {
  return f.include.empty() && f.search.empty() && f.categories.empty() && f.tags.empty() &&
         f.venues.empty() && f.organizers.empty() && !f.parent && !f.with_coordinates && !f.fence &&
         !f.matches_nothing && f.modified.empty() && !f.first_per_series;
}

namespace {

// The published part of what `v` asks: an author's published rows are everyone's.
StatusPlan published_plan(const PostVisibility& v) {
  if (v.scope != ReadScope::kPublishedAndOwn) return plan_statuses(v);
  PostVisibility published = v;
  published.scope = ReadScope::kPublished;
  return plan_statuses(published);
}

}  // namespace

std::string window_page_sql(const EventFilter& filter) {
  return page_sql(filter, published_plan(filter.visibility), plan_own(filter.visibility), 10, 0).sql;
}

namespace {

// The duration bounds the last page statement of this process read: the next one plans its count
// with them, in the same statement. A process serves one database; should the bounds read there
// differ (a longer event written since, a replica behind), that count is not used.
std::mutex known_hours_mutex;
std::optional<Hours> known_hours;

// The page statement (its rows to `read`, in list order or not: the caller sorts) with the count
// planned for the duration bounds last read; returns the total. One statement; a count statement
// after it (or more, while events longer than any before are written) when the bounds it read
// were not those.
template <typename Read>
long long read_window_page(Db& db, const EventFilter& filter, long long limit, long long offset,
                           PageColumns columns, Read read) {
  const StatusPlan statuses = published_plan(filter.visibility);
  const std::optional<OwnPlan> own = plan_own(filter.visibility);
  if (statuses.statuses.empty() && !own) return 0;
  std::optional<Hours> assumed;
  {
    const std::lock_guard lock(known_hours_mutex);
    assumed = known_hours;
  }
  Hours hours;
  std::optional<long long> total;
  {
    const PageSql q = page_sql(filter, statuses, own, limit, offset, columns, assumed);
    Rows rows = db.query(q.sql, q.args);
    while (rows.next()) {
      hours = hours_at(rows, 0);
      if (!rows.is_null(2)) total = rows.integer(2);
      if (!rows.is_null(3)) read(rows, 3);
    }
  }
  if (assumed != hours) total.reset();
  while (!total) {
    const PageSql q = count_sql(filter, statuses, own, hours);
    Rows rows = db.query(q.sql, q.args);
    if (!rows.next()) break;
    const Hours now = hours_at(rows, 1);
    if (now == hours) total = rows.integer(0);
    hours = now;
  }
  {
    const std::lock_guard lock(known_hours_mutex);
    known_hours = hours;
  }
  return total.value_or(0);
}

}  // namespace

EventPage find_window_page(Db& db, const EventFilter& filter, long long limit, long long offset) {
  EventPage page;
  page.events.reserve(static_cast<size_t>(std::clamp(limit, 0LL, 100LL)));
  page.total =
      read_window_page(db, filter, limit, offset, PageColumns::kRows,
                       [&](const Rows& rows, int first) { page.events.push_back(read_event(rows, first)); });
  // List order (UTC start, then id): start_utc is "YYYY-MM-DD HH:MM:SS", so text order is time
  // order, and ids are unique, so the order is total.
  std::sort(page.events.begin(), page.events.end(), [](const Event& a, const Event& b) {
    return a.details.start_utc != b.details.start_utc ? a.details.start_utc < b.details.start_utc
                                                      : a.post.id < b.post.id;
  });
  return page;
}

EventKeyPage find_window_keys(Db& db, const EventFilter& filter, long long limit, long long offset) {
  EventKeyPage page;
  page.total = read_window_page(db, filter, limit, offset, PageColumns::kKeys, [&](const Rows& rows, int c) {
    page.keys.push_back(read_event_key(rows, c));
  });
  std::sort(page.keys.begin(), page.keys.end(), [](const ListedEventKey& a, const ListedEventKey& b) {
    return a.start_utc != b.start_utc ? a.start_utc < b.start_utc : a.id < b.id;
  });
  return page;
}

}  // namespace cal
