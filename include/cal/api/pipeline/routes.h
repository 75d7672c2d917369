// The one route table (docs/architecture.md): for each route its path pattern, and for each endpoint its
// methods, declared parameters, the capability it needs and its handler. The router, the
// validator, OPTIONS, the namespace index and the OpenAPI document all read this table. The table
// is in routes.cpp, path matching in route_match.cpp.
#pragma once

#include "cal/api/access/permissions.h"
#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/params.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cal {

struct Endpoint {
  std::vector<std::string_view> methods;  // e.g. {"POST", "PUT", "PATCH"}
  Capability capability = Capability::kNone;
  Handler handler = nullptr;
  // The handler of a text/calendar body (the iCalendar import of POST /events), or nullptr: such
  // a body is refused with 415 like any other unsupported type.
  Handler calendar_handler = nullptr;
  std::vector<ParamSpec> params;
  std::string_view summary;  // English source text, for the OpenAPI document
  // A monitoring probe (the health check): credentials are not read, so it never answers 401 and
  // is never throttled, and its answer is never kept by the response cache.
  bool probe = false;
};

struct Route {
  // Below the namespace: "" (the namespace itself), "/events", "/events/{id}",
  // "/events/by-slug/{slug}". `{id}` matches \d+, `{slug}` matches [^/]+ (percent-decoded).
  std::string_view pattern;
  std::vector<Endpoint> endpoints;
  // The pattern is below the REST root instead of the namespace: only the root index ("").
  bool at_rest_root = false;

  // Methods of the route's endpoints, in table order ("GET", "POST"); HEAD and OPTIONS are
  // served on every route without being listed, as in the plugin's Allow header.
  std::vector<std::string> allowed_methods() const;
  // The endpoint serving `method` (HEAD is served by GET), or nullptr.
  const Endpoint* endpoint_for(std::string_view method) const;
};

// The service's route table, built once.
const std::vector<Route>& route_table();

// The parameters of the POST route `pattern` (e.g. "/events/{id}"), for writes made outside a
// request (the iCalendar import, calendarctl demo) that validate as the route does.
const std::vector<ParamSpec>& post_params(std::string_view pattern);

struct RouteMatch {
  const Route* route = nullptr;
  std::vector<std::pair<std::string, std::string>> path_params;  // decoded
};

// Matches a full path ("/cal/events/v1/events/5", one trailing slash ignored; "" or "/" is the
// REST root) against the table.
std::optional<RouteMatch> match_route(const std::vector<Route>& routes, std::string_view path);

// The full route pattern as a WordPress-style regex key of the namespace index:
// "/cal/events/v1/events/(?P<id>\d+)".
std::string route_regex(std::string_view pattern);

// The route's key in the REST root index: "/" for the root itself, else route_regex(pattern).
std::string route_key(const Route& route);

// Whether a route pattern has no variables (it then gets `_links.self` in the index).
bool route_is_static(std::string_view pattern);

}  // namespace cal
