// GET /cal/events/v1: the namespace index, and GET / (the REST root): the root index WordPress
// clients discover, both generated from the route table (docs/api.md §8.1).
#include "cal/api/discovery/root_index.h"

#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/handlers.h"
#include "cal/core/text/numbers.h"

namespace cal {
namespace {

// "type": one name, or WordPress's list of names for a value that takes several JSON types.
void write_types(JsonWriter& w, const std::vector<std::string_view>& types) {
  if (types.empty()) return;
  if (types.size() == 1) return write_member(w, "type", types.front());
  write_key(w, "type");
  w.StartArray();
  for (std::string_view t : types) write_string(w, t);
  w.EndArray();
}

void write_args(JsonWriter& w, const Endpoint& endpoint, const RequestContext& ctx) {
  w.StartObject();
  for (const ParamSpec& spec : endpoint.params) {
    write_key(w, spec.name);
    w.StartObject();
    write_member(w, "description", translate(ctx.locale, spec.description));
    write_types(w, declared_types(spec));
    if (spec.default_value.data() != nullptr) {
      write_key(w, "default");
      write_param_default(w, spec);
    }
    if (const auto items = declared_item_types(spec); !items.empty()) {
      write_key(w, "items");
      w.StartObject();
      write_types(w, items);
      w.EndObject();
    }
    if (spec.max_items > 0) {
      write_key(w, "maxItems");
      w.Uint64(spec.max_items);
    }
    if (!spec.enum_values.empty()) {
      write_key(w, "enum");
      w.StartArray();
      for (std::string_view v : spec.enum_values) write_string(w, v);
      w.EndArray();
    }
    write_key(w, "required");
    w.Bool(spec.required);
    w.EndObject();
  }
  w.EndObject();
}

}  // namespace

void write_param_default(JsonWriter& w, const ParamSpec& spec) {
  const std::string_view d = spec.default_value;
  switch (spec.type) {
    case ParamType::kInteger:
      w.Int64(parse_integer(d).value());
      return;  // the table's own literal
    case ParamType::kNumber:
      w.Double(std::stod(std::string(d)));
      return;
    case ParamType::kBoolean:
      w.Bool(d == "true" || d == "1");
      return;
    default:
      write_string(w, d);
      return;
  }
}

void write_route_description(JsonWriter& w, const Route& route, const RequestContext& ctx) {
  w.StartObject();
  write_member(w, "namespace", route.at_rest_root ? std::string_view() : kNamespace);
  write_key(w, "methods");
  w.StartArray();
  for (const auto& m : route.allowed_methods()) write_string(w, m);
  w.EndArray();
  write_key(w, "endpoints");
  w.StartArray();
  for (const Endpoint& e : route.endpoints) {
    w.StartObject();
    write_key(w, "methods");
    w.StartArray();
    for (std::string_view m : e.methods) write_string(w, m);
    w.EndArray();
    write_key(w, "args");
    write_args(w, e, ctx);
    w.EndObject();
  }
  w.EndArray();
  if (route_is_static(route.pattern)) {
    write_key(w, "_links");
    w.StartObject();
    write_key(w, "self");
    w.StartArray();
    w.StartObject();
    write_member(w, "href",
                 route.at_rest_root ? ctx.rest_root + "/" + std::string(route.pattern)
                                    : ctx.ns_url() + std::string(route.pattern));
    w.EndObject();
    w.EndArray();
    w.EndObject();
  }
  w.EndObject();
}

Response get_namespace_index(RequestContext& ctx) {
  if (ctx.params.text(param::kNamespace) != kNamespace)
    throw ApiError{404, "rest_invalid_namespace",
                   translate(ctx.locale, "The specified namespace could not be found.")};
  JsonBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  write_member(w, "namespace", kNamespace);
  write_key(w, "routes");
  w.StartObject();
  for (const Route& route : route_table()) {
    if (route.at_rest_root) continue;  // the root index lists it
    write_key(w, route_regex(route.pattern));
    write_route_description(w, route, ctx);
  }
  w.EndObject();
  write_key(w, "_links");
  w.StartObject();
  write_key(w, "up");
  w.StartArray();
  w.StartObject();
  write_member(w, "href", ctx.rest_root + "/");
  w.EndObject();
  w.EndArray();
  w.EndObject();
  w.EndObject();
  return json_response(200, buffer);
}

// The shape of WordPress's root index (what WPAPI.discover and other clients read): the site,
// its namespaces and every route with its description.
Response get_root_index(RequestContext& ctx) {
  JsonBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  write_member(w, "name", translate(ctx.locale, "Calendar events API"));
  write_member(
      w, "description",
      translate(ctx.locale,
                "Events, venues, organizers, event categories and event tags of this site's calendar."));
  write_member(w, "url", ctx.site_url);
  write_member(w, "home", ctx.site_url);
  write_key(w, "namespaces");
  w.StartArray();
  write_string(w, kNamespace);
  w.EndArray();
  // Bearer tokens and Basic passwords (docs/api.md §1.4) need no discovery flow, unlike WordPress's
  // application-password authorization endpoint.
  write_key(w, "authentication");
  w.StartObject();
  w.EndObject();
  write_key(w, "routes");
  w.StartObject();
  for (const Route& route : route_table()) {
    write_key(w, route_key(route));
    write_route_description(w, route, ctx);
  }
  w.EndObject();
  write_key(w, "_links");
  w.StartObject();
  write_key(w, "help");
  w.StartArray();
  w.StartObject();
  write_member(w, "href", ctx.ns_url() + "/doc");
  w.EndObject();
  w.EndArray();
  w.EndObject();
  w.EndObject();
  return json_response(200, buffer);
}

}  // namespace cal
