// WordPress's form for hosts without pretty URLs: "{root}/?rest_route=/cal/events/v1/events"
// routes like PATH_INFO "/cal/events/v1/events", for shared hosting without URL rewriting.
#pragma once

#include "cal/http/request.h"

#include <optional>

namespace cal {

// A copy of the request with the path `rest_route` names, or nullopt when the request is not for
// the REST root or names no route there.
std::optional<Request> with_rest_route(const Request& request);

}  // namespace cal
