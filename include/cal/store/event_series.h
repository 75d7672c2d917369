// Recurring series and their occurrences (docs/recurring-events.md). A series is a post of type
// 'series': its event fields wait in event_series and its links in series_links, where no list
// looks. Each occurrence is an ordinary event post (parent = the series) with its own details,
// links and search postings copied from the series, and a row of event_occurrences giving its
// identity. A series is "parked" while stored; the writes "unpark" it (it becomes an event with
// details and links again, so the event writes apply to it unchanged), materialise its
// occurrences from it, then park it again, all inside one transaction.
#pragma once

#include "cal/store/events.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cal {

// What event_series holds beside the event fields. Date-times are "YYYY-MM-DD HH:MM:SS".
struct SeriesRule {
  std::vector<std::string> recurrence;  // normal-form lines
  bool is_infinite = false;
  std::string horizon_utc;  // occurrences starting before this are materialised
};

// An occurrence the rule produces: its identity (original wall clock and instant) and its times.
struct WantedOccurrence {
  std::string original_local;
  std::string original_utc;
  std::string start_local, end_local, start_utc, end_utc;
};

// An occurrence as stored.
struct StoredOccurrence {
  long long event_id = 0;
  long long series_id = 0;
  std::string original_local;
  std::string original_utc;
  bool is_exception = false;
};

// What a materialisation changed.
struct MaterialiseCounts {
  long long created = 0;
  long long removed = 0;
  long long exceptions_dropped = 0;
};

// The rule of series `id`, nullopt when `id` is no series. One statement; `for_update`: a locking
// read (the latest committed rule, locked until commit), for a writer that decides on it.
std::optional<SeriesRule> find_series_rule(Db& db, long long id, bool for_update = false);

// The rules of series `ids`, by id; ids that are no series are left out. One statement (none for
// no ids).
std::map<long long, SeriesRule> find_series_rules(Db& db, const std::vector<long long>& ids);

// The id of the series whose slug is `slug`, nullopt when none. One statement.
std::optional<long long> find_series_by_slug(Db& db, std::string_view slug);

// Series `id` as an event (its post, the fields of event_series, its venue link); nullopt when `id`
// is no series. One statement.
std::optional<Event> find_series_event(Db& db, long long id);

// Series `ids` as find_series_event() gives each, by id; ids that are no series are left out. One
// statement (none for no ids).
std::map<long long, Event> find_series_events(Db& db, const std::vector<long long>& ids);

// The occurrence row of event `event_id`, nullopt when it is no occurrence. One statement.
std::optional<StoredOccurrence> find_occurrence(Db& db, long long event_id);

// An occurrence as the record of its series lists it.
struct UpcomingOccurrence {
  long long event_id = 0;
  std::string start_local, start_utc;
};

// The first `limit` occurrences of series `series_id` ending after `now_utc`, by start. One statement.
std::vector<UpcomingOccurrence> find_upcoming_occurrences(Db& db, long long series_id,
                                                          const std::string& now_utc, int limit);

// Some occurrence of series `series_id` not edited alone, whose links are the series' own; 0 when
// there is none.
long long find_plain_occurrence(Db& db, long long series_id);

// The occurrences of series `series_id` by original instant. One statement.
std::vector<StoredOccurrence> find_series_occurrences(Db& db, long long series_id);

// What a feed needs of a series' occurrences beside its rule.
struct SeriesSpan {
  std::string last_original_utc;      // the latest original instant ("YYYY-MM-DD HH:MM:SS")
  long long plain_occurrence = 0;     // an occurrence not edited alone (its links are the series')
  std::vector<long long> exceptions;  // the occurrences edited alone
};

// The spans of series `ids` that have occurrences, by series. One statement (none for no ids).
std::map<long long, SeriesSpan> find_series_spans(Db& db, const std::vector<long long>& ids);

// Makes the occurrences of series `series_id` (unparked: an event with details and links) exactly
// `wanted`: occurrences whose identity is no longer wanted are deleted (exceptions too, counted),
// the others keep their posts; those not edited alone get the series' fields, times and links
// again; new ones are inserted in bulk. With `keep_others` (an extension of the horizon) the
// occurrences there already are left as they are, whether wanted or not, and only the wanted
// ones missing are added. Call inside a transaction.
MaterialiseCounts materialise_occurrences(Db& db, long long series_id,
                                          const std::vector<WantedOccurrence>& wanted,
                                          bool keep_others = false);

// The earliest horizon of all infinite series ("YYYY-MM-DD HH:MM:SS"), nullopt when there is none.
// One statement, answered from the index's first entry.
std::optional<std::string> earliest_infinite_horizon(Db& db);

// The infinite series materialised only to before `utc` ("YYYY-MM-DD HH:MM:SS"), at most `limit`,
// by id. One statement.
std::vector<long long> find_series_short_of(Db& db, const std::string& utc, int limit);

// Stores `rule` and moves the event fields and links of `id` out of the list tables: the post
// becomes type 'series'. Call inside a transaction, after materialise_occurrences.
void park_series(Db& db, long long id, const SeriesRule& rule);

// Turns parked series `id` back into an event with its details and links (targets deleted since
// are skipped). Call inside a transaction, then park_series or forget_series.
void unpark_series(Db& db, long long id);

// Deletes the occurrences and the rule of unparked series `id`, which stays a one-off event.
// Returns the number of occurrences deleted.
long long forget_series(Db& db, long long id);

// A new event with the post fields, details and links of unparked series `series_id` (its slug
// made unique), for the part of a series split off; returns its id.
long long copy_series_event(Db& db, long long series_id);

// Moves the occurrences of series `from` originally starting at or after `from_utc` to series `to`.
void move_occurrences(Db& db, long long from, long long to, const std::string& from_utc);

// Marks occurrence `event_id` as edited alone: series edits leave it alone from now on.
void mark_exception(Db& db, long long event_id);

// Whether another occurrence of series `series_id` than `event_id` starts at `start_utc`.
bool occurrence_starts_at(Db& db, long long series_id, long long event_id, const std::string& start_utc);

// Sets the status of every occurrence of series `series_id` (trash keeps the status to restore,
// untrash restores it), as the series' own status moves.
void set_occurrences_status(Db& db, long long series_id, const std::string& status);

// Restores the occurrences of series `series_id` trashed with it.
void untrash_occurrences(Db& db, long long series_id);

// Deletes every occurrence of series `series_id`.
void delete_occurrences(Db& db, long long series_id);

}  // namespace cal
