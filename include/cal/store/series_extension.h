// The horizons of many infinite series extended together (docs/recurring-events.md, "Horizon"):
// a window far ahead may pass the horizons of a thousand series, and a series write each (some 50
// statements) would take seconds. Here the new occurrences of up to 1,000 series share each
// statement, copied from the parked series' own rows (event_series, series_links) and, for the
// search postings, from one of their occurrences not edited alone, whose words are the series'.
#pragma once

#include "cal/store/event_series.h"

#include <vector>

namespace cal {

// An infinite series locked for extension.
struct ExtendableSeries {
  long long id = 0;
  SeriesRule rule;
  Event event;          // its fields as parked: the times of its first occurrence
  long long model = 0;  // an occurrence not edited alone; 0 when it has none
};

// Locks the posts and event_series rows of series `ids` (ascending) and reads those still
// infinite. The locks are held until the transaction ends: a second extender waits, then finds
// the horizons moved.
std::vector<ExtendableSeries> lock_infinite_series(Db& db, std::vector<long long> ids);

// The occurrences one series gains, none of them stored yet.
struct SeriesExtension {
  long long series_id = 0;
  long long model = 0;  // ExtendableSeries::model, not 0
  std::string horizon_utc;
  std::vector<WantedOccurrence> added;
};

// Writes the occurrences of every extension with their derived data (rollups, link copies, term
// counts, search postings or pending marks, change-log notes of the occurrences, terms and
// series) and moves the horizons, as a series write of each would.
void extend_occurrences(Db& db, const std::vector<SeriesExtension>& extensions);

}  // namespace cal
