// Parameter coercion and validation (see cal/api/pipeline/params.h).
#include "cal/api/pipeline/params.h"

#include "cal/api/pipeline/error.h"
#include "cal/core/dates/clock_use.h"
#include "cal/core/dates/dates.h"
#include "cal/core/text/ascii.h"
#include "cal/core/text/numbers.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>

namespace cal {
namespace {

using rapidjson::Value;

using ascii::lower;
using ascii::trim;

std::optional<double> parse_number_text(std::string_view s) {
  if (s.empty()) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string_view as_view(const Value& v) { return {v.GetString(), v.GetStringLength()}; }

// Splits a comma list ("1, 2,3") into trimmed items; an empty string gives no
// items.
std::vector<std::string> split_commas(std::string_view s) {
  std::vector<std::string> items;
  if (trim(s).empty()) return items;
  size_t pos = 0;
  while (true) {
    const size_t comma = s.find(',', pos);
    items.emplace_back(
        trim(s.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos)));
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return items;
}

// The items of a list-typed value: a JSON array's elements, or a comma list's
// pieces. Returns false when the value is neither.
bool list_items(const Value& v, std::vector<const Value*>& elements, std::vector<std::string>& pieces) {
  if (v.IsArray()) {
    for (const auto& e : v.GetArray()) elements.push_back(&e);
    return true;
  }
  if (v.IsString()) {
    pieces = split_commas(as_view(v));
    return true;
  }
  if (v.IsInt64()) {
    pieces.push_back(std::to_string(v.GetInt64()));
    return true;
  }
  return false;
}

// How many items a list-valued input holds, counted without building them: a JSON array's
// elements, a form body's one-level object's members, a comma list's pieces; one for a scalar.
std::size_t item_count(const Value& v) {
  if (v.IsArray()) return v.Size();
  if (v.IsObject()) return v.MemberCount();
  if (!v.IsString()) return 1;
  const std::string_view s = as_view(v);
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), ',')) + 1;
}

struct Checker {
  const Locale& locale;
  std::map<std::string, std::string> invalid;

  void fail(const ParamSpec& spec, std::string_view msgid, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{std::string(spec.name)};
    for (auto& e : extra) args.push_back(std::move(e));
    invalid.emplace(std::string(spec.name), format_message(locale, msgid, args));
  }

  bool check_enum(const ParamSpec& spec, const std::string& value) {
    if (spec.enum_values.empty()) return true;
    for (std::string_view allowed : spec.enum_values)
      if (allowed == value) return true;
    std::string list;
    for (std::string_view allowed : spec.enum_values)
      list += (list.empty() ? "" : ", ") + std::string(allowed);
    fail(spec, "%s is not one of %s.", {list});
    return false;
  }

  // The value `v` of `spec` as its declared type, or nullopt (the problem
  // noted) when it is not one.
  std::optional<ParamValue> coerce(const ParamSpec& spec, const Value& v) {
    ParamValue out;
    out.raw = &v;
    switch (spec.type) {
      case ParamType::kInteger:
        return as_integer(spec, v, out);
      case ParamType::kNumber:
        return as_number(spec, v, out);
      case ParamType::kBoolean:
        return as_boolean(spec, v, out);
      case ParamType::kTruthy:
        return as_truthy(spec, v, out);
      case ParamType::kString:
      case ParamType::kDateTime:
        return as_text(spec, v, out);
      case ParamType::kIntegerList:
        return as_integer_list(spec, v, out);
      case ParamType::kStringList:
        return as_string_list(spec, v, out);
      case ParamType::kAny:
        if (v.IsString()) out.text = std::string(as_view(v));
        return out;
    }
    return std::nullopt;
  }

  std::optional<ParamValue> as_integer(const ParamSpec& spec, const Value& v, ParamValue& out) {
    const auto i = coerce_integer(v);
    if (!i)
      return fail(spec, spec.positive ? "%s must be a positive integer." : "%s is not of type integer."),
             std::nullopt;
    if (spec.positive && *i < 1) return fail(spec, "%s must be a positive integer."), std::nullopt;
    out.integer = *i;
    out.text = std::to_string(*i);
    return out;
  }

  std::optional<ParamValue> as_number(const ParamSpec& spec, const Value& v, ParamValue& out) {
    std::optional<double> d;
    if (v.IsNumber())
      d = v.GetDouble();
    else if (v.IsString())
      d = parse_number_text(as_view(v));
    if (!d) return fail(spec, "%s is not of type number."), std::nullopt;
    if ((spec.minimum && *d < *spec.minimum) || (spec.maximum && *d > *spec.maximum)) {
      return fail(spec, "%s must be between %s and %s.",
                  {std::to_string(static_cast<long long>(spec.minimum.value_or(0))),
                   std::to_string(static_cast<long long>(spec.maximum.value_or(0)))}),
             std::nullopt;
    }
    out.number = *d;
    out.text = v.IsString() ? std::string(as_view(v)) : std::to_string(*d);
    return out;
  }

  std::optional<ParamValue> as_boolean(const ParamSpec& spec, const Value& v, ParamValue& out) {
    const auto b = coerce_boolean(v);
    if (!b) return fail(spec, "%s is not of type boolean."), std::nullopt;
    out.boolean = *b;
    out.text = *b ? "true" : "false";
    return out;
  }

  std::optional<ParamValue> as_truthy(const ParamSpec& spec, const Value& v, ParamValue& out) {
    if (!v.IsString() && !v.IsBool() && !v.IsNumber())
      return fail(spec, "%s is not of type string."), std::nullopt;
    out.boolean = is_truthy(v);
    out.text = out.boolean ? "true" : "false";
    return out;
  }

  // A string, or a date (a string, or an integer timestamp).
  std::optional<ParamValue> as_text(const ParamSpec& spec, const Value& v, ParamValue& out) {
    if (spec.type == ParamType::kDateTime && v.IsInt64()) {
      out.text = std::to_string(v.GetInt64());
    } else if (!v.IsString()) {
      return fail(spec, "%s is not of type string."), std::nullopt;
    } else {
      out.text = std::string(as_view(v));
    }
    if (spec.non_empty && out.text.empty()) return fail(spec, "%s must not be empty."), std::nullopt;
    if (spec.type == ParamType::kDateTime) {
      // Only checked here: the handler resolves the date and, with
      // now_seconds() or event_window_valid_until(), tells the response cache
      // how long the answer holds.
      const auto now = unmarked_now();
      if (!parse_date(out.text, TimeZone::utc(), now))
        return fail(spec, "%s is not a valid date."), std::nullopt;
    } else if (!spec.enum_values.empty()) {
      out.text = lower(out.text);
      if (!check_enum(spec, out.text)) return std::nullopt;
    }
    return out;
  }

  std::optional<ParamValue> as_integer_list(const ParamSpec& spec, const Value& v, ParamValue& out) {
    std::vector<const Value*> elements;
    std::vector<std::string> pieces;
    if (!list_items(v, elements, pieces)) return fail(spec, "%s must be a list of integers."), std::nullopt;
    for (const Value* e : elements) {
      const auto i = coerce_integer(*e);
      if (!i) return fail(spec, "%s must be a list of integers."), std::nullopt;
      out.integers.push_back(*i);
    }
    for (const auto& p : pieces) {
      const auto i = parse_integer(p);
      if (!i) return fail(spec, "%s must be a list of integers."), std::nullopt;
      out.integers.push_back(*i);
    }
    if (spec.positive &&
        std::any_of(out.integers.begin(), out.integers.end(), [](long long i) { return i < 1; }))
      return fail(spec, "%s must be a list of positive integers."), std::nullopt;
    for (long long i : out.integers) out.text += (out.text.empty() ? "" : ",") + std::to_string(i);
    return out;
  }

  std::optional<ParamValue> as_string_list(const ParamSpec& spec, const Value& v, ParamValue& out) {
    std::vector<const Value*> elements;
    std::vector<std::string> pieces;
    if (!list_items(v, elements, pieces)) return fail(spec, "%s must be a list of strings."), std::nullopt;
    for (const Value* e : elements) {
      if (e->IsString())
        pieces.emplace_back(as_view(*e));
      else if (e->IsInt64())
        pieces.push_back(std::to_string(e->GetInt64()));
      else
        return fail(spec, "%s must be a list of strings."), std::nullopt;
    }
    for (const auto& p : pieces) {
      if (!check_enum(spec, spec.enum_values.empty() ? p : lower(p))) return std::nullopt;
    }
    out.texts = std::move(pieces);
    if (!spec.enum_values.empty())
      for (auto& t : out.texts) t = lower(t);
    for (const auto& t : out.texts) out.text += (out.text.empty() ? "" : ",") + t;
    return out;
  }
};

const Value* find_in(const Value* obj, std::string_view name) {
  if (!obj || !obj->IsObject()) return nullptr;
  auto it = obj->FindMember(Value(rapidjson::StringRef(name.data(), name.size())));
  return it == obj->MemberEnd() ? nullptr : &it->value;
}

}  // namespace

std::string_view declared_type(const ParamSpec& spec) {
  if (!spec.declared_type.empty()) return spec.declared_type;
  switch (spec.type) {
    case ParamType::kInteger:
      return "integer";
    case ParamType::kNumber:
      return "number";
    case ParamType::kBoolean:
    case ParamType::kTruthy:
      return "boolean";
    case ParamType::kString:
    case ParamType::kDateTime:
      return "string";
    case ParamType::kIntegerList:
    case ParamType::kStringList:
      return "array";
    case ParamType::kAny:
      return "";
  }
  return "";
}

std::string_view declared_items(const ParamSpec& spec) {
  if (declared_type(spec) != "array") return "";
  if (!spec.declared_items.empty()) return spec.declared_items;
  if (spec.type == ParamType::kIntegerList) return "integer";
  if (spec.type == ParamType::kStringList) return "string";
  return "";
}

std::vector<std::string_view> declared_types(const ParamSpec& spec) {
  std::vector<std::string_view> types;
  if (const std::string_view first = declared_type(spec); !first.empty()) types.push_back(first);
  // A truthy flag reads any string or number too ("yes", "on", 1), as
  // WordPress's plugins send them.
  if (spec.type == ParamType::kTruthy && spec.declared_type.empty())
    types.insert(types.end(), {"string", "integer"});
  for (std::string_view t : spec.declared_also)
    if (std::find(types.begin(), types.end(), t) == types.end()) types.push_back(t);
  return types;
}

std::vector<std::string_view> declared_item_types(const ParamSpec& spec) {
  std::vector<std::string_view> types;
  const auto all = declared_types(spec);
  if (std::find(all.begin(), all.end(), "array") == all.end()) return types;
  if (!spec.declared_items.empty())
    types.push_back(spec.declared_items);
  else if (spec.type == ParamType::kIntegerList)
    types.push_back("integer");
  else if (spec.type == ParamType::kStringList)
    types.push_back("string");
  for (std::string_view t : spec.declared_items_also)
    if (std::find(types.begin(), types.end(), t) == types.end()) types.push_back(t);
  return types;
}

std::optional<long long> coerce_integer(const Value& v) {
  if (v.IsInt64()) return v.GetInt64();
  if (v.IsString()) return parse_integer(as_view(v));
  return std::nullopt;
}

std::optional<bool> coerce_boolean(const Value& v) {
  if (v.IsBool()) return v.GetBool();
  if (v.IsInt64()) {
    if (v.GetInt64() == 0) return false;
    if (v.GetInt64() == 1) return true;
    return std::nullopt;
  }
  if (!v.IsString()) return std::nullopt;
  const std::string s = lower(as_view(v));
  if (s == "true" || s == "1") return true;
  if (s == "false" || s == "0") return false;
  return std::nullopt;
}

bool is_truthy(const Value& v) {
  if (v.IsBool()) return v.GetBool();
  if (v.IsNumber()) return v.GetDouble() != 0;
  if (!v.IsString()) return false;
  const std::string s = lower(trim(as_view(v)));
  return s == "1" || s == "true" || s == "yes" || s == "on";
}

Params validate_params(const std::vector<ParamSpec>& specs, const ParamSources& sources, const Locale& locale,
                       const CheckContext& context) {
  Params params;
  std::vector<std::string_view> declared;
  for (const ParamSpec& spec : specs) declared.push_back(spec.name.text());
  params.declare(declared);
  Checker checker{locale, {}};
  std::vector<std::string> missing;
  // Path values and defaults live in the params' own storage (never
  // reallocated: reserved).
  rapidjson::Document& scratch = params.storage();
  scratch.SetArray();
  scratch.Reserve(static_cast<rapidjson::SizeType>(specs.size() * 2), scratch.GetAllocator());

  for (const ParamSpec& spec : specs) {
    const Value* value = nullptr;
    bool given = true;
    for (const auto& [name, text] : sources.path) {
      if (name == spec.name) {
        scratch.PushBack(
            Value(text.c_str(), static_cast<rapidjson::SizeType>(text.size()), scratch.GetAllocator()),
            scratch.GetAllocator());
        value = &scratch[scratch.Size() - 1];
      }
    }
    if (!value) value = find_in(sources.body, spec.name);
    const bool bad_utf8 = !value && std::find(sources.invalid_utf8.begin(), sources.invalid_utf8.end(),
                                              spec.name) != sources.invalid_utf8.end();
    if (!value) value = find_in(sources.query, spec.name);
    if (bad_utf8) {
      checker.fail(spec, "%s is not valid UTF-8.");
      continue;
    }
    if (!value && spec.required) {
      missing.emplace_back(spec.name);
      continue;
    }
    if (!value && spec.default_value.data() != nullptr) {
      scratch.PushBack(Value(rapidjson::StringRef(spec.default_value.data(), spec.default_value.size())),
                       scratch.GetAllocator());
      value = &scratch[scratch.Size() - 1];
      given = false;
    }
    if (!value) continue;
    if (spec.required && value->IsString() && value->GetStringLength() == 0) {
      checker.fail(spec, "%s must not be empty.");
      continue;
    }
    const bool is_list = spec.type == ParamType::kIntegerList || spec.type == ParamType::kStringList;
    if (given && is_list &&
        ((value->IsString() && trim(as_view(*value)).empty()) || (value->IsArray() && value->Empty()))) {
      checker.fail(spec, "%s must not be empty.");
      continue;
    }
    if (given && spec.max_items > 0 && item_count(*value) > spec.max_items) {
      checker.fail(spec, "%s takes at most %s items.", {std::to_string(spec.max_items)});
      continue;
    }
    if (auto coerced = checker.coerce(spec, *value)) {
      coerced->given = given;
      if (given && (spec.check || spec.resolve)) {
        std::string problem = spec.check ? spec.check(spec, *coerced, locale, context)
                                         : spec.resolve(spec, *coerced, locale, context);
        if (!problem.empty()) {
          checker.invalid.emplace(std::string(spec.name), std::move(problem));
          continue;
        }
      }
      params.set(spec.name, std::move(*coerced));
    }
  }
  if (!missing.empty()) {
    ApiError e{400, "rest_missing_callback_param", ""};
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    e.message = format_message(locale, "Missing parameter(s): %s", {list});
    e.param_names = std::move(missing);
    throw e;
  }
  if (!checker.invalid.empty()) throw invalid_params(locale, std::move(checker.invalid));
  return params;
}

}  // namespace cal
