// The filters of GET /events (docs/api.md §4.1, §4.3) as the store's typed EventFilter: visibility and
// status, include, the date window, search, categories/tags, venue, organizer, featured,
// post_parent, ticketed and the geolocation extension.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/store/event_filter.h"

#include <string_view>

namespace cal {

// Builds the filter from the request's validated parameters. Resolves category and tag slugs
// (one statement each), and throws ApiError 400 rest_invalid_param for statuses the caller may
// not ask for, for geolocation parameters while the extension is off, and for a lone
// geoloc_lat/geoloc_lng.
EventFilter build_event_filter(RequestContext& ctx);

// The words of a `search` value: split on white space; "-word" excludes, a lone "-" is ignored.
SearchWords parse_search_words(std::string_view text);

}  // namespace cal
