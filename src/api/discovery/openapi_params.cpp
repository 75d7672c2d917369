// The schema of one route-table parameter in the OpenAPI document (docs/api.md §8.2). A parameter that
// takes several JSON types (a status or a list of them, ids or slugs, a flag as "yes") is a oneOf
// of one schema per type, so that generated clients accept every form the service accepts.
#include "cal/api/discovery/openapi.h"

#include "cal/api/discovery/root_index.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace cal {
namespace {

bool is_numeric(std::string_view type) { return type == "integer" || type == "number"; }

// The spec's value rules that apply to a value of this scalar type. The enum, `positive` and
// the bounds describe the single values of a list as well, so a list's items carry them too.
void write_scalar_rules(JsonWriter& w, const ParamSpec& spec, std::string_view type) {
  if (!spec.enum_values.empty() && type != "object" && type != "boolean") {
    write_key(w, "enum");
    w.StartArray();
    for (std::string_view v : spec.enum_values) write_string(w, v);
    w.EndArray();
  }
  if (spec.positive && type == "integer") {
    write_key(w, "minimum");
    w.Int(1);
  }
  if (spec.minimum && (is_numeric(type) || type.empty())) {
    write_key(w, "minimum");
    w.Double(*spec.minimum);
  }
  if (spec.maximum && (is_numeric(type) || type.empty())) {
    write_key(w, "maximum");
    w.Double(*spec.maximum);
  }
  if (spec.non_empty && type == "string") {
    write_key(w, "minLength");
    w.Int(1);
  }
}

// The members of a schema for one type of the parameter (inside an object the caller opened).
void write_form(JsonWriter& w, const ParamSpec& spec, std::string_view type) {
  if (!type.empty()) write_member(w, "type", type);
  if (type != "array") return write_scalar_rules(w, spec, type);
  if (spec.max_items > 0) {
    write_key(w, "maxItems");
    w.Uint64(spec.max_items);
  }
  const std::vector<std::string_view> items = declared_item_types(spec);
  if (items.empty()) return;
  write_key(w, "items");
  w.StartObject();
  if (items.size() == 1) {
    write_form(w, spec, items.front());
  } else {
    write_key(w, "oneOf");
    w.StartArray();
    for (std::string_view item : items) {
      w.StartObject();
      write_form(w, spec, item);
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
}

}  // namespace

void write_param_schema(JsonWriter& w, const ParamSpec& spec, std::string_view description) {
  w.StartObject();
  if (!description.empty()) write_member(w, "description", description);
  const std::vector<std::string_view> types = declared_types(spec);
  if (types.size() <= 1) {
    write_form(w, spec, types.empty() ? std::string_view{} : types.front());
  } else {
    write_key(w, "oneOf");
    w.StartArray();
    for (std::string_view type : types) {
      w.StartObject();
      write_form(w, spec, type);
      w.EndObject();
    }
    w.EndArray();
  }
  if (spec.default_value.data() != nullptr) {
    write_key(w, "default");
    write_param_default(w, spec);
  }
  w.EndObject();
}

}  // namespace cal
