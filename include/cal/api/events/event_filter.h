// The filters of GET /events (docs/api.md §4.1, §4.3) as the store's typed EventFilter: visibility and
// status, include, the date window, search, categories/tags, venue, organizer, featured,
// post_parent, ticketed and the geolocation extension.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/store/event_filter.h"

#include <optional>
#include <string_view>

namespace cal {

// Builds the filter from the request's validated parameters. Resolves category and tag slugs
// (one statement each), and throws ApiError 400 rest_invalid_param for statuses the caller may
// not ask for, for geolocation parameters while the extension is off, and for a lone
// geoloc_lat/geoloc_lng. Its search is not planned yet (plan_filter_search).
EventFilter build_event_filter(RequestContext& ctx);

// Plans the filter's search (when it has one) with the search index: which words' postings drive
// the list. The plan's statements and the list's must read one state of the database, or the
// indexer committing between them could move an event from pending into a word the plan did not
// read, and the list would miss it. So `snapshot` is opened first, a read-only transaction (none
// when no word is required: a list's other statements each read one state on their own). Call
// it after any write the list makes (a horizon's extension); commit `snapshot` once the answer
// is written.
void plan_filter_search(RequestContext& ctx, EventFilter& f, std::optional<Transaction>& snapshot);

// The words of a `search` value: split on white space; "-word" excludes, a lone "-" is ignored.
SearchWords parse_search_words(std::string_view text);

}  // namespace cal
