// The detail fields of venues and organizers in writes (docs/api.md §3.2, §5): reading them from the
// validated parameters, deriving `stateprovince`, and comparing what a create sends with a stored
// record for the dedupe rule. Pure functions of their arguments (unit-tested without a database).
#pragma once

#include "cal/api/pipeline/params.h"
#include "cal/core/i18n/i18n.h"
#include "cal/store/organizers.h"
#include "cal/store/venues.h"

#include <string>
#include <string_view>

namespace cal {

// `state` when `country` is empty, "US" or "United States" (any case, spaces trimmed), else
// `province`.
std::string derive_stateprovince(std::string_view country, std::string_view state, std::string_view province);

// The problem with a venue/organizer text detail `name` (its column's length; URL or e-mail form
// for website and email), "" when acceptable or when `name` is no such field; "" always is.
std::string linked_field_problem(std::string_view name, const std::string& value, const Locale& locale);

// Applies the venue detail fields sent in `params` to `details`: only sent fields change;
// `stateprovince`, when not sent, is derived from the resulting country/state/province;
// `show_map`/`show_map_link` take the truthy reading; `geo_lat`/`geo_lng` only when `geoloc`.
void apply_venue_params(const Params& params, bool geoloc, VenueDetails& details);

// Whether `stored` holds what `wanted` holds in every venue detail field sent in `params`
// (`geo_*` counted only when `geoloc`). A derived stateprovince is not compared.
bool venue_params_match(const Params& params, bool geoloc, const VenueDetails& wanted,
                        const VenueDetails& stored);

// Applies the organizer detail fields sent in `params` (phone, website, email) to `details`.
// "" clears a field. The fields' rules ran in the validator (check_linked_text).
void apply_organizer_params(const Params& params, OrganizerDetails& details);

// Whether `stored` holds what `wanted` holds in every organizer detail field sent in `params`.
bool organizer_params_match(const Params& params, const OrganizerDetails& wanted,
                            const OrganizerDetails& stored);

}  // namespace cal
