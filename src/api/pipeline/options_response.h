// The answer to OPTIONS on a route: its description (as in the REST index) and an Allow header
// listing the route's methods. Needs no authentication and reads no parameters.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/routes.h"

namespace cal {

// `ctx` is a visitor's context with no parameters and the request's URLs filled in.
Response options_response(const Route& route, RequestContext& ctx);

}  // namespace cal
