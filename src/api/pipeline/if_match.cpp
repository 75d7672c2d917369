// If-Match on writes of one record (see if_match.h).
#include "api/pipeline/if_match.h"

#include "cal/api/pipeline/error.h"
#include "cal/core/text/etag.h"
#include "cal/core/text/numbers.h"
#include "cal/store/posts.h"
#include "cal/store/terms.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {
namespace {

// One rendering of the record as the GET endpoint answers it.
struct Rendering {
  int status = 0;
  std::string etag;  // of a 200 answer
  long long id = 0;  // the record's "id", from a 200 answer
};

Rendering render(const Endpoint& get, const RouteMatch& match, RequestContext& ctx, bool edit) {
  rapidjson::Document query;
  query.SetObject();
  if (edit) query.AddMember("context", "edit", query.GetAllocator());
  ParamSources sources;
  sources.path = match.path_params;
  sources.query = &query;
  Rendering out;
  try {
    const Params params =
        validate_params(get.params, sources, ctx.locale, CheckContext{&ctx.db, &ctx.caller});
    RequestContext get_ctx{ctx.request, params,       ctx.caller,    ctx.db,       ctx.config,
                           ctx.locale,  ctx.site_url, ctx.rest_root, ctx.fragments};
    const Response r = get.handler(get_ctx);
    out.status = r.status;
    if (r.status != 200) return out;
    out.etag = strong_etag(r.body);
    rapidjson::Document doc;
    doc.Parse(r.body.data(), r.body.size());
    if (doc.IsObject())
      if (auto it = doc.FindMember("id"); it != doc.MemberEnd() && it->value.IsInt64())
        out.id = it->value.GetInt64();
  } catch (const ApiError& e) {
    out.status = e.status;
  }
  return out;
}

bool declares(const Endpoint& e, std::string_view name) {
  for (const ParamSpec& spec : e.params)
    if (spec.name == name) return true;
  return false;
}

std::vector<Rendering> renderings(const Endpoint& get, const RouteMatch& match, RequestContext& ctx) {
  std::vector<Rendering> out{render(get, match, ctx, false)};
  if (declares(get, "context")) out.push_back(render(get, match, ctx, true));
  return out;
}

ApiError precondition_failed(const RequestContext& ctx, bool exists) {
  return ApiError{412, "rest_precondition_failed",
                  exists ? translate(ctx.locale, "The record has changed since it was read.")
                         : translate(ctx.locale, "The record does not exist.")};
}

}  // namespace

void check_if_match(const Route& route, const RouteMatch& match, RequestContext& ctx) {
  const Endpoint* get = route.endpoint_for("GET");
  if (!get) return;
  const std::string& header = ctx.request.header("if-match");
  // The record's id: from the path, else (by-slug routes) from a first rendering.
  std::optional<long long> id;
  for (const auto& [name, value] : match.path_params)
    if (name == "id") id = parse_integer(value);
  if (!id)
    for (const Rendering& r : renderings(*get, match, ctx))
      if (r.id > 0) id = r.id;
  if (!id || *id <= 0) throw precondition_failed(ctx, false);
  const bool term = route.pattern.starts_with("/categories") || route.pattern.starts_with("/tags");
  if (term)
    lock_term(ctx.db, *id);
  else
    lock_post(ctx.db, *id);
  bool exists = false;
  bool matched = false;
  for (const Rendering& r : renderings(*get, match, ctx)) {
    if (r.status != 404) exists = true;
    if (!r.etag.empty() && if_match(header, r.etag)) matched = true;
  }
  if (!exists) throw precondition_failed(ctx, false);
  if (matched || if_match_any(header)) return;
  throw precondition_failed(ctx, true);
}

}  // namespace cal
