// The writes of POST /events and of an event update without their response, for the handlers
// (src/api/events/event_writes.cpp) and the iCalendar import (src/api/ical/ical_import.cpp), which
// maps each VEVENT to the parameters of these routes: one validation and one write path.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/store/event_series.h"

#include <string>
#include <vector>

namespace cal {

// How a write keeps the search index: in its own transaction, or (a one-off event's, when the
// process has a search indexer, cal/api/events/search_indexer.h) by leaving the event pending and
// waking the indexer once committed. A series is always indexed inline: its occurrences copy its
// postings in the same transaction.
enum class IndexUpkeep { kInline, kDeferrable };

// Creates the event the parameters of POST /events describe; returns its id. Joins the caller's
// transaction if one is open (transactions nest flatly, cal/store/db.h).
long long write_new_event(RequestContext& ctx, IndexUpkeep upkeep = IndexUpkeep::kInline);

// Updates the event the `id` (or `slug`) parameter names, or event `target` when given (a write
// of an occurrence that applies to its series), with the parameters of POST /events/{id},
// checking the caller may edit it; returns its id.
long long write_event_update(RequestContext& ctx, long long target = 0,
                             IndexUpkeep upkeep = IndexUpkeep::kInline);

// Makes event `id`, just written (unparked), the series of `lines` (non-empty): its occurrences
// materialised, then parked; what create_event does with `recurrence`, without the answer.
void save_series(RequestContext& ctx, long long id, const std::vector<std::string>& lines);

// The scope=all update of series `id` (whose stored rule is `rule`) with the parameters of
// POST /events/{id}, without the answer: `recurrence` replaces the rule ([] makes it a one-off
// event), occurrences keep their ids where the rule still produces them. Returns `id`.
long long write_series_update(RequestContext& ctx, long long id, const SeriesRule& rule);

// The scope=this update of `occurrence` (which the `id` or `slug` parameter names) with the
// parameters of POST /events/{id}, without the answer: it becomes an exception, keeping its id.
// Throws 400 when `recurrence` is given or another occurrence of its series starts at its new
// start. Returns its id.
long long write_occurrence_update(RequestContext& ctx, const StoredOccurrence& occurrence);

}  // namespace cal
