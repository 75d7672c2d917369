// The namespace index (SPEC §8.1) and the per-route description shared with OPTIONS.
#pragma once

#include "cal/api/context.h"
#include "cal/api/json.h"
#include "cal/api/routes.h"

namespace cal {

// Writes one route's description: {namespace, methods, endpoints: [{methods, args}], _links?}.
void write_route_description(JsonWriter& w, const Route& route, const RequestContext& ctx);

}  // namespace cal
