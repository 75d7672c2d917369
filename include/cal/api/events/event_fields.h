// The event-specific fields of create and update (docs/api.md §5 Events, §3.5): time zone, start/end
// with all-day rounding, cost, website, the five flags and the password; then the links (venue,
// organizers, categories, tags). Only sent fields change; create fills the defaults.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/store/event_relations.h"
#include "cal/store/events.h"

#include <rapidjson/document.h>

#include <optional>
#include <string>

namespace cal {

inline constexpr std::size_t kMaxCostLength = 255;  // event_details.cost

// The cost text stored for a `cost` input: null → "", text as sent, a number as written, an
// array of texts and numbers joined by join_cost_values(); nullopt for any other shape.
std::optional<std::string> cost_input_text(const rapidjson::Value& raw);

// Applies the sent detail fields to `event` (and the password to event.post when the route
// declares it). The fields' own rules ran in the validator (cal/api/pipeline/param_checks.h); throws
// ApiError 400 rest_invalid_param for an end before the start.
void apply_event_fields(RequestContext& ctx, Event& event, bool create);

// Applies the sent `venue`, `organizer`, `categories` and `tags` to the stored event: each
// replaces that link set (an empty value removes it), an omitted one keeps it. Creates venues,
// organizers and terms from inline data as docs/api.md §5 says. Call inside the write's transaction.
// `created`: the event was inserted in this transaction, so it has no links to replace yet.
// Returns what the event links now as far as the write knows it: on create everything (an
// omitted set is empty), on update the sets it replaced.
struct AppliedLinks {
  std::optional<long long> venue_id;  // 0: none
  WrittenLinks links;
};
AppliedLinks apply_event_links(RequestContext& ctx, long long event_id, bool created = false);

}  // namespace cal
