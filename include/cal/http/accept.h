// Content negotiation by the Accept header (RFC 9110 §12.5.1), as far as the service needs it:
// whether a client asks for an iCalendar feed (docs/feeds.md) instead of JSON.
#pragma once

#include <string_view>

namespace cal {

// Whether `accept` names text/calendar with a quality above 0, and at least as high as that of
// application/json when both are named (wildcards such as */* prefer neither: JSON stays the
// default for them). Media type and parameter names are case-insensitive; a malformed quality
// counts as 1.
bool prefers_calendar(std::string_view accept);

}  // namespace cal
