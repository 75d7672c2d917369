// What events use of venues and organizers: the one writer of each record (docs/api.md §3.2, also
// inside events), their schema.org data, and the resolution of an event's `venue`/`organizer`
// input (docs/api.md §5). Implemented in src/api/linked/: venue_record.cpp and organizer_record.cpp (the
// writers), linked_json_ld.cpp (schema.org data) and linked_inputs.cpp (an event's inputs).
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/json.h"
#include "cal/store/organizers.h"
#include "cal/store/venues.h"

#include <rapidjson/document.h>

#include <vector>

namespace cal {

// Writes a venue record, every key of docs/api.md §3.2 in order; `json_ld` only when `single`.
void write_venue(JsonWriter& w, const RequestContext& ctx, const Venue& venue,
                 const std::vector<Image>& images, bool single);
// Writes an organizer record, every key of docs/api.md §3.2 in order; `json_ld` only when `single`.
void write_organizer(JsonWriter& w, const RequestContext& ctx, const Organizer& organizer,
                     const std::vector<Image>& images, bool single);

// The schema.org `Place` object of a venue (with its `PostalAddress`, and `geo` when it has
// coordinates), as the value of a venue's `json_ld` or an event's `location`. Empty texts are left
// out.
void write_venue_json_ld(JsonWriter& w, const RequestContext& ctx, const Venue& venue,
                         const std::vector<Image>& images);
// The schema.org `Organization` object of an organizer (name, description, url, telephone,
// email, sameAs), as the value of an organizer's `json_ld` or inside an event's. Empty texts are
// left out.
void write_organizer_json_ld(JsonWriter& w, const RequestContext& ctx, const Organizer& organizer,
                             const std::vector<Image>& images);

// The problem with an event's `venue` input (docs/api.md §5), checked in the validation stage: at most
// one venue; an id of a live venue (looked up when context.db is set); or venue data valid for
// POST /venues (its messages joined). "" when acceptable.
std::string venue_input_problem(const rapidjson::Value& raw, const Locale& locale,
                                const CheckContext& context);
// The same for an event's `organizer` input: organizer ids or organizer data objects.
std::string organizer_input_problem(const rapidjson::Value& raw, const Locale& locale,
                                    const CheckContext& context);

// An event's `venue` input: an id, {"id": N}, or venue data (name required) that creates a venue
// or reuses one whose name (case-insensitive) and every given field match; 0, "", [] or null →
// 0 (unlink). Input already checked by venue_input_problem(); a venue the caller may not use → 403.
// Runs inside the caller's transaction.
long long resolve_venue_input(RequestContext& ctx, const rapidjson::Value& raw);

// An event's `organizer` input: an id, an array of ids, {"id": N} objects or organizer data
// objects (created or reused like venues), in the given order; [] or "" → none.
std::vector<long long> resolve_organizer_input(RequestContext& ctx, const rapidjson::Value& raw);

}  // namespace cal
