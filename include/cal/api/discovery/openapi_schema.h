// A small vocabulary for the JSON schemas of the OpenAPI document (docs/api.md §8.2): a field is a
// name and a kind; an object schema lists its fields, each required unless said otherwise.
#pragma once

#include "cal/api/pipeline/json.h"

#include <string_view>
#include <vector>

namespace cal {

// What a field holds.
enum class SchemaKind {
  kInteger,
  kString,
  kDateTime,  // "YYYY-MM-DD HH:MM:SS"
  kBoolean,
  kMaskedBoolean,  // boolean, or null on a password-protected event
  kNumberOrNull,
  kEnum,  // string, one of `values`
  kStringList,
  kRef,           // the schema named `ref`
  kRefList,       // array of the schema named `ref`
  kImageOrFalse,  // Image object or false
  kVenueOrEmpty,  // Venue object or [] (an event without venue)
  kObject,        // any object (json_ld)
  kIntegerOrNull,
  kDateTimeOrNull,
  kObjectList,  // array of objects (a series' next occurrences)
};

// One property of an object schema.
struct SchemaField {
  std::string_view name;
  SchemaKind kind;
  std::string_view ref = {};                  // kRef, kRefList: a components.schemas name
  std::vector<std::string_view> values = {};  // kEnum: the allowed strings
  bool required = true;                       // the key always appears
};

using SchemaFields = std::vector<SchemaField>;

// {"type": ...} inside an open schema object.
void write_schema_type(JsonWriter& w, std::string_view type);
// {"$ref": "#/components/schemas/<name>"} as a whole schema object.
void write_schema_ref(JsonWriter& w, std::string_view name);
// The schema object of one field.
void write_field_schema(JsonWriter& w, const SchemaField& f);
// {"type": "object", "properties": {...}, "required": [...] (when any), "additionalProperties":
// !closed}: a closed schema allows no other keys.
void write_object_schema(JsonWriter& w, const SchemaFields& fields, bool closed = true);

}  // namespace cal
