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
  std::string_view name;
  std::string Details::*member;
  std::size_t max_chars;
  Check check;
};

const TextField<VenueDetails> kVenueFields[] = {
    {"address", &VenueDetails::address, 255, Check::kText},
    {"city", &VenueDetails::city, 255, Check::kText},
    {"country", &VenueDetails::country, 255, Check::kText},
    {"province", &VenueDetails::province, 255, Check::kText},
    {"state", &VenueDetails::state, 255, Check::kText},
    {"zip", &VenueDetails::zip, 64, Check::kText},
    {"phone", &VenueDetails::phone, 64, Check::kText},
    {"stateprovince", &VenueDetails::stateprovince, 255, Check::kText},
    {"website", &VenueDetails::website, 2048, Check::kUrl},
};

const TextField<OrganizerDetails> kOrganizerFields[] = {
    {"phone", &OrganizerDetails::phone, 64, Check::kText},
    {"website", &OrganizerDetails::website, 2048, Check::kUrl},
    {"email", &OrganizerDetails::email, 255, Check::kEmail},
};

std::size_t utf8_length(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// The problem with `value` for `field`, or "" when it is acceptable ("" always is: it clears).
template <typename Details>
std::string field_problem(const TextField<Details>& field, const std::string& value, const Locale& locale) {
  const std::string name(field.name);
  if (value.empty()) return "";
  if (utf8_length(value) > field.max_chars)
    return format_message(locale, "%s must be at most %s characters long.", {name, std::to_string(field.max_chars)});
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
bool text_fields_match(const TextField<Details> (&fields)[N], const Params& params, const Details& wanted, const Details& stored) {
  for (const auto& field : fields)
    if (params.given(field.name) && wanted.*field.member != stored.*field.member) return false;
  return true;
}

template <typename Details, std::size_t N>
const TextField<Details>* find_field(const TextField<Details> (&fields)[N], std::string_view name) {
  for (const auto& field : fields)
    if (field.name == name) return &field;
  return nullptr;
}

}  // namespace

std::string linked_field_problem(std::string_view name, const std::string& value, const Locale& locale) {
  if (const auto* field = find_field(kVenueFields, name)) return field_problem(*field, value, locale);
  if (const auto* field = find_field(kOrganizerFields, name)) return field_problem(*field, value, locale);
  return "";
}

std::string derive_stateprovince(std::string_view country, std::string_view state, std::string_view province) {
  const std::string c = ascii::lower(ascii::trim(country));
  const bool united_states = c.empty() || c == "us" || c == "united states";
  return std::string(united_states ? state : province);
}

void apply_venue_params(const Params& params, bool geoloc, VenueDetails& details) {
  VenueDetails next = details;
  apply_text_fields(kVenueFields, params, next);
  if (!params.given("stateprovince")) next.stateprovince = derive_stateprovince(next.country, next.state, next.province);
  if (params.given("show_map")) next.show_map = params.boolean("show_map");
  if (params.given("show_map_link")) next.show_map_link = params.boolean("show_map_link");
  if (geoloc && params.given("geo_lat")) next.geo_lat = params.find("geo_lat")->number;
  if (geoloc && params.given("geo_lng")) next.geo_lng = params.find("geo_lng")->number;
  details = std::move(next);
}

bool venue_params_match(const Params& params, bool geoloc, const VenueDetails& wanted, const VenueDetails& stored) {
  if (!text_fields_match(kVenueFields, params, wanted, stored)) return false;
  if (params.given("show_map") && wanted.show_map != stored.show_map) return false;
  if (params.given("show_map_link") && wanted.show_map_link != stored.show_map_link) return false;
  if (geoloc && params.given("geo_lat") && wanted.geo_lat != stored.geo_lat) return false;
  if (geoloc && params.given("geo_lng") && wanted.geo_lng != stored.geo_lng) return false;
  return true;
}

void apply_organizer_params(const Params& params, OrganizerDetails& details) {
  apply_text_fields(kOrganizerFields, params, details);
}

bool organizer_params_match(const Params& params, const OrganizerDetails& wanted, const OrganizerDetails& stored) {
  return text_fields_match(kOrganizerFields, params, wanted, stored);
}

}  // namespace cal
