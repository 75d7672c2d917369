// Shared by the parameter fuzz targets (fuzz_query, fuzz_form, fuzz_json): runs validate_params()
// of every endpoint of the route table on one parsed input and checks what it promises: either
// typed values or exactly one docs/api.md §2 parameter error (400 rest_missing_callback_param or
// rest_invalid_param naming every bad parameter). Any other exception escapes and libFuzzer
// reports it as a crash.
#pragma once

#include "fuzz_support.h"

#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/params.h"
#include "cal/api/pipeline/routes.h"
#include "cal/core/text/slug.h"

#include <rapidjson/document.h>

#include <string>
#include <vector>

namespace caltest_fuzz {

// Path values for a route pattern's variables, as match_route() would deliver them.
inline std::vector<std::pair<std::string, std::string>> path_values(std::string_view pattern) {
  std::vector<std::pair<std::string, std::string>> out;
  if (pattern.find("{id}") != std::string_view::npos) out.emplace_back("id", "7");
  if (pattern.find("{slug}") != std::string_view::npos) out.emplace_back("slug", "some-slug");
  return out;
}

// Checks one coerced value against its spec's type promises.
inline void check_value(const cal::ParamSpec& spec, const cal::ParamValue& v) {
  using T = cal::ParamType;
  require(v.raw != nullptr || spec.type != T::kAny, "kAny value without raw");
  if (spec.positive && spec.type == T::kInteger) require(v.integer >= 1, "positive integer below 1");
  if (spec.positive && spec.type == T::kIntegerList)
    for (long long i : v.integers) require(i >= 1, "positive integer list item below 1");
  if (spec.type == T::kNumber) {
    if (spec.minimum) require(v.number >= *spec.minimum, "number below minimum");
    if (spec.maximum) require(v.number <= *spec.maximum, "number above maximum");
  }
  if (!spec.enum_values.empty() && spec.type == T::kString) {
    bool listed = false;
    for (std::string_view e : spec.enum_values) listed = listed || e == v.text;
    require(listed, "enum value not in the enum");
  }
}

// Validates `body`/`query` (either may be null) against every endpoint; `body_routes_only`
// restricts to endpoints that read a body (write routes).
inline void validate_everywhere(const rapidjson::Value* body, const rapidjson::Value* query,
                                const std::vector<std::string>& invalid_utf8, bool write_routes_only) {
  static const cal::Locale locale;
  for (const cal::Route& route : cal::route_table()) {
    for (const cal::Endpoint& endpoint : route.endpoints) {
      if (write_routes_only && endpoint.capability == cal::Capability::kNone) continue;
      cal::ParamSources sources;
      sources.path = path_values(route.pattern);
      sources.body = body;
      sources.query = query;
      sources.invalid_utf8 = invalid_utf8;
      try {
        const cal::Params params = cal::validate_params(endpoint.params, sources, locale);
        for (const cal::ParamSpec& spec : endpoint.params)
          if (const cal::ParamValue* v = params.find(spec.name)) check_value(spec, *v);
      } catch (const cal::ApiError& e) {
        require(e.status == 400, "parameter error with a status other than 400");
        require(e.code == "rest_invalid_param" || e.code == "rest_missing_callback_param",
                "parameter error with an unexpected code");
        require(!e.param_messages.empty() || !e.param_names.empty(), "parameter error naming nothing");
        require(cal::is_valid_utf8(e.message), "error message is not valid UTF-8");
      }
    }
  }
}

// The form/query shape parse_form() promises: members are strings, arrays of strings or
// one-level objects of strings, every name non-empty valid UTF-8.
inline void check_form_shape(const rapidjson::Value& doc) {
  require(doc.IsObject(), "parse_form result is not an object");
  for (const auto& m : doc.GetObject()) {
    const std::string_view name(m.name.GetString(), m.name.GetStringLength());
    require(!name.empty() && cal::is_valid_utf8(name), "bad member name");
    const rapidjson::Value& v = m.value;
    if (v.IsString()) {
      require(cal::is_valid_utf8({v.GetString(), v.GetStringLength()}), "invalid UTF-8 value stored");
    } else if (v.IsArray()) {
      for (const auto& e : v.GetArray()) require(e.IsString(), "array item is not a string");
    } else {
      require(v.IsObject(), "member is neither string, array nor object");
      for (const auto& e : v.GetObject()) require(e.value.IsString(), "object item is not a string");
    }
  }
}

}  // namespace caltest_fuzz
