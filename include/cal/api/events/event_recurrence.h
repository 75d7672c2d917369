// Recurring events in the API (docs/recurring-events.md): the `recurrence` input, expanding it into
// the occurrences a series write materialises, the cancelling of one occurrence (an EXDATE), and
// what the records of series and occurrences add to the event record.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/json.h"
#include "cal/store/event_series.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

// The `recurrence` lines sent (empty for null or []: a one-off event); nullopt when not sent.
std::optional<std::vector<std::string>> recurrence_input(const RequestContext& ctx);

// What a series write did, for its answer.
struct SeriesWrite {
  SeriesRule rule;  // the normal form of the lines, and the horizon
  MaterialiseCounts counts;
};

// Makes unparked event `event` the series of `lines` (non-empty): checks and expands them with the
// event's start, end and zone as the first occurrence, up to the horizon for a rule without an
// end, and materialises the occurrences. Throws 400 rest_invalid_param naming `recurrence` for a
// refused line or more than [recurrence] max_instances occurrences. Call inside the write's
// transaction; park_series(rule) follows once the answer is written.
SeriesWrite materialise_series(RequestContext& ctx, const Event& event,
                               const std::vector<std::string>& lines);

// The identities (original wall clock and instant; no event ids) of every occurrence `lines` give a
// series whose first occurrence is `event`, their EXDATEs ignored, up to the horizon for a rule
// without an end: the occurrences an EXDATE of these lines may cancel. Throws as
// materialise_series for a refused line.
std::vector<StoredOccurrence> cancellable_occurrences(RequestContext& ctx, const Event& event,
                                                      const std::vector<std::string>& lines);

// Extends unparked infinite series `event` (its rule `rule`) from its horizon to `horizon`: adds the
// occurrences starting in between, leaves the others as they are. Returns the rule with the new
// horizon, for park_series. Throws 400 rest_invalid_param naming end_date when the series would
// pass [recurrence] max_instances. Call inside a transaction, the series locked.
SeriesWrite extend_series(RequestContext& ctx, const Event& event, const SeriesRule& rule, Seconds horizon);

// The occurrences infinite series `event` (parked or not, its rule `rule`) gains from its horizon to
// `horizon`, with the same 400 as extend_series past max_instances.
std::vector<WantedOccurrence> occurrences_to_horizon(RequestContext& ctx, const Event& event,
                                                     const SeriesRule& rule, Seconds horizon);

// `instant` plus `months` calendar months in UTC (the day of month at most the 28th).
Seconds months_after(Seconds instant, int months);

// `lines` with an EXDATE for occurrence `occurrence` of a series whose first occurrence is `event`.
std::vector<std::string> with_exdate(std::vector<std::string> lines, const Event& event,
                                     const StoredOccurrence& occurrence);

// `lines` of a series whose first occurrence is `event`, ended before occurrence `occurrence`: a
// COUNT or UNTIL becomes an UNTIL just before it, later RDATEs and EXDATEs go. nullopt when
// nothing would be left (it is the first occurrence).
std::optional<std::vector<std::string>> lines_ending_before(RequestContext& ctx, const Event& event,
                                                            const std::vector<std::string>& lines,
                                                            const StoredOccurrence& occurrence);

// `lines` of a series whose first occurrence is `event`, for the series split off from occurrence
// `occurrence` on, whose first occurrence is `first`: a COUNT less the rule's occurrences before
// it, RDATEs and EXDATEs from it on.
std::vector<std::string> lines_from(RequestContext& ctx, const Event& event,
                                    const std::vector<std::string>& lines, const StoredOccurrence& occurrence,
                                    const Event& first);

// The recurrence members of a record: series_id, is_recurring, is_exception, original_start_date,
// original_start_date_utc; `occurrence` null for a one-off event or a series (`is_series`).
void write_occurrence_members(JsonWriter& w, const EventOccurrence* occurrence, bool is_series);

}  // namespace cal
