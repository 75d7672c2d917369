// The most items each list-valued input takes (docs/api.md §1.3, list limits). No real site comes
// near them; they bound the work of one request: the terms and organizers one event write may
// create or link, and the ids or slugs one list filter sends to the store. The route table puts
// them on its parameters (ParamSpec::max_items), from where the validator enforces them and the
// root index and /doc state them.
#pragma once

#include <cstddef>

namespace cal::list_limits {

inline constexpr std::size_t kTermsPerEvent = 100;       // an event's categories, its tags
inline constexpr std::size_t kOrganizersPerEvent = 100;  // an event's organizer list
inline constexpr std::size_t kFilterItems = 1000;        // include, exclude, and id/slug filters
inline constexpr std::size_t kChoiceItems = 100;         // lists of fixed choices (status, kinds)

}  // namespace cal::list_limits
