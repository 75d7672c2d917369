// components of the OpenAPI document (docs/api.md §8.2): the record schemas (openapi_records.cpp), the
// error body (§2), the namespace index (§8.1), reusable error responses and the two ways to send
// an application password (§7).
#include "cal/api/discovery/openapi.h"
#include "cal/api/discovery/openapi_schema.h"

#include <array>
#include <utility>

namespace cal {
namespace {

using Kind = SchemaKind;

void write_error_schema(JsonWriter& w) {
  w.StartObject();
  write_schema_type(w, "object");
  write_key(w, "properties");
  w.StartObject();
  write_key(w, "code");
  write_field_schema(w, {"code", Kind::kString});
  write_key(w, "message");
  write_field_schema(w, {"message", Kind::kString});
  write_key(w, "data");
  w.StartObject();
  write_schema_type(w, "object");
  write_key(w, "properties");
  w.StartObject();
  write_key(w, "status");
  write_field_schema(w, {"status", Kind::kInteger});
  // Invalid parameters: {name: message}; missing ones: [name, ...].
  write_key(w, "params");
  w.StartObject();
  write_key(w, "oneOf");
  w.StartArray();
  w.StartObject();
  write_schema_type(w, "object");
  write_key(w, "additionalProperties");
  w.StartObject();
  write_schema_type(w, "string");
  w.EndObject();
  w.EndObject();
  write_field_schema(w, {"params", Kind::kStringList});
  w.EndArray();
  w.EndObject();
  write_key(w, "term_id");
  write_field_schema(w, {"term_id", Kind::kInteger});
  // An iCalendar import: the body's line of a malformed calendar; the refused VEVENT.
  write_key(w, "line");
  write_field_schema(w, {"line", Kind::kInteger});
  write_key(w, "vevent");
  write_field_schema(w, {"vevent", Kind::kInteger});
  write_key(w, "uid");
  write_field_schema(w, {"uid", Kind::kString});
  w.EndObject();
  write_key(w, "required");
  w.StartArray();
  write_string(w, "status");
  w.EndArray();
  w.EndObject();
  w.EndObject();
  write_key(w, "required");
  w.StartArray();
  for (std::string_view key : {"code", "message", "data"}) write_string(w, key);
  w.EndArray();
  w.EndObject();
}

// An arg's "type": one JSON type name, or WordPress's list of them for a value of several types.
void write_arg_types_schema(JsonWriter& w) {
  const SchemaField name{
      "type", Kind::kEnum, {}, {"integer", "number", "boolean", "string", "array", "object"}};
  w.StartObject();
  write_key(w, "oneOf");
  w.StartArray();
  write_field_schema(w, name);
  w.StartObject();
  write_schema_type(w, "array");
  write_key(w, "items");
  write_field_schema(w, name);
  w.EndObject();
  w.EndArray();
  w.EndObject();
}

// The namespace index (docs/api.md §8.1): routes keyed by pattern, each with endpoints and their args.
void write_index_schemas(JsonWriter& w) {
  write_key(w, "Arg");
  w.StartObject();
  write_schema_type(w, "object");
  write_key(w, "properties");
  w.StartObject();
  write_key(w, "description");
  write_field_schema(w, {"description", Kind::kString});
  write_key(w, "type");
  write_arg_types_schema(w);
  write_key(w, "default");
  w.StartObject();
  w.EndObject();
  write_key(w, "items");
  w.StartObject();
  write_schema_type(w, "object");
  write_key(w, "properties");
  w.StartObject();
  write_key(w, "type");
  write_arg_types_schema(w);
  w.EndObject();
  w.EndObject();
  write_key(w, "enum");
  write_field_schema(w, {"enum", Kind::kStringList});
  write_key(w, "maxItems");  // list limits, docs/api.md §1.3
  write_field_schema(w, {"maxItems", Kind::kInteger});
  write_key(w, "required");
  write_field_schema(w, {"required", Kind::kBoolean});
  w.EndObject();
  write_key(w, "required");
  w.StartArray();
  write_string(w, "description");
  write_string(w, "required");
  w.EndArray();
  write_key(w, "additionalProperties");
  w.Bool(false);
  w.EndObject();

  write_key(w, "Endpoint");
  write_object_schema(w, {{"methods", Kind::kStringList}, {"args", Kind::kRef, "Args"}});
  write_key(w, "Args");
  w.StartObject();
  write_schema_type(w, "object");
  write_key(w, "additionalProperties");
  write_schema_ref(w, "Arg");
  w.EndObject();
  write_key(w, "Route");
  write_object_schema(w, {
                             {"namespace", Kind::kString},
                             {"methods", Kind::kStringList},
                             {"endpoints", Kind::kRefList, "Endpoint"},
                             {"_links", Kind::kObject, {}, {}, false},
                         });
  write_key(w, "Routes");
  w.StartObject();
  write_schema_type(w, "object");
  write_key(w, "additionalProperties");
  write_schema_ref(w, "Route");
  w.EndObject();
  write_key(w, "NamespaceIndex");
  write_object_schema(
      w, {{"namespace", Kind::kString}, {"routes", Kind::kRef, "Routes"}, {"_links", Kind::kObject}});
  // GET /changes (docs/sync.md): `record` is the record of `kind` (Event, Venue, Organizer, Term) on
  // an upsert, absent on a delete.
  write_key(w, "Change");
  write_object_schema(w, {{"kind", Kind::kEnum, {}, {"event", "venue", "organizer", "category", "tag"}},
                          {"id", Kind::kInteger},
                          {"action", Kind::kEnum, {}, {"upsert", "delete"}},
                          {"modified_utc", Kind::kDateTime},
                          {"record", Kind::kObject, {}, {}, false}});
  write_key(w, "Changes");
  write_object_schema(
      w, {{"changes", Kind::kRefList, "Change"}, {"next", Kind::kString}, {"more", Kind::kBoolean}});
  // The REST root index (GET {root}/), in WordPress's shape: what WPAPI.discover reads.
  write_key(w, "RootIndex");
  write_object_schema(w, {{"name", Kind::kString},
                          {"description", Kind::kString},
                          {"url", Kind::kString},
                          {"home", Kind::kString},
                          {"namespaces", Kind::kStringList},
                          {"authentication", Kind::kObject},
                          {"routes", Kind::kRef, "Routes"},
                          {"_links", Kind::kObject}});
}

// The answer to an iCalendar import (POST /events with a text/calendar body).
void write_ical_import_schemas(JsonWriter& w) {
  write_key(w, "IcalImportEvent");
  write_object_schema(w, {{"vevent", Kind::kInteger},
                          {"uid", Kind::kString},
                          {"id", Kind::kInteger},
                          {"created", Kind::kBoolean},
                          // A STATUS:CANCELLED override: `id` is its series.
                          {"cancelled", Kind::kBoolean, {}, {}, false}});
  write_key(w, "IcalImport");
  w.StartObject();
  write_schema_type(w, "object");
  write_key(w, "properties");
  w.StartObject();
  for (std::string_view key : {"created", "updated"}) {
    write_key(w, key);
    w.StartObject();
    write_schema_type(w, "array");
    write_key(w, "items");
    w.StartObject();
    write_schema_type(w, "integer");
    w.EndObject();
    w.EndObject();
  }
  write_key(w, "events");
  write_field_schema(w, {"events", Kind::kRefList, "IcalImportEvent"});
  w.EndObject();
  write_key(w, "required");
  w.StartArray();
  for (std::string_view key : {"created", "updated", "events"}) write_string(w, key);
  w.EndArray();
  write_key(w, "additionalProperties");
  w.Bool(false);
  w.EndObject();
}

constexpr std::array<std::pair<int, std::string_view>, 12> kErrorResponses = {{
    {400, "BadRequest"},
    {401, "Unauthorized"},
    {403, "Forbidden"},
    {404, "NotFound"},
    {405, "MethodNotAllowed"},
    {409, "Conflict"},
    {410, "Gone"},
    {412, "PreconditionFailed"},
    {413, "PayloadTooLarge"},
    {415, "UnsupportedMediaType"},
    {500, "InternalError"},
    {503, "Unavailable"},
}};

std::string_view error_description(int status) {
  switch (status) {
    case 400:
      return "Invalid or missing parameters, or a malformed body.";
    case 401:
      return "Invalid credentials, or the route needs an authenticated user.";
    case 403:
      return "The caller may not do this, or may not read this record.";
    case 404:
      return "No such route, record or page.";
    case 405:
      return "Method not allowed for this route.";
    case 409:
      return "A term with this name or slug already exists.";
    case 410:
      return "The record is already in the trash.";
    case 412:
      return "If-Match names no current version of the record, or the record does not exist.";
    case 413:
      return "The request body is too large.";
    case 415:
      return "The body is neither JSON, form data nor multipart form data (nor, on POST /events, "
             "an iCalendar in UTF-8).";
    case 503:
      return "The database is unavailable; try again shortly.";
    default:
      return "An internal error occurred.";
  }
}

void write_error_responses(JsonWriter& w, const RequestContext& ctx) {
  w.StartObject();
  for (const auto& [status, name] : kErrorResponses) {
    write_key(w, name);
    w.StartObject();
    write_member(w, "description", translate(ctx.locale, error_description(status)));
    if (status == 405 || status == 503) {
      write_key(w, "headers");
      w.StartObject();
      write_key(w, status == 405 ? "Allow" : "Retry-After");
      w.StartObject();
      write_key(w, "schema");
      w.StartObject();
      write_schema_type(w, status == 405 ? "string" : "integer");
      w.EndObject();
      w.EndObject();
      w.EndObject();
    }
    write_key(w, "content");
    w.StartObject();
    write_key(w, "application/json");
    w.StartObject();
    write_key(w, "schema");
    write_schema_ref(w, "Error");
    w.EndObject();
    w.EndObject();
    w.EndObject();
  }
  w.EndObject();
}

void write_security_schemes(JsonWriter& w) {
  w.StartObject();
  write_key(w, "basicAuth");
  w.StartObject();
  write_schema_type(w, "http");
  write_member(w, "scheme", "basic");
  w.EndObject();
  write_key(w, "bearerAuth");
  w.StartObject();
  write_schema_type(w, "http");
  write_member(w, "scheme", "bearer");
  w.EndObject();
  w.EndObject();
}

}  // namespace

std::string_view error_response_name(int status) {
  for (const auto& [s, name] : kErrorResponses)
    if (s == status) return name;
  return "InternalError";
}

void write_openapi_components(JsonWriter& w, const RequestContext& ctx) {
  w.StartObject();
  write_key(w, "schemas");
  w.StartObject();
  write_record_schemas(w);
  write_key(w, "Error");
  write_error_schema(w);
  write_index_schemas(w);
  write_ical_import_schemas(w);
  w.EndObject();
  write_key(w, "responses");
  write_error_responses(w, ctx);
  write_key(w, "securitySchemes");
  write_security_schemes(w);
  w.EndObject();
}

}  // namespace cal
