// The detail fields of venues and organizers in writes (SPEC §3.2, §5): reading them from the
// validated parameters, deriving `stateprovince`, and comparing what a create sends with a stored
// record for the dedupe rule. Pure functions of their arguments (unit-tested without a database).
#pragma once

#include "cal/api/params.h"
#include "cal/core/i18n.h"
#include "cal/store/organizers.h"
#include "cal/store/venues.h"

#include <string>
#include <string_view>

namespace cal {

// `state` when `country` is empty, "US" or "United States" (any case, spaces trimmed), else
// `province`.
std::string derive_stateprovince(std::string_view country, std::string_view state, std::string_view province);

// Applies the venue detail fields sent in `params` to `details`: only sent fields change;
// `stateprovince`, when not sent, is derived from the resulting country/state/province;
// `show_map`/`show_map_link` take the truthy reading; `geo_lat`/`geo_lng` only when `geoloc`.
// Throws one ApiError 400 rest_invalid_param naming every bad field (website not an absolute
// http(s) URL, a text longer than its column), leaving `details` unchanged.
void apply_venue_params(const Params& params, const Locale& locale, bool geoloc, VenueDetails& details);

// Whether `stored` holds what `wanted` holds in every venue detail field sent in `params`
// (`geo_*` counted only when `geoloc`). A derived stateprovince is not compared.
bool venue_params_match(const Params& params, bool geoloc, const VenueDetails& wanted, const VenueDetails& stored);

// Applies the organizer detail fields sent in `params` (phone, website, email) to `details`.
// Throws one ApiError 400 rest_invalid_param for an invalid e-mail address, a website that is not
// an absolute http(s) URL, or a text longer than its column; "" clears a field.
void apply_organizer_params(const Params& params, const Locale& locale, OrganizerDetails& details);

// Whether `stored` holds what `wanted` holds in every organizer detail field sent in `params`.
bool organizer_params_match(const Params& params, const OrganizerDetails& wanted, const OrganizerDetails& stored);

}  // namespace cal
