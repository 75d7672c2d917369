// ?rest_route= (see rest_route.h).
#include "api/pipeline/rest_route.h"

#include "api/pipeline/request_body.h"
#include "cal/http/input.h"

#include <string>
#include <vector>

namespace cal {

std::optional<Request> with_rest_route(const Request& request) {
  if ((!request.path.empty() && request.path != "/") ||
      request.query_string.find("rest_route=") == std::string::npos)
    return std::nullopt;
  rapidjson::Document query;
  query.SetObject();
  std::vector<std::string> invalid_utf8;
  parse_form(request.query_string, query, invalid_utf8);
  const auto* route = member(query, "rest_route");
  if (!route || !route->IsString() || route->GetStringLength() == 0) return std::nullopt;
  Request routed = request;
  routed.path = route->GetString();
  return routed;
}

}  // namespace cal
