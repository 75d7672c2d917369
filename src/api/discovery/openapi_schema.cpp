// The schema vocabulary of the OpenAPI document (see cal/api/discovery/openapi_schema.h).
#include "cal/api/discovery/openapi_schema.h"

#include "cal/api/discovery/openapi.h"

#include <algorithm>

namespace cal {

void write_schema_type(JsonWriter& w, std::string_view type) { write_member(w, "type", type); }

void write_schema_ref(JsonWriter& w, std::string_view name) {
  w.StartObject();
  write_member(w, "$ref", schema_ref(name));
  w.EndObject();
}

void write_field_schema(JsonWriter& w, const SchemaField& f) {
  w.StartObject();
  switch (f.kind) {
    case SchemaKind::kInteger:
      write_schema_type(w, "integer");
      break;
    case SchemaKind::kString:
      write_schema_type(w, "string");
      break;
    case SchemaKind::kDateTime:
      write_schema_type(w, "string");
      write_member(w, "pattern", "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$");
      break;
    case SchemaKind::kBoolean:
      write_schema_type(w, "boolean");
      break;
    case SchemaKind::kMaskedBoolean:
    case SchemaKind::kNumberOrNull:
      write_schema_type(w, f.kind == SchemaKind::kMaskedBoolean ? "boolean" : "number");
      write_key(w, "nullable");
      w.Bool(true);
      break;
    case SchemaKind::kEnum:
      write_schema_type(w, "string");
      write_key(w, "enum");
      w.StartArray();
      for (std::string_view v : f.values) write_string(w, v);
      w.EndArray();
      break;
    case SchemaKind::kStringList:
      write_schema_type(w, "array");
      write_key(w, "items");
      w.StartObject();
      write_schema_type(w, "string");
      w.EndObject();
      break;
    case SchemaKind::kRef:
      write_member(w, "$ref", schema_ref(f.ref));
      break;
    case SchemaKind::kRefList:
      write_schema_type(w, "array");
      write_key(w, "items");
      write_schema_ref(w, f.ref);
      break;
    case SchemaKind::kImageOrFalse:
    case SchemaKind::kVenueOrEmpty:
      write_key(w, "oneOf");
      w.StartArray();
      write_schema_ref(w, f.kind == SchemaKind::kImageOrFalse ? "Image" : "Venue");
      w.StartObject();
      if (f.kind == SchemaKind::kImageOrFalse) {
        write_schema_type(w, "boolean");
        write_key(w, "enum");
        w.StartArray();
        w.Bool(false);
        w.EndArray();
      } else {
        write_schema_type(w, "array");
        write_key(w, "maxItems");
        w.Int(0);
      }
      w.EndObject();
      w.EndArray();
      break;
    case SchemaKind::kObject:
      write_schema_type(w, "object");
      break;
    case SchemaKind::kIntegerOrNull:
      write_schema_type(w, "integer");
      write_key(w, "nullable");
      w.Bool(true);
      break;
    case SchemaKind::kDateTimeOrNull:
      write_schema_type(w, "string");
      write_member(w, "pattern", "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$");
      write_key(w, "nullable");
      w.Bool(true);
      break;
    case SchemaKind::kObjectList:
      write_schema_type(w, "array");
      write_key(w, "items");
      w.StartObject();
      write_schema_type(w, "object");
      w.EndObject();
      break;
  }
  w.EndObject();
}

void write_object_schema(JsonWriter& w, const SchemaFields& fields, bool closed) {
  w.StartObject();
  write_schema_type(w, "object");
  write_key(w, "properties");
  w.StartObject();
  for (const SchemaField& f : fields) {
    write_key(w, f.name);
    write_field_schema(w, f);
  }
  w.EndObject();
  // OpenAPI 3.0 wants a non-empty `required` or none at all.
  if (std::any_of(fields.begin(), fields.end(), [](const SchemaField& f) { return f.required; })) {
    write_key(w, "required");
    w.StartArray();
    for (const SchemaField& f : fields)
      if (f.required) write_string(w, f.name);
    w.EndArray();
  }
  write_key(w, "additionalProperties");
  w.Bool(!closed);
  w.EndObject();
}

}  // namespace cal
