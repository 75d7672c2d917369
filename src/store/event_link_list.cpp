// The list driven by one link filter (see event_link_list.h).
#include "store/event_link_list.h"

#include "store/event_count_plan.h"
#include "store/event_rows.h"
#include "store/event_sql.h"
#include "store/recent_marks.h"
#include "cal/store/search_index.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <tuple>

namespace cal {
namespace {

const char* const kAllStatuses[] = {"publish", "future", "draft", "pending", "private", "trash"};

// The link table whose rows drive the list, its list index and, when it has one, the rollup
// counting its rows per key, status, hidden flag and UTC start day (schema.sql).
struct Driver {
  const char* table;
  const char* key;
  const char* index;
  const std::vector<long long>* ids;
  const char* days = nullptr;
};

constexpr long long kMaxDrivingPostings = kSearchProbeLimit;

// Whether the event of link row `l` has a posting of one of the index words that follow.
constexpr const char* kPostingsExist = "EXISTS (SELECT 1 FROM search_postings sx WHERE sx.word_id IN ";

// Whether the postings of the search's narrowing word can drive the list. Pending events (their
// postings may be stale or missing) are left out of the postings' rows and found apart, by LIKE
// (pending_sql()).
bool search_drives(const EventFilter& f) {
  const auto& n = f.search_narrowing;
  return n && !n->word_ids.empty() && n->word_ids.size() <= kMaxDrivingWords;
}

bool postings_drive(const EventFilter& f, const std::vector<long long>* ids) {
  return f.search_narrowing && ids == &f.search_narrowing->word_ids;
}

// Whether the list driven by the postings must leave pending events to pending_sql().
bool pending_apart(const EventFilter& f, const std::vector<long long>* ids) {
  return postings_drive(f, ids) && f.search_narrowing->pending_events;
}

// Above kMaxDrivingPostings a term is likely the narrower filter.
bool rare_search_drives(const EventFilter& f) {
  return search_drives(f) && f.search_narrowing->postings <= kMaxDrivingPostings;
}

// The most selective link filter first, as a rule of thumb: a venue has few events, an organizer
// a few more, a tag more, and the common categories the most.
std::optional<Driver> driver_of(const EventFilter& f) {
  if (!f.venues.empty()) return Driver{"event_venues", "venue_id", "event_venues_list", &f.venues};
  if (!f.organizers.empty())
    return Driver{"event_organizers", "organizer_id", "event_organizers_list", &f.organizers};
  const auto postings = [&] {
    return Driver{"search_postings", "word_id", "search_postings_list", &f.search_narrowing->word_ids,
                  "search_word_days"};
  };
  if (rare_search_drives(f)) return postings();
  if (!f.tags.empty())
    return Driver{"term_relationships", "term_id", "term_relationships_list", &f.tags, "term_day_counts"};
  if (!f.categories.empty())
    return Driver{"term_relationships", "term_id", "term_relationships_list", &f.categories,
                  "term_day_counts"};
  if (search_drives(f)) return postings();
  return std::nullopt;
}

// A stored status the list reads, and what else its rows must meet (on event_details d; empty:
// nothing, so the link index alone answers).
struct StatusBranch {
  std::string status;
  SqlWhere extra;
  // Only the scheduled events that are due (a visitor's `future` rows): few, so they are found
  // by the due index and their links looked up, not the links of every scheduled event tested.
  bool due_only = false;
};

bool asked(const PostVisibility& v, std::string_view status) {
  return v.statuses.empty() ? status != "trash"
                            : std::find(v.statuses.begin(), v.statuses.end(), status) != v.statuses.end();
}

// docs/api.md §4.1 visibility per stored status: a due scheduled event reads as published; published
// rows are everyone's, the others editors' or (kPublishedAndOwn) their author's.
std::vector<StatusBranch> status_branches(const PostVisibility& v) {
  constexpr const char* kDue = "d.publish_utc <= UTC_TIMESTAMP()";
  std::vector<StatusBranch> out;
  auto unpublished = [&](SqlWhere& w) {
    if (v.scope == ReadScope::kPublishedAndOwn) w.add("d.author = ?").bind(v.user_id);
  };
  for (const char* status : kAllStatuses) {
    const std::string_view s = status;
    StatusBranch b{status, {}};
    const bool own_ok = v.scope != ReadScope::kPublished;
    if (s == "publish") {
      if (!asked(v, s)) continue;
    } else if (s == "future") {
      const bool as_published = asked(v, "publish");
      const bool as_future = asked(v, "future") && own_ok;
      if (!as_published && !as_future) continue;
      if (as_published && as_future) {
        if (v.scope == ReadScope::kPublishedAndOwn)
          b.extra.add(std::string("(") + kDue + " OR d.author = ?)").bind(v.user_id);
      } else if (as_published) {
        if (v.none_due) continue;
        b.extra.add(kDue);
        b.due_only = true;
      } else {
        if (!v.none_due) b.extra.add(std::string("NOT ") + kDue);
        unpublished(b.extra);
      }
    } else {
      if (!asked(v, s) || !own_ok) continue;
      unpublished(b.extra);
    }
    out.push_back(std::move(b));
  }
  return out;
}

// Whole-hour bounds on every event's duration (event_duration_hours), when there are events.
struct Hours {
  std::optional<long long> lo, hi;
  bool operator==(const Hours&) const = default;
};

// The window on the link rows' copies. The end bounds bound the start too (an event lasts between
// the duration bounds), so that a window given by start_date and end_date only is one range of
// the list index, not everything after its start.
void add_window(SqlWhere& w, const EventDateWindow& window, const Hours& h, const std::string& alias = "l") {
  WindowRanges r = window_ranges(window);
  if (h.lo && r.end.hi < kLastSecond) r.start.hi = std::min(r.start.hi, r.end.hi - min_duration_of(*h.lo));
  if (h.hi && r.end.lo > kFirstSecond) r.start.lo = std::max(r.start.lo, r.end.lo - max_duration_of(*h.hi));
  if (r.start.lo > kFirstSecond) w.add(alias + ".start_utc >= ?").bind(utc_second_text(r.start.lo));
  if (r.start.hi < kLastSecond) w.add(alias + ".start_utc <= ?").bind(utc_second_text(r.start.hi));
  if (r.end.lo > kFirstSecond) w.add(alias + ".end_utc >= ?").bind(utc_second_text(r.end.lo));
  if (r.end.hi < kLastSecond) w.add(alias + ".end_utc <= ?").bind(utc_second_text(r.end.hi));
}

// The filter's other conditions, which the driver, visibility and window (answered by the link
// rows' copies) leave: on the events' rows (event_sql() of the rest, or nothing when it has
// none), and, apart, those that a link table decides alone, tested on the link rows' event ids:
// the other link filters and the words whose postings decide them. A search of two common words,
// or a search within a category, then counts on the link rows only, with no join to posts,
// event_details and event_venues per candidate (four key lookups a row become one). A test of
// one id is a join on the link table's unique key (at most one row an event), which spares the
// subquery MariaDB runs per row for an EXISTS.
struct Rest {
  std::optional<EventSql> events;
  std::string joins;
  std::vector<SqlValue> join_args;
  SqlWhere on_event_ids;
  // The index words of each tested word in more events than the probe counts. A page looks its
  // few rows up (EXISTS); a count reads the word's postings in the window once into a hash keyed
  // by event and probes it with the driving rows. At a million demo events, the top category's
  // 22,000 links of a year each looked up in `jazz`'s postings took 60 ms, `jazz`'s postings of
  // the year hashed 36 ms (by hand); MariaDB's own semi-join hashed all of a word's postings,
  // not those of the window.
  std::vector<std::vector<long long>> hashed_in_count;
  bool empty() const {
    return !events && joins.empty() && on_event_ids.sql.empty() && hashed_in_count.empty();
  }
};

Rest rest_of(const EventFilter& f, const Driver& driver) {
  Rest out;
  EventFilter rest = f;
  rest.visibility = PostVisibility{ReadScope::kAll, 0, {}};
  for (const char* s : kAllStatuses) rest.visibility.statuses.emplace_back(s);
  rest.window = {};
  std::vector<long long>& driven = driver.ids == &f.venues       ? rest.venues
                                   : driver.ids == &f.organizers ? rest.organizers
                                   : driver.ids == &f.tags       ? rest.tags
                                                                 : rest.categories;
  if (postings_drive(f, driver.ids)) {
    // An exact word is answered by its postings; another (one with separators) still by LIKE.
    if (f.search_narrowing->exact)
      rest.search.required.erase(rest.search.required.begin() + static_cast<long>(f.search_narrowing->word));
  } else {
    driven.clear();
  }
  // The events with a row of `table` whose `key` is one of `ids`.
  const auto link_on_ids = [&](const std::vector<long long>& ids, const char* table, const char* key) {
    if (ids.size() == 1) {
      const std::string alias = "lj" + std::to_string(out.join_args.size());
      out.joins += std::string(" STRAIGHT_JOIN ") + table + " " + alias + " ON " + alias +
                   ".event_id = l.event_id AND " + alias + "." + key + " = ?";
      out.join_args.emplace_back(ids.front());
    } else {
      out.on_event_ids.add_in(std::string("EXISTS (SELECT 1 FROM ") + table + " lx WHERE lx." + key + " IN ",
                              ids, ") AND lx.event_id = l.event_id)");
    }
  };
  // Each of the other link filters.
  for (auto [ids, table, key] : {std::tuple{&rest.categories, "term_relationships", "term_id"},
                                 std::tuple{&rest.tags, "term_relationships", "term_id"},
                                 std::tuple{&rest.venues, "event_venues", "venue_id"},
                                 std::tuple{&rest.organizers, "event_organizers", "organizer_id"}}) {
    if (ids->empty()) continue;
    link_on_ids(*ids, table, key);
    ids->clear();
  }
  // The rest is tested on the driven rows' events: no candidates of a search of their own.
  rest.search_narrowing.reset();
  std::vector<std::string>& words = rest.search.required;
  // Postings decide an event only when it is not pending: rows driven by another link may be.
  const bool postings_decide =
      !(f.search_narrowing && f.search_narrowing->pending_events) || pending_apart(f, driver.ids);
  // Every word in more events than the probe counts (the narrowing one is the rarest): a count
  // reads its postings in the window once into a hash (Rest::hashed_in_count), where a key
  // lookup a driving row cost more than the rows themselves.
  const bool common_words = f.search_narrowing && f.search_narrowing->postings > kMaxDrivingPostings;
  for (auto word = words.begin(); word != words.end();) {
    const auto indexed = std::find_if(f.search_indexed.begin(), f.search_indexed.end(),
                                      [&](const IndexedWord& i) { return i.word == *word; });
    if (indexed == f.search_indexed.end() || !postings_decide) {
      ++word;
      continue;
    }
    if (common_words)
      out.hashed_in_count.push_back(indexed->word_ids);
    else
      link_on_ids(indexed->word_ids, "search_postings", "word_id");
    word = words.erase(word);
  }
  if (rest.search.empty() && rest.categories.empty() && rest.tags.empty() && rest.venues.empty() &&
      rest.organizers.empty() && !rest.featured && !rest.parent && !rest.with_coordinates && !rest.fence &&
      !rest.matches_nothing)
    return out;
  out.events = event_sql(rest);
  return out;
}

constexpr const char* kHours =
    ", (SELECT MIN(hours) FROM event_duration_hours), (SELECT MAX(hours) FROM event_duration_hours)";

Hours hours_at(const Rows& rows, int column) {
  Hours h;
  if (!rows.is_null(column)) h.lo = rows.integer(column);
  if (!rows.is_null(column + 1)) h.hi = rows.integer(column + 1);
  return h;
}

struct Sql {
  std::string sql;
  std::vector<SqlValue> args;
};

constexpr const char* kNotPending =
    " AND NOT EXISTS (SELECT 1 FROM search_pending pd WHERE pd.event_id = l.event_id)";

// Which of the driver's rows: those the list shows (when pending events are found apart, not
// theirs), all, or only pending events' (read from search_pending: few, whatever the driver's
// size, so a count subtracts them instead of testing every row).
enum class Which { kListed, kAll, kPending };

// FROM and WHERE over the driver's rows with key in `keys` and stored status `b`.
Sql rows_of(const EventFilter& f, const Driver& driver, const StatusBranch& b,
            const std::vector<long long>& keys, const Rest& rest_of_filter, const Hours& h,
            Which which = Which::kListed, bool for_count = false) {
  const std::optional<EventSql>& rest = rest_of_filter.events;
  Sql out;
  if (b.due_only) {
    out.sql = std::string(" FROM event_details d FORCE INDEX (event_details_due) STRAIGHT_JOIN ") +
              driver.table + " l ON l.event_id = d.event_id AND d.status = 'future'" + rest_of_filter.joins;
    if (rest)
      out.sql += " JOIN posts p ON p.id = l.event_id LEFT JOIN event_venues ev ON ev.event_id = l.event_id" +
                 rest->joins;
  } else {
    out.sql = which == Which::kPending
                  ? std::string(" FROM search_pending pd STRAIGHT_JOIN ") + driver.table +
                        " l ON l.event_id = pd.event_id"
                  : std::string(" FROM ") + driver.table + " l FORCE INDEX (" + driver.index + ")";
    out.sql += rest_of_filter.joins;
    if (rest) {
      out.sql +=
          " JOIN posts p ON p.id = l.event_id JOIN event_details d ON d.event_id = l.event_id"
          " LEFT JOIN event_venues ev ON ev.event_id = l.event_id" +
          rest->joins;
    } else if (!b.extra.sql.empty()) {
      out.sql += " JOIN event_details d ON d.event_id = l.event_id";
    }
  }
  out.args = rest_of_filter.join_args;
  // A count's hashed words: each word's postings of the same status in the window, each event
  // once (a DISTINCT derived table, which MariaDB materialises with a key on event_id).
  for (std::size_t i = 0; for_count && i < rest_of_filter.hashed_in_count.size(); ++i) {
    SqlWhere hw;
    hw.add_in("s.word_id IN ", rest_of_filter.hashed_in_count[i]);
    hw.add("s.status = ?").bind(b.status);
    hw.add("s.hide_from_listings = 0");
    add_window(hw, f.window, h, "s");
    const std::string alias = "wh" + std::to_string(i);
    out.sql += " JOIN (SELECT DISTINCT s.event_id FROM search_postings s FORCE INDEX (search_postings_list)";
    out.sql += " WHERE TRUE" + hw.sql + ") " + alias + " ON " + alias + ".event_id = l.event_id";
    out.args.insert(out.args.end(), hw.args.begin(), hw.args.end());
  }
  out.sql += std::string(" WHERE l.") + driver.key +
             (keys.size() == 1 ? " = ?" : " IN (" + placeholders(keys.size()) + ")");
  SqlWhere w;
  w.add("l.status = ?").bind(b.status);
  w.add("l.hide_from_listings = 0");
  add_window(w, f.window, h);
  out.sql += w.sql + b.extra.sql;
  out.args.insert(out.args.end(), keys.begin(), keys.end());
  out.args.insert(out.args.end(), w.args.begin(), w.args.end());
  out.args.insert(out.args.end(), b.extra.args.begin(), b.extra.args.end());
  if (rest) {
    out.sql += rest->where.sql;
    out.args.insert(out.args.end(), rest->where.args.begin(), rest->where.args.end());
  }
  SqlWhere on_ids = rest_of_filter.on_event_ids;
  if (!for_count)
    for (const std::vector<long long>& ids : rest_of_filter.hashed_in_count)
      on_ids.add_in(kPostingsExist, ids, ") AND sx.event_id = l.event_id)");
  out.sql += on_ids.sql;
  out.args.insert(out.args.end(), on_ids.args.begin(), on_ids.args.end());
  if (which == Which::kListed && pending_apart(f, driver.ids)) out.sql += kNotPending;
  if (which == Which::kPending && b.due_only)
    out.sql += " AND EXISTS (SELECT 1 FROM search_pending pd WHERE pd.event_id = l.event_id)";
  return out;
}

// The pending events the whole filter lets through, its words tested with LIKE (an event's postings
// are not trusted until the indexer has caught up with its text): the general query over the
// pending events alone (event_query.cpp narrows to them when the narrowing has no index word).
EventSql pending_sql(const EventFilter& f) {
  EventFilter pending = f;
  pending.search_narrowing = SearchNarrowing{};
  pending.search_narrowing->pending_events = true;
  pending.search_indexed.clear();
  return event_sql(pending);
}

// What a page statement selects: the events' rows, or only their keys (find_link_keys()).
enum class PageColumns { kRows, kKeys };

Sql page_sql(const EventFilter& f, const Driver& driver, const Rest& rest, const Hours& h, long long limit,
             long long offset, PageColumns columns = PageColumns::kRows) {
  Sql out;
  std::string keys;
  for (long long id : *driver.ids) {
    for (const StatusBranch& b : status_branches(f.visibility)) {
      Sql rows = rows_of(f, driver, b, {id}, rest, h);
      if (!keys.empty()) keys += " UNION ALL ";
      keys += "(SELECT STRAIGHT_JOIN l.event_id, l.start_utc" + rows.sql +
              " ORDER BY l.start_utc, l.event_id LIMIT ?)";
      out.args.insert(out.args.end(), rows.args.begin(), rows.args.end());
      out.args.emplace_back(offset + limit);
    }
  }
  if (pending_apart(f, driver.ids)) {
    const EventSql pending = pending_sql(f);
    if (!keys.empty()) keys += " UNION ALL ";
    keys += "(SELECT p.id AS event_id, d.start_utc" + pending.from + pending.joins +
            " WHERE p.type = 'event'" + pending.where.sql + " ORDER BY d.start_utc, p.id LIMIT ?)";
    const std::vector<SqlValue> args = pending.args();
    out.args.insert(out.args.end(), args.begin(), args.end());
    out.args.emplace_back(offset + limit);
  }
  out.args.emplace_back(limit);
  out.args.emplace_back(offset);
  if (keys.empty()) keys = "SELECT NULL AS event_id, NULL AS start_utc FROM DUAL WHERE FALSE";
  // Several ids: an event carrying two of them comes once.
  const bool rows = columns == PageColumns::kRows;
  out.sql = "SELECT STRAIGHT_JOIN " + (rows ? event_columns() : std::string(kKeyColumns)) +
            " FROM (SELECT DISTINCT u.event_id, u.start_utc FROM (" + keys +
            ") u ORDER BY u.start_utc, u.event_id LIMIT ? OFFSET ?) k" +
            (rows ? " JOIN posts p ON p.id = k.event_id" : "") +
            " JOIN event_details d ON d.event_id = k.event_id" +
            (rows ? " LEFT JOIN event_venues ev ON ev.event_id = k.event_id" : "") +
            " ORDER BY k.start_utc, k.event_id";
  return out;
}

// The driver's rows for key `id` with status `status` in the window, counted as the event list
// counts all events (event_count_plan.h): whole days from the driver's day rollup, the partial
// days and the end bounds' stretches from its list index. The cost no longer grows with the
// number of events holding the word or carrying the term.
Sql days_count(const EventFilter& f, const Driver& driver, long long id, const std::string& status,
               const Hours& h) {
  Sql out;
  const WindowCountPlan plan =
      plan_window_count(f.window, min_duration_of(h.lo.value_or(0)), max_duration_of(h.hi.value_or(0)));
  out.sql = "0";
  if (plan.empty) return out;
  const std::string key = driver.key;
  if (plan.days) {
    out.sql += " + COALESCE((SELECT SUM(c.events) FROM " + std::string(driver.days) + " c WHERE c." + key +
               " = ? AND c.status = ? AND c.hide_from_listings = 0 AND c.day BETWEEN ? AND ?), 0)";
    out.args.insert(out.args.end(), {id, status, utc_day_text(plan.days->lo), utc_day_text(plan.days->hi)});
  }
  const auto scan = [&](const ClosedRange& starts, const char* end_bound, long long bound, const char* sign) {
    out.sql += std::string(" ") + sign + " (SELECT COUNT(*) FROM " + driver.table + " l FORCE INDEX (" +
               driver.index + ") WHERE l." + key +
               " = ? AND l.status = ? AND l.hide_from_listings = 0 AND l.start_utc BETWEEN ? AND ?" +
               (end_bound ? std::string(" AND ") + end_bound : std::string()) + ")";
    out.args.insert(out.args.end(), {id, status, utc_second_text(starts.lo), utc_second_text(starts.hi)});
    if (end_bound) out.args.emplace_back(utc_second_text(bound));
  };
  for (const ClosedRange& r : plan.starts) scan(r, nullptr, 0, "+");
  if (plan.end_high) scan(*plan.end_high, "l.end_utc > ?", plan.end_hi, "-");
  if (plan.end_low) scan(*plan.end_low, "l.end_utc < ?", plan.end_lo, "-");
  return out;
}

// The events holding any of several keys (index words, or a category and its children), with
// status `status` in the window, each once: every key's rows counted as one key's are
// (days_count()), less those whose event an earlier key holds too. Each of those is a semi-join
// MariaDB answers from whichever side has fewer rows, so a word in every event (`friend`, with
// `friends` beside it) costs the postings of the rarer words, not a distinct count over all of
// them (at a million events 0.37 s against 0.04 s, one at a time on a loaded machine).
Sql union_days_count(const EventFilter& f, const Driver& driver, const std::string& status, const Hours& h) {
  const std::vector<long long>& ids = *driver.ids;
  // The same window on both sides (their copies of the event's columns agree), so either can be
  // read by its list index.
  const auto listed = [&](const std::string& alias) {
    SqlWhere w;
    w.add(alias + ".status = ?").bind(status);
    w.add(alias + ".hide_from_listings = 0");
    add_window(w, f.window, h, alias);
    return w;
  };
  const std::string key = driver.key;
  Sql out;
  out.sql = "0";
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const Sql days = days_count(f, driver, ids[i], status, h);
    out.sql += " + (" + days.sql + ")";
    out.args.insert(out.args.end(), days.args.begin(), days.args.end());
    if (i == 0) continue;
    const SqlWhere held = listed("a"), earlier = listed("b");
    out.sql += " - (SELECT COUNT(*) FROM " + std::string(driver.table) + " a WHERE a." + key + " = ?" +
               held.sql + " AND EXISTS (SELECT 1 FROM " + driver.table + " b WHERE b." + key + " IN (" +
               placeholders(i) + ") AND b.event_id = a.event_id" + earlier.sql + "))";
    out.args.emplace_back(ids[i]);
    out.args.insert(out.args.end(), held.args.begin(), held.args.end());
    out.args.insert(out.args.end(), ids.begin(), ids.begin() + static_cast<long>(i));
    out.args.insert(out.args.end(), earlier.args.begin(), earlier.args.end());
  }
  return out;
}

// Terms whose list over a window, with no other filter, counted at most kFewLinks: their next
// counts over that window read the links (a month of a large category may be few, its two years
// many). The day rollup's few subqueries cost about 0.4 ms whatever the term's size; counting the
// links costs about 0.25 ms and 0.45 µs a link in the window (a category's 511 links at 10,000
// demo events 0.5 ms against 0.6 ms from days; the most used category's 46,000 at a million
// 20-30 ms against 3 ms). A term's first list of the minute counts from days, whose cost is
// bounded, and so learns which.
constexpr long long kFewLinks = 1000;

RecentMarks& terms_with_few_links() {
  static RecentMarks terms(std::chrono::seconds(60), 4096);
  return terms;
}

// The mark of `f`'s terms over its window: the term ids (positive), then the window's four bounds
// as negative numbers, each bound in a range of its own (2^40 seconds apart: wider than every
// DATETIME), so that the key, sorted, still says which bound is which.
std::vector<long long> few_links_key(const EventFilter& f, const Driver& driver) {
  constexpr long long kBoundRange = 1LL << 40;
  std::vector<long long> key = *driver.ids;
  const WindowRanges r = window_ranges(f.window);
  long long role = 0;
  for (const long long bound : {r.start.lo, r.start.hi, r.end.lo, r.end.hi})
    key.push_back(-(role++ * kBoundRange + (bound - kFirstSecond)) - 1);
  return key;
}

// Whether `f`'s list is a term's links with nothing else to test: the lists whose counts
// terms_with_few_links() chooses for.
bool term_links_alone(const EventFilter& f, const Driver& driver, const Rest& rest) {
  return driver.days && rest.empty() && !postings_drive(f, driver.ids);
}

// Whether the total of `f`'s list is counted from its driver's day rollup: with nothing else to
// test, always for a search word's postings (counted up to the probe's limit, so known to be many
// or few), for a term's links unless they were found few.
bool counted_by_days(const EventFilter& f, const Driver& driver, const Rest& rest) {
  if (!driver.days || !rest.empty()) return false;
  return !term_links_alone(f, driver, rest) || !terms_with_few_links().marked(few_links_key(f, driver));
}

// The exact total: per stored status (disjoint), the driver's rows in the window that meet the
// rest, each event once.
Sql count_sql(const EventFilter& f, const Driver& driver, const Rest& rest, const Hours& h) {
  Sql out;
  const bool days_alone = counted_by_days(f, driver, rest);
  std::string sum = "0";
  const char* count = driver.ids->size() == 1 ? "COUNT(*)" : "COUNT(DISTINCT l.event_id)";
  for (const StatusBranch& b : status_branches(f.visibility)) {
    const bool apart = pending_apart(f, driver.ids);
    if (days_alone && b.extra.sql.empty()) {
      const Sql days = union_days_count(f, driver, b.status, h);
      sum += " + (" + days.sql + ")";
      out.args.insert(out.args.end(), days.args.begin(), days.args.end());
    } else {
      const Sql rows =
          rows_of(f, driver, b, *driver.ids, rest, h, apart ? Which::kAll : Which::kListed, true);
      sum += std::string(" + (SELECT STRAIGHT_JOIN ") + count + rows.sql + ")";
      out.args.insert(out.args.end(), rows.args.begin(), rows.args.end());
    }
    if (apart) {
      // The pending events' rows out (pending_sql() counts those the filter lets through).
      const Sql rows = rows_of(f, driver, b, *driver.ids, rest, h, Which::kPending, true);
      sum += std::string(" - (SELECT STRAIGHT_JOIN ") + count + rows.sql + ")";
      out.args.insert(out.args.end(), rows.args.begin(), rows.args.end());
    }
  }
  if (pending_apart(f, driver.ids)) {
    const EventSql pending = pending_sql(f);
    sum += " + (SELECT COUNT(*)" + pending.from + pending.joins + " WHERE p.type = 'event'" +
           pending.where.sql + ")";
    const std::vector<SqlValue> args = pending.args();
    out.args.insert(out.args.end(), args.begin(), args.end());
  }
  // The duration bounds again: an event longer than any before written since, count again.
  out.sql = "SELECT CAST(" + sum + " AS SIGNED)" + kHours;
  return out;
}

// The duration bounds the last count of this process read: the next count is planned with them,
// and counts again when those it reads differ (a longer event written since, a replica behind),
// so a list costs no statement to read them first.
std::mutex known_hours_mutex;
std::optional<Hours> known_hours;

}  // namespace

bool link_list_applies(const EventFilter& f) {
  return f.include.empty() && f.modified.empty() && !f.first_per_series && driver_of(f).has_value();
}

bool search_list_bounded(const EventFilter& f) {
  if (!link_list_applies(f)) return false;
  const Driver driver = *driver_of(f);
  return postings_drive(f, driver.ids) && driver.ids->size() == 1 &&
         counted_by_days(f, driver, rest_of(f, driver));
}

std::string link_page_sql(const EventFilter& filter) {
  const Driver driver = *driver_of(filter);
  return page_sql(filter, driver, rest_of(filter, driver), Hours{0, 0}, 10, 0).sql;
}

namespace {

// The total, counted with the duration bounds the last count of this process read (a count with
// others reads them and counts again), then the page statement `page` with the bounds, unless the
// page lies past the total. The page walks the driver's rows in list order and stops at its LIMIT,
// testing the rest's EXISTS row by row. Left to itself, MariaDB turns such an EXISTS into a
// semi-join that first materialises every row of the subquery (all postings of a common second
// word: 120,000 at 1M events, 90-180 ms) before the walk can begin; the driver is the smallest
// set, so testing its rows one by one never costs more. Returns the total.
template <typename ReadRow>
long long read_link_page(Db& db, const EventFilter& filter, long long limit, long long offset,
                         PageColumns columns, ReadRow read_row) {
  std::optional<Hours> assumed;
  {
    const std::lock_guard lock(known_hours_mutex);
    assumed = known_hours;
  }
  Hours hours;
  if (assumed) {
    hours = *assumed;
  } else {
    Rows rows = db.query(std::string("SELECT 0") + kHours);
    if (rows.next()) hours = hours_at(rows, 1);
  }
  const Driver driver = *driver_of(filter);
  const Rest rest = rest_of(filter, driver);
  long long total = 0;
  for (;;) {
    const Sql q = count_sql(filter, driver, rest, hours);
    Rows rows = db.query(q.sql, q.args);
    if (!rows.next()) break;
    total = rows.integer(0);
    const Hours now = hours_at(rows, 1);
    if (now == hours) break;
    hours = now;
  }
  {
    const std::lock_guard lock(known_hours_mutex);
    known_hours = hours;
  }
  if (total <= kFewLinks && term_links_alone(filter, driver, rest))
    terms_with_few_links().mark(few_links_key(filter, driver));
  if (total <= offset) return total;
  const Sql q = page_sql(filter, driver, rest, hours, limit, offset, columns);
  Rows rows = db.query(db.with_optimizer_switch(q.sql, "exists_to_in=off"), q.args);
  while (rows.next()) read_row(rows);
  return total;
}

}  // namespace

EventPage find_link_page(Db& db, const EventFilter& filter, long long limit, long long offset) {
  EventPage page;
  page.total = read_link_page(db, filter, limit, offset, PageColumns::kRows,
                              [&](const Rows& rows) { page.events.push_back(read_event(rows)); });
  return page;
}

EventKeyPage find_link_keys(Db& db, const EventFilter& filter, long long limit, long long offset) {
  EventKeyPage page;
  page.total = read_link_page(db, filter, limit, offset, PageColumns::kKeys,
                              [&](const Rows& rows) { page.keys.push_back(read_event_key(rows)); });
  return page;
}

}  // namespace cal
