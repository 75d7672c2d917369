// The search index of event texts (docs/search.md): its upkeep on writes and the plan of a
// search. Exact by construction: the index only narrows the events a search tests; the answer is
// always what `LIKE '%word%'` on title, description and excerpt gives.
#pragma once

#include "cal/store/db.h"
#include "cal/store/event_filter.h"

#include <functional>
#include <optional>
#include <vector>

namespace cal {

// What the caller knows of the event it wrote: a created event is pending (its insert trigger
// marked it, in this transaction) and has no postings yet, so neither needs a statement.
enum class WrittenEvent { kChanged, kCreated };

// Indexes up to `limit` pending events that no other transaction holds, `written` (an event this
// transaction wrote) first. Call it inside the transaction that wrote an event's text, before its
// commit. Returns how many.
long long index_pending_events(Db& db, long long limit, long long written,
                               WrittenEvent how = WrittenEvent::kChanged);

// Indexes the events with ids from `first` to `last` whatever their state (the demo loader's
// rows, written while the triggers were off). Call inside a transaction, with @cal_bulk_load set:
// it counts the new postings in search_word_days itself.
void index_event_range(Db& db, long long first, long long last);

// Writes the vocabulary's trigrams again, marks every event pending and indexes them all, in
// transactions of `batch` events; calls progress(indexed so far, total) after each. Returns the
// number indexed.
long long rebuild_search_index(Db& db, long long batch,
                               const std::function<void(long long, long long)>& progress);

// Postings a probe counts at most. A word held by more events is still narrowed when its postings
// can drive the list (few index words: read from the list index alone), and is expensive work.
inline constexpr long long kSearchProbeLimit = 5000;
// Index words whose postings may drive the list (event_link_list.cpp reads each word's apart).
inline constexpr std::size_t kMaxDrivingWords = 8;

// How `search` is answered: narrowed by the index to the events holding one required word, or
// (no narrowing) by testing every event the other filters leave.
struct EventSearchPlan {
  std::optional<SearchNarrowing> narrowing;
  // Whether the search tests many events (no narrowing, or a word held by many): the caller
  // runs it under the expensive-work limits.
  bool expensive = false;
  // The required words tried whose postings decide them: tested on the postings, not the texts.
  std::vector<IndexedWord> indexed;
};

// Plans a search: for each piece of each required word (longest first, a few at most), the index
// words holding it and a bounded count of their postings; the piece with the fewest wins.
EventSearchPlan plan_event_search(Db& db, const SearchWords& words);

// The code points the server's utf8mb4_unicode_ci weighs like an ASCII separator, for
// `calendarctl search-index check` (compared with is_search_separator()).
std::vector<char32_t> server_search_separators(Db& db);

}  // namespace cal
