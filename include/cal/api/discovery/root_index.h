// The namespace index (docs/api.md §8.1) and the per-route description shared with OPTIONS.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/json.h"
#include "cal/api/pipeline/routes.h"

namespace cal {

// Writes one route's description: {namespace, methods, endpoints: [{methods, args}], _links?}.
void write_route_description(JsonWriter& w, const Route& route, const RequestContext& ctx);

// Writes a parameter's declared default in its own JSON type ("1" → 1 for integers, "true" →
// true for booleans, else the string); the namespace index and the OpenAPI document share it.
void write_param_default(JsonWriter& w, const ParamSpec& spec);

}  // namespace cal
