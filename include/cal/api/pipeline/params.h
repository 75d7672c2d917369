// Declared parameters of an endpoint and their validation (docs/api.md §1.3): one spec per parameter in
// the route table; validate_params() coerces every source into typed values or throws one
// ApiError naming every bad parameter. Validation is in params.cpp, the Params container's
// accessors in param_values.cpp.
#pragma once

#include "cal/api/pipeline/param_names.h"
#include "cal/core/i18n/i18n.h"

#include <rapidjson/document.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cal {

class Db;
struct FragmentUse;
struct Caller;
struct ParamSpec;
struct ParamValue;

// What a per-field rule may need beyond the value: the store (for ids that must exist) and the
// caller. Both are null in store-free validation (unit tests, fuzzers): rules needing them pass.
struct CheckContext {
  Db* db = nullptr;
  const Caller* caller = nullptr;
  // The request's fragment cache, whose kept rows (cal/store/event_relations.h) rules may find
  // what they name in first; null: none.
  const FragmentUse* fragments = nullptr;
};

// A per-field rule of the validation stage (docs/api.md §1.3), run on a value that passed its type
// coercion. Returns the localized problem, or "" when the value is acceptable.
using ParamCheck = std::string (*)(const ParamSpec& spec, const ParamValue& value, const Locale& locale,
                                   const CheckContext& context);
// A rule that, checking the value, also finds what it names (the terms of a filter): as ParamCheck,
// and on success it may set the value's `resolved`, so that the handler need not look them up again.
using ParamResolve = std::string (*)(const ParamSpec& spec, ParamValue& value, const Locale& locale,
                                     const CheckContext& context);

enum class ParamType {
  kInteger,      // JSON integer or decimal string
  kNumber,       // JSON number or decimal string
  kBoolean,      // true/false, "true"/"false", "1"/"0", 1/0
  kString,       // a string; JSON numbers/booleans/objects rejected
  kIntegerList,  // JSON array, a[]=, or comma list "1,2,3" of integers
  kStringList,   // JSON array, a[]=, or comma list of strings
  kDateTime,     // a string (or Unix timestamp) in any form of docs/api.md §6
  kTruthy,       // boolean-ish string: 1/true/yes/on are true, anything else false
  kAny,          // no declared type: the handler reads the raw JSON value
};

struct ParamSpec {
  ParamName name{""};
  ParamType type = ParamType::kString;
  std::string_view description = {};  // English source text (gettext msgid)
  bool required = false;
  std::string_view default_value = {};  // textual default, coerced like input; {} = none
  std::vector<std::string_view> enum_values = {};
  bool positive = false;               // integers must be >= 1
  bool non_empty = false;              // strings must not be "" when given
  std::optional<double> minimum = {};  // numbers
  std::optional<double> maximum = {};
  // The type as declared to clients (namespace index, OpenAPI) when it differs from what
  // `type` implies, e.g. "array" for categories that also accept names; items type likewise.
  std::string_view declared_type = {};
  std::string_view declared_items = {};
  // Further JSON types the value may take, declared to clients as alternatives (OpenAPI oneOf,
  // a type list in the root index): "string" for a list that also takes one bare value.
  std::vector<std::string_view> declared_also = {};
  // Likewise for an array's items: "string" for ids that may also be slugs or names.
  std::vector<std::string_view> declared_items_also = {};
  // The most items a list-valued parameter takes (docs/api.md §1.3, list limits); 0 = not a list.
  // Counted on the raw value before coercion and before `check`, so that an oversized list costs
  // neither a store lookup nor a write.
  std::size_t max_items = 0;
  // The field's own rule (time zone, URL, e-mail, ids that must exist...), see ParamCheck.
  ParamCheck check = nullptr;
  // Or a rule that resolves the value too, see ParamResolve.
  ParamResolve resolve = nullptr;
};

// The JSON type name clients see for a parameter ("integer", "array", ...; "" when untyped).
std::string_view declared_type(const ParamSpec& spec);
// The items type for arrays ("integer", "string"), else "".
std::string_view declared_items(const ParamSpec& spec);
// Every JSON type the value may take, declared_type() first; empty when untyped.
std::vector<std::string_view> declared_types(const ParamSpec& spec);
// Every JSON type an array's items may take, declared_items() first; empty for non-arrays.
std::vector<std::string_view> declared_item_types(const ParamSpec& spec);

// One coerced parameter value. Only the member matching the spec's type is filled.
struct ParamValue {
  bool given = false;  // sent by the client (false: from the default)
  long long integer = 0;
  double number = 0;
  bool boolean = false;
  std::string text;  // strings, dates (as sent), and every value as text
  std::vector<long long> integers;
  std::vector<std::string> texts;
  const rapidjson::Value* raw = nullptr;  // kAny, and the original value of any type
  // The ids the value names, set by the spec's `resolve` rule when it had the store (empty: not
  // resolved, e.g. in store-free validation).
  std::vector<long long> resolved;
};

// The validated parameters of one request, in spec order.
class Params {
 public:
  // The value if the parameter was sent or has a default, else nullptr. Reading the value of a
  // parameter the endpoint does not declare is a programming error: std::logic_error (a 500 any
  // test finds). has() and given() only ask, so code shared by routes may ask about any name.
  const ParamValue* find(ParamName name) const;
  bool has(ParamName name) const { return lookup(name) != nullptr; }
  bool given(ParamName name) const;
  long long integer(ParamName name, long long fallback = 0) const;
  bool boolean(ParamName name, bool fallback = false) const;
  const std::string& text(ParamName name) const;  // "" when absent
  const std::vector<long long>& integers(ParamName name) const;
  const std::vector<std::string>& texts(ParamName name) const;

  // The endpoint's declared names (validate_params sets them; unset: anything may be read).
  void declare(const std::vector<std::string_view>& names) { declared_ = names; }
  void set(std::string_view name, ParamValue value);
  const std::vector<std::pair<std::string, ParamValue>>& all() const { return values_; }

  // Holds path values and defaults so that ParamValue::raw stays valid as long as the Params.
  rapidjson::Document& storage();

 private:
  std::vector<std::pair<std::string, ParamValue>> values_;
  std::vector<std::string_view> declared_;

  const ParamValue* lookup(ParamName name) const;
  std::shared_ptr<rapidjson::Document> storage_;
};

// The sources of parameter values, first wins (docs/api.md §1.3).
struct ParamSources {
  std::vector<std::pair<std::string, std::string>> path;  // from the route pattern
  const rapidjson::Value* body = nullptr;                 // object, or nullptr
  const rapidjson::Value* query = nullptr;                // object, or nullptr
  std::vector<std::string> invalid_utf8;                  // names whose form/query value was bad
};

// Validates and coerces every declared parameter, then runs each given value's check. Throws
// ApiError 400 rest_missing_callback_param (all missing required names) or rest_invalid_param
// (all invalid ones, with a message each). An empty value of a list parameter ("" or []) is
// invalid (as for search/slug/order/orderby, docs/api.md §4).
Params validate_params(const std::vector<ParamSpec>& specs, const ParamSources& sources, const Locale& locale,
                       const CheckContext& context = {});

// Interprets a JSON value as boolean per docs/api.md §1 types; nullopt when it is not one.
std::optional<bool> coerce_boolean(const rapidjson::Value& v);
// Interprets a JSON value as a 64-bit integer per docs/api.md §1 types; nullopt when it is not one.
std::optional<long long> coerce_integer(const rapidjson::Value& v);
// The string-truthy reading of docs/api.md §3.2 (1, true, yes, on; case-insensitive).
bool is_truthy(const rapidjson::Value& v);

}  // namespace cal
