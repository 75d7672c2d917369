// Detail fields of venues and organizers (see cal/api/linked/linked_fields.h): one table-driven reader
// and one comparer serve both record types.
#include "cal/api/linked/linked_fields.h"

#include "cal/api/pipeline/error.h"
#include "cal/core/text/ascii.h"
#include "cal/core/text/url.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

namespace cal {
namespace {

enum class Check { kText, kUrl, kEmail };

// A text detail field: its parameter, its member, the column's size in characters, its check.
template <typename Details>
struct TextField {
  ParamName name;
  std::string Details::*member;
  std::size_t max_chars;
  Check check;
};

const TextField<VenueDetails> kVenueFields[] = {
    {param::kAddress, &VenueDetails::address, 255, Check::kText},
    {param::kCity, &VenueDetails::city, 255, Check::kText},
    {param::kCountry, &VenueDetails::country, 255, Check::kText},
    {param::kProvince, &VenueDetails::province, 255, Check::kText},
    {param::kState, &VenueDetails::state, 255, Check::kText},
    {param::kZip, &VenueDetails::zip, 64, Check::kText},
    {param::kPhone, &VenueDetails::phone, 64, Check::kText},
    {param::kStateprovince, &VenueDetails::stateprovince, 255, Check::kText},
    {param::kWebsite, &VenueDetails::website, 2048, Check::kUrl},
};

const TextField<OrganizerDetails> kOrganizerFields[] = {
    {param::kPhone, &OrganizerDetails::phone, 64, Check::kText},
    {param::kWebsite, &OrganizerDetails::website, 2048, Check::kUrl},
    {param::kEmail, &OrganizerDetails::email, 255, Check::kEmail},
};

std::size_t utf8_length(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// The problem with `value` for `field`, or "" when it is acceptable ("" always is: it clears).
template <typename Details>
std::string field_problem(const TextField<Details>& field, const std::string& value, const Locale& locale) {
  const std::string name(field.name);
  if (value.empty()) return "";
  if (utf8_length(value) > field.max_chars)
    return format_message(locale, "%s must be at most %s characters long.",
                          {name, std::to_string(field.max_chars)});
  if (field.check == Check::kUrl && !is_absolute_http_url(value))
    return format_message(locale, "%s must be an absolute http(s) URL.", {name});
  if (field.check == Check::kEmail && !is_valid_email(value))
    return format_message(locale, "%s must be a valid e-mail address.", {name});
  return "";
}

// Copies every sent text field into `details` (checked by check_linked_text in the validator).
template <typename Details, std::size_t N>
void apply_text_fields(const TextField<Details> (&fields)[N], const Params& params, Details& details) {
  for (const auto& field : fields)
    if (params.given(field.name)) details.*field.member = params.text(field.name);
}

template <typename Details, std::size_t N>
bool text_fields_match(const TextField<Details> (&fields)[N], const Params& params, const Details& wanted,
                       const Details& stored) {
  for (const auto& field : fields)
    if (params.given(field.name) && wanted.*field.member != stored.*field.member) return false;
  return true;
}

template <typename Details, std::size_t N>
const TextField<Details>* find_field(const TextField<Details> (&fields)[N], std::string_view name) {
  for (const auto& field : fields)
    if (field.name.text() == name) return &field;
  return nullptr;
}

}  // namespace

std::string linked_field_problem(std::string_view name, const std::string& value, const Locale& locale) {
  if (const auto* field = find_field(kVenueFields, name)) return field_problem(*field, value, locale);
  if (const auto* field = find_field(kOrganizerFields, name)) return field_problem(*field, value, locale);
  return "";
}

std::string derive_stateprovince(std::string_view country, std::string_view state,
                                 std::string_view province) {
  const std::string c = ascii::lower(ascii::trim(country));
  const bool united_states = c.empty() || c == "us" || c == "united states";
  return std::string(united_states ? state : province);
}

void apply_venue_params(const Params& params, bool geoloc, VenueDetails& details) {
  VenueDetails next = details;
  apply_text_fields(kVenueFields, params, next);
  if (!params.given(param::kStateprovince))
    next.stateprovince = derive_stateprovince(next.country, next.state, next.province);
  if (params.given(param::kShowMap)) next.show_map = params.boolean(param::kShowMap);
  if (params.given(param::kShowMapLink)) next.show_map_link = params.boolean(param::kShowMapLink);
  if (geoloc && params.given(param::kGeoLat)) next.geo_lat = params.find(param::kGeoLat)->number;
  if (geoloc && params.given(param::kGeoLng)) next.geo_lng = params.find(param::kGeoLng)->number;
  details = std::move(next);
}

bool venue_params_match(const Params& params, bool geoloc, const VenueDetails& wanted,
                        const VenueDetails& stored) {
  if (!text_fields_match(kVenueFields, params, wanted, stored)) return false;
  if (params.given(param::kShowMap) && wanted.show_map != stored.show_map) return false;
  if (params.given(param::kShowMapLink) && wanted.show_map_link != stored.show_map_link) return false;
  if (geoloc && params.given(param::kGeoLat) && wanted.geo_lat != stored.geo_lat) return false;
  if (geoloc && params.given(param::kGeoLng) && wanted.geo_lng != stored.geo_lng) return false;
  return true;
}

void apply_organizer_params(const Params& params, OrganizerDetails& details) {
  apply_text_fields(kOrganizerFields, params, details);
}

bool organizer_params_match(const Params& params, const OrganizerDetails& wanted,
                            const OrganizerDetails& stored) {
  return text_fields_match(kOrganizerFields, params, wanted, stored);
}

}  // namespace cal
