// GET /cal/events/v1/doc: the OpenAPI 3.0 document (docs/api.md §8.2). Paths and components come from
// openapi_paths.cpp and openapi_components.cpp; descriptions are in the request's language.
#include "cal/api/discovery/openapi.h"

#include "cal/api/pipeline/handlers.h"

namespace cal {

std::string schema_ref(std::string_view name) { return "#/components/schemas/" + std::string(name); }

Response get_openapi_document(RequestContext& ctx) {
  JsonBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  write_member(w, "openapi", "3.0.3");
  write_key(w, "info");
  w.StartObject();
  write_member(w, "title", translate(ctx.locale, "Calendar events API"));
  write_member(
      w, "description",
      translate(ctx.locale,
                "Events, venues, organizers, event categories and event tags of this site's calendar."));
  write_member(w, "version", "1.0.0");
  w.EndObject();
  write_key(w, "servers");
  w.StartArray();
  w.StartObject();
  write_member(w, "url", ctx.ns_url() + "/");
  w.EndObject();
  w.EndArray();
  write_key(w, "paths");
  write_openapi_paths(w, ctx);
  write_key(w, "components");
  write_openapi_components(w, ctx);
  w.EndObject();
  Response r = json_response(200, buffer);
  return r;
}

}  // namespace cal
