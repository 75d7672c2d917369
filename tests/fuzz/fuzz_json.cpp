// libFuzzer target: a JSON request body → parse_json_body() → validate_params() of every
// endpoint, then the pure readers handlers apply to raw JSON values: term inputs
// (split_terms_input) and venue/organizer detail fields (apply_venue_params,
// apply_organizer_params).
#include "params_driver.h"
#include "cal/api/linked/linked_fields.h"
#include "cal/api/terms/term_input.h"
#include "cal/http/input.h"

#include <cstddef>
#include <cstdint>

namespace {

// The write endpoint of `pattern` serving POST (create) or the update endpoint.
const cal::Endpoint* endpoint(std::string_view pattern, std::string_view method) {
  for (const cal::Route& route : cal::route_table())
    if (route.pattern == pattern) return route.endpoint_for(method);
  return nullptr;
}

// Validates `body` for one endpoint; nullopt when it is rejected (a checked 400).
std::optional<cal::Params> params_for(const cal::Endpoint& e, std::string_view pattern,
                                      const rapidjson::Value& body) {
  static const cal::Locale locale;
  cal::ParamSources sources;
  sources.path = caltest_fuzz::path_values(pattern);
  sources.body = &body;
  try {
    return cal::validate_params(e.params, sources, locale);
  } catch (const cal::ApiError&) {
    return std::nullopt;
  }
}

void check_terms(const cal::Params& params, cal::ParamName name) {
  const cal::ParamValue* v = params.find(name);
  if (!v || !v->raw) return;
  if (const auto items = cal::split_terms_input(*v->raw)) {
    for (const auto& item : *items) {
      caltest_fuzz::require(item.id > 0 || !item.name.empty(), "term item with neither id nor name");
      if (item.id == 0) cal::normalized_term_name(item.name);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  rapidjson::Document body;
  const cal::JsonBodyError error = cal::parse_json_body(text, body);
  caltest_fuzz::require(body.IsObject(), "parse_json_body left a non-object");
  if (error != cal::JsonBodyError::kNone) {
    caltest_fuzz::require(body.ObjectEmpty(), "a rejected body left members behind");
    return 0;
  }
  caltest_fuzz::validate_everywhere(&body, nullptr, {}, false);

  static const cal::Locale locale;
  if (const cal::Endpoint* e = endpoint("/events", "POST"))
    if (const auto params = params_for(*e, "/events", body)) {
      check_terms(*params, cal::param::kCategories);
      check_terms(*params, cal::param::kTags);
    }
  if (const cal::Endpoint* e = endpoint("/venues", "POST"))
    if (const auto params = params_for(*e, "/venues", body)) {
      cal::VenueDetails details;
      try {
        cal::apply_venue_params(*params, true, details);
        caltest_fuzz::require(cal::venue_params_match(*params, true, details, details),
                              "venue differs from itself");
      } catch (const cal::ApiError& err) {
        caltest_fuzz::require(err.status == 400 && err.code == "rest_invalid_param",
                              "unexpected venue error");
      }
    }
  if (const cal::Endpoint* e = endpoint("/organizers", "POST"))
    if (const auto params = params_for(*e, "/organizers", body)) {
      cal::OrganizerDetails details;
      try {
        cal::apply_organizer_params(*params, details);
        caltest_fuzz::require(cal::organizer_params_match(*params, details, details),
                              "organizer differs from itself");
      } catch (const cal::ApiError& err) {
        caltest_fuzz::require(err.status == 400 && err.code == "rest_invalid_param",
                              "unexpected organizer error");
      }
    }
  return 0;
}
