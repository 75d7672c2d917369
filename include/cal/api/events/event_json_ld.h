// The `json_ld` member of a single event read (docs/api.md §3.1): a schema.org Event with ISO 8601
// start/end carrying the event zone's offset, its venue as a Place, its organizers, and an
// offer when the event has a cost.
#pragma once

#include "cal/api/events/event_record.h"
#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/json.h"
#include "cal/core/text/cost.h"

namespace cal {

// Writes the schema.org object (the value only; the caller wrote the key).
void write_event_json_ld(JsonWriter& w, const RequestContext& ctx, const Event& event,
                         const EventRelations& relations, const CostDetails& cost);

}  // namespace cal
