// OPTIONS answers (see options_response.h).
#include "api/pipeline/options_response.h"

#include "cal/api/discovery/root_index.h"
#include "cal/api/pipeline/json.h"

#include <string>
#include <vector>

namespace cal {
namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

}  // namespace

Response options_response(const Route& route, RequestContext& ctx) {
  JsonBuffer buffer;
  JsonWriter w(buffer);
  write_route_description(w, route, ctx);
  Response r = json_response(200, buffer);
  r.set_header("Allow", join(route.allowed_methods()));
  return r;
}

}  // namespace cal
