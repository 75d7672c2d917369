// `paths` of the OpenAPI document (docs/api.md §8.2), generated from route_table(): one path per route
// (relative to the server URL "{ns}/"), one operation per method of each endpoint. Parameters
// keep the names, types and defaults of the namespace index; reads take them from the query,
// writes from a JSON or form body, `{id}`/`{slug}` from the path.
#include "cal/api/discovery/openapi.h"

#include "cal/api/discovery/root_index.h"
#include "cal/api/pipeline/routes.h"
#include "cal/core/text/ascii.h"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

namespace cal {
namespace {

bool is_body_method(std::string_view method) {
  return method == "POST" || method == "PUT" || method == "PATCH";
}

bool in_path(std::string_view pattern, std::string_view name) {
  return pattern.find("{" + std::string(name) + "}") != std::string_view::npos;
}

using ascii::lower;

// "get_events_by_slug_slug" for GET /events/by-slug/{slug}; "get_namespace" for the index.
std::string operation_id(std::string_view method, std::string_view pattern) {
  std::string id = lower(method);
  bool gap = true;
  for (char c : pattern) {
    if (ascii::is_alnum(c)) {
      if (gap) id += '_';
      id += c;
      gap = false;
    } else {
      gap = true;
    }
  }
  return pattern.empty() ? id + "_namespace" : id;
}

void write_parameter(JsonWriter& w, const ParamSpec& spec, std::string_view where,
                     const RequestContext& ctx) {
  w.StartObject();
  write_member(w, "name", spec.name);
  write_member(w, "in", where);
  write_member(w, "description", translate(ctx.locale, spec.description));
  write_key(w, "required");
  w.Bool(where == "path" || spec.required);
  if (where == "query" && declared_type(spec) == "array") {  // ?ids=1,2,3 (a[]=1&a[]=2 works too)
    write_member(w, "style", "form");
    write_key(w, "explode");
    w.Bool(false);
  }
  write_key(w, "schema");
  write_param_schema(w, spec);
  w.EndObject();
}

void write_request_body(JsonWriter& w, const Route& route, const Endpoint& e, const RequestContext& ctx) {
  std::vector<const ParamSpec*> body;
  bool any_required = false;
  for (const ParamSpec& p : e.params) {
    if (in_path(route.pattern, p.name)) continue;
    body.push_back(&p);
    any_required = any_required || p.required;
  }
  w.StartObject();
  write_key(w, "required");
  w.Bool(any_required);
  write_key(w, "content");
  w.StartObject();
  for (std::string_view media :
       {"application/json", "application/x-www-form-urlencoded", "multipart/form-data"}) {
    write_key(w, media);
    w.StartObject();
    write_key(w, "schema");
    w.StartObject();
    write_member(w, "type", "object");
    write_key(w, "properties");
    w.StartObject();
    for (const ParamSpec* p : body) {
      write_key(w, p->name);
      write_param_schema(w, *p, translate(ctx.locale, p->description));
    }
    w.EndObject();
    if (any_required) {
      write_key(w, "required");
      w.StartArray();
      for (const ParamSpec* p : body)
        if (p->required) write_string(w, p->name);
      w.EndArray();
    }
    w.EndObject();
    w.EndObject();
  }
  if (e.calendar_handler) {  // the iCalendar import (docs/feeds.md)
    write_key(w, "text/calendar");
    w.StartObject();
    write_key(w, "schema");
    w.StartObject();
    write_member(w, "type", "string");
    write_member(w, "description",
                 translate(ctx.locale,
                           "An iCalendar (RFC 5545) in UTF-8: each VEVENT creates an event, or updates the "
                           "one imported before with its UID (or named by a UID <id>@<site host> of this "
                           "site's feed), with the validation and permissions of a JSON body, all or "
                           "nothing; see docs/feeds.md."));
    w.EndObject();
    w.EndObject();
  }
  w.EndObject();
  w.EndObject();
}

struct Header {
  std::string_view name;
  std::string_view type;
  std::string_view description;  // msgid
  bool required = true;          // on every such answer (false: only when it applies)
};

const Header kContentLanguage{"Content-Language", "string",
                              "The language of the texts in the response (BCP 47)."};
const Header kETag{"ETag", "string", "Entity tag of the body, for If-None-Match."};
const Header kLocation{"Location", "string", "The URL of the created record."};
const std::vector<Header> kListHeaders = {
    {"X-WP-Total", "integer", "The number of matching records."},
    {"X-WP-TotalPages", "integer", "The number of pages."},
    {"X-TEC-Total", "integer", "The number of matching records."},
    {"X-TEC-TotalPages", "integer", "The number of pages."},
    {"Link", "string", "Links to the next and the previous page, where they exist."},
};
// On every answer (WordPress discovery), after the page links of a list.
const Header kRootLink{"Link", "string", "The REST root: <{root}/>; rel=\"https://api.w.org/\"."};

// On every answer to a page whose origin [cors] origins lists (CORS; preflights are answered too).
const std::vector<Header> kCorsHeaders = {
    {"Access-Control-Allow-Origin", "string",
     "CORS: the calling page's origin when [cors] origins lists it, or * for reads when it lists *.", false},
    {"Access-Control-Allow-Credentials", "string", "CORS: true for a listed origin (credentials allowed).",
     false},
    {"Access-Control-Expose-Headers", "string", "CORS: the response headers a page may read.", false},
};

// A success response: description, headers, and a JSON body with `schema` (a components name,
// or "" for any object). `one_of` adds a second schema the body may have instead.
// `calendar`: the route also answers text/calendar (an iCalendar feed).
void write_success(JsonWriter& w, int status, std::string_view description, std::string_view schema,
                   std::vector<Header> headers, const RequestContext& ctx, std::string_view one_of = {},
                   bool calendar = false) {
  write_key(w, std::to_string(status));
  w.StartObject();
  write_member(w, "description", translate(ctx.locale, description));
  headers.push_back(kContentLanguage);
  if (std::none_of(headers.begin(), headers.end(), [](const Header& h) { return h.name == "Link"; }))
    headers.push_back(kRootLink);
  headers.insert(headers.end(), kCorsHeaders.begin(), kCorsHeaders.end());
  write_key(w, "headers");
  w.StartObject();
  for (const Header& h : headers) {
    write_key(w, h.name);
    w.StartObject();
    write_member(w, "description", translate(ctx.locale, h.description));
    write_key(w, "required");
    w.Bool(h.required);
    write_key(w, "schema");
    w.StartObject();
    write_member(w, "type", h.type);
    w.EndObject();
    w.EndObject();
  }
  w.EndObject();
  if (status != 304) {
    write_key(w, "content");
    w.StartObject();
    write_key(w, "application/json");
    w.StartObject();
    write_key(w, "schema");
    w.StartObject();
    if (schema.empty()) {
      write_member(w, "type", "object");
    } else if (one_of.empty()) {
      write_member(w, "$ref", schema_ref(schema));
    } else {
      write_key(w, "oneOf");
      w.StartArray();
      for (std::string_view s : {schema, one_of}) {
        w.StartObject();
        write_member(w, "$ref", schema_ref(s));
        w.EndObject();
      }
      w.EndArray();
    }
    w.EndObject();
    w.EndObject();
    if (calendar) {
      write_key(w, "text/calendar");
      w.StartObject();
      write_key(w, "schema");
      w.StartObject();
      write_member(w, "type", "string");
      w.EndObject();
      w.EndObject();
    }
    w.EndObject();
  }
  w.EndObject();
}

void write_errors(JsonWriter& w, std::initializer_list<int> statuses) {
  for (int status : statuses) {
    if (status == 0) continue;
    write_key(w, std::to_string(status));
    w.StartObject();
    write_member(w, "$ref", "#/components/responses/" + std::string(error_response_name(status)));
    w.EndObject();
  }
}

// Success and error responses of one operation, by what the route serves (docs/api.md §1-§5).
void write_responses(JsonWriter& w, std::string_view method, const Route& route, const RequestContext& ctx) {
  const OpenApiResource* r = openapi_resource(route.pattern);
  const bool term = r && r->deleted.empty();
  const bool collection = r && route.pattern.find('/', 1) == std::string_view::npos;
  const bool get = method == "GET";
  // Routes whose GET takes `ical` also answer with an iCalendar feed.
  const Endpoint* reader = route.endpoint_for("GET");
  const bool feed = get && reader &&
                    std::any_of(reader->params.begin(), reader->params.end(),
                                [](const ParamSpec& p) { return p.name == param::kIcal; });
  w.StartObject();
  if (route.at_rest_root) {
    write_success(w, 200, "The REST root index: the site, its namespaces and every route.", "RootIndex",
                  {kETag}, ctx);
    write_success(w, 304, "Not modified: the entity tag sent in If-None-Match still matches.", "", {kETag},
                  ctx);
    write_errors(w, {400, 401, 500, 503});
  } else if (route.pattern == "/changes") {
    write_success(w, 200, "The changes since the token, and the token to send next.", "Changes", {kETag},
                  ctx);
    write_success(w, 304, "Not modified: the entity tag sent in If-None-Match still matches.", "", {kETag},
                  ctx);
    write_errors(w, {400, 401, 410, 500, 503});
  } else if (!r) {
    const bool index = route.pattern.empty();
    write_success(w, 200, index ? "The namespace index." : "The OpenAPI document.",
                  index ? "NamespaceIndex" : "", {kETag}, ctx);
    write_success(w, 304, "Not modified: the entity tag sent in If-None-Match still matches.", "", {kETag},
                  ctx);
    write_errors(w, {index ? 400 : 0, 401, index ? 404 : 0, 500, 503});
  } else if (get && collection) {
    std::vector<Header> headers = kListHeaders;
    headers.push_back(kETag);
    write_success(w, 200, "A page of records.", r->list, headers, ctx, {}, feed);
    write_success(w, 304, "Not modified: the entity tag sent in If-None-Match still matches.", "", {kETag},
                  ctx);
    write_errors(w, {400, 401, 404, 500, 503});
  } else if (get) {
    write_success(w, 200, "The record.", r->record, {kETag}, ctx, {}, feed);
    write_success(w, 304, "Not modified: the entity tag sent in If-None-Match still matches.", "", {kETag},
                  ctx);
    write_errors(w, {400, 401, term ? 0 : 403, 404, 500, 503});
  } else if (collection) {  // create
    if (r->collection == "venues" || r->collection == "organizers")
      write_success(w, 200, "An existing record with the same fields; nothing was created.", r->record, {},
                    ctx);
    const Endpoint* create = route.endpoint_for("POST");
    if (create && create->calendar_handler) {
      write_success(w, 200, "A text/calendar body whose events all existed: the ids of the updated events.",
                    "IcalImport", {}, ctx);
      write_success(w, 201,
                    "The created record; for a text/calendar body the ids of the created and updated "
                    "events.",
                    r->record, {kLocation}, ctx, "IcalImport");
    } else {
      write_success(w, 201, "The created record.", r->record, {kLocation}, ctx);
    }
    write_errors(w, {400, 401, 403, 405, term ? 409 : 0, 413, 415, 500, 503});
  } else if (method == "DELETE") {
    if (term)
      write_success(w, 200, "The deleted term as it was.", r->record, {}, ctx);
    else
      write_success(w, 200, "The trashed record, or with force the deleted one.", r->record, {}, ctx,
                    r->deleted);
    write_errors(w, {400, 401, 403, 404, term ? 0 : 410, 412, 413, 415, 500, 503});
  } else {  // update
    write_success(w, 200, "The updated record.", r->record, {}, ctx);
    write_errors(w,
                 {400, 401, 403, 404, method == "POST" ? 405 : 0, term ? 409 : 0, 412, 413, 415, 500, 503});
  }
  w.EndObject();
}

// A parameter the pipeline reads on every route (WordPress's global ones, If-Match).
void write_extra_parameter(JsonWriter& w, std::string_view name, std::string_view where,
                           std::string_view description, const RequestContext& ctx) {
  w.StartObject();
  write_member(w, "name", name);
  write_member(w, "in", where);
  write_member(w, "description", translate(ctx.locale, description));
  write_key(w, "required");
  w.Bool(false);
  write_key(w, "schema");
  w.StartObject();
  write_member(w, "type", "string");
  w.EndObject();
  w.EndObject();
}

void write_global_parameters(JsonWriter& w, std::string_view method, const Route& route,
                             const RequestContext& ctx) {
  write_extra_parameter(
      w, "_fields", "query",
      "Only these fields of the record, or of each record of a list (a comma list; dotted paths "
      "reach into nested objects). The body then holds only those fields.",
      ctx);
  write_extra_parameter(w, "_envelope", "query",
                        "Answer 200 with the body, the status and the headers inside a JSON object.", ctx);
  const bool item = route.pattern.find('{') != std::string_view::npos;
  if (item && (is_body_method(method) || method == "DELETE"))
    write_extra_parameter(
        w, "If-Match", "header",
        "Write only if the record is unchanged: its ETag as last read, or * for any existing "
        "version; else 412.",
        ctx);
}

// Reads work without credentials (an application password only shows more); writes need one.
void write_security(JsonWriter& w, bool optional) {
  w.StartArray();
  if (optional) {
    w.StartObject();
    w.EndObject();
  }
  for (std::string_view scheme : {"basicAuth", "bearerAuth"}) {
    w.StartObject();
    write_key(w, scheme);
    w.StartArray();
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
}

void write_operation(JsonWriter& w, std::string_view method, const Route& route, const Endpoint& e,
                     const RequestContext& ctx) {
  const OpenApiResource* r = openapi_resource(route.pattern);
  write_key(w, lower(method));
  w.StartObject();
  write_member(w, "operationId",
               route.at_rest_root ? lower(method) + "_root" : operation_id(method, route.pattern));
  write_member(w, "summary", translate(ctx.locale, e.summary));
  write_key(w, "tags");
  w.StartArray();
  write_string(w, r ? r->collection : route.pattern == "/changes" ? "changes" : "namespace");
  w.EndArray();
  write_key(w, "parameters");
  w.StartArray();
  for (const ParamSpec& p : e.params) {
    if (in_path(route.pattern, p.name))
      write_parameter(w, p, "path", ctx);
    else if (!is_body_method(method))
      write_parameter(w, p, "query", ctx);
  }
  write_global_parameters(w, method, route, ctx);
  w.EndArray();
  if (is_body_method(method)) {
    write_key(w, "requestBody");
    write_request_body(w, route, e, ctx);
  }
  write_key(w, "responses");
  write_responses(w, method, route, ctx);
  write_key(w, "security");
  write_security(w, e.capability == Capability::kNone);
  w.EndObject();
}

}  // namespace

void write_openapi_paths(JsonWriter& w, const RequestContext& ctx) {
  w.StartObject();
  for (const Route& route : route_table()) {
    // The REST root and the namespace index are both "/" of something: they name the REST root
    // as their server, the other routes are below the document's server (the namespace).
    const bool below_root = route.at_rest_root || route.pattern.empty();
    if (below_root)
      write_key(w, route.at_rest_root ? "/" + std::string(route.pattern) : "/" + std::string(kNamespace));
    else
      write_key(w, route.pattern);
    w.StartObject();
    if (below_root) {
      write_key(w, "servers");
      w.StartArray();
      w.StartObject();
      write_member(w, "url", ctx.rest_root);
      w.EndObject();
      w.EndArray();
    }
    for (const Endpoint& e : route.endpoints)
      for (std::string_view method : e.methods) write_operation(w, method, route, e, ctx);
    w.EndObject();
  }
  w.EndObject();
}

}  // namespace cal
