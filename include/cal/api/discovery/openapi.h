// The OpenAPI 3.0 document of GET /cal/events/v1/doc (docs/api.md §8.2), generated from the route table:
// openapi.cpp writes the document, openapi_paths.cpp the paths (every route and method of
// route_table(), with parameters, request bodies and responses), openapi_components.cpp the
// components, whose record schemas (docs/api.md §3) and list envelopes come from openapi_records.cpp.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/json.h"
#include "cal/api/pipeline/params.h"

#include <string_view>

namespace cal {

// What the routes below one collection serve, known by the collection's path segment.
struct OpenApiResource {
  std::string_view collection;  // "events": the first path segment and the list envelope's key
  std::string_view record;      // "Event": the component schema of one record
  std::string_view list;        // "EventList": the schema of a list page
  std::string_view deleted;     // "DeletedEvent": the schema of a forced delete; "" for terms
};

// The resource a route pattern ("/events/{id}") belongs to, or nullptr for the namespace routes.
const OpenApiResource* openapi_resource(std::string_view pattern);

// "#/components/schemas/<name>".
std::string schema_ref(std::string_view name);

// The schema of a route-table parameter (its types, items, enum and bounds, a oneOf when it takes
// several types); `description` (already translated) is added when not empty.
void write_param_schema(JsonWriter& w, const ParamSpec& spec, std::string_view description = {});

// Writes the `paths` object: one path per route, one operation per method.
void write_openapi_paths(JsonWriter& w, const RequestContext& ctx);

// Writes the `components` object: schemas, reusable error responses, security schemes.
void write_openapi_components(JsonWriter& w, const RequestContext& ctx);

// Writes the members of `components.schemas` for records: Event, Venue, Organizer, Term,
// TermUrls, Image, DateDetails, CostDetails, one list envelope per collection and the forced
// delete answers (DeletedEvent, ...).
void write_record_schemas(JsonWriter& w);

// The name of the reusable response (components.responses) for an error status ("NotFound").
std::string_view error_response_name(int status);

}  // namespace cal
