// The request pipeline (see cal/api/pipeline/router.h), in three stages:
//  - handle_request picks the database that answers (the primary, or a replica for a read) and
//    adds the CORS headers;
//  - answer_on_backend answers on that database: the response cache, the language, failures
//    as answers, the common and caching headers;
//  - route_to_handler computes the answer: method, route, authentication, parameters, handler.
#include "cal/api/pipeline/router.h"

#include "api/pipeline/answer_headers.h"
#include "api/pipeline/cors.h"
#include "api/pipeline/failure_answers.h"
#include "api/pipeline/if_match.h"
#include "api/pipeline/options_response.h"
#include "api/pipeline/replica_reads.h"
#include "api/pipeline/request_body.h"
#include "api/pipeline/response_cache_use.h"
#include "api/pipeline/rest_route.h"
#include "cal/api/access/auth.h"
#include "cal/api/access/auth_throttle.h"
#include "cal/api/ops/health.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/response_shape.h"
#include "cal/api/pipeline/routes.h"
#include "cal/core/dates/clock_use.h"
#include "cal/core/text/ascii.h"
#include "cal/store/read_set.h"

#include <optional>

namespace cal {
namespace {

using ascii::upper;

// The request's method, with the overrides WordPress allows on POST (X-HTTP-Method-Override or
// `_method`).
std::string effective_method(const Request& request, const ParsedInput& input) {
  std::string method = upper(request.method);
  if (method == "POST") {
    std::string override = request.header("x-http-method-override");
    if (override.empty())
      if (const auto* m = member(input.query, "_method"); m && m->IsString()) override = m->GetString();
    if (!override.empty()) method = upper(override);
  }
  return method;
}

// OPTIONS: a browser's preflight from a granted origin; others get the route's description.
Response answer_options(const Request& request, const Route& route, Db& db, const Config& config,
                        Locale& locale) {
  if (is_preflight(request))
    if (const CorsGrant grant = cors_grant(config, request); grant != CorsGrant::kNone)
      return preflight_response(route, grant);
  const Caller visitor;
  const Params none;
  RequestContext ctx{request, none, visitor, db, config, locale, "", "", {}};
  fill_urls(request, config, ctx);
  return options_response(route, ctx);
}

// The body parsed and every parameter validated against the endpoint's declarations. Per-field
// rules that look up ids run here too, so every failure comes in one 400 (docs/api.md §1.3).
Params validated_params(const Request& request, const std::string& method, const Endpoint& endpoint,
                        const RouteMatch& match, ParsedInput& input, Db& db, const Caller& caller,
                        const Locale& locale, const FragmentUse& fragments) {
  if (is_body_method(method)) {
    if (request.body_too_large)
      throw ApiError{413, "rest_body_too_large", translate(locale, "The request body is too large.")};
    parse_body(request, input, locale);
  }
  // A text/calendar body only where a route reads it; it has its own parameters, not the route's.
  if (input.calendar && !endpoint.calendar_handler) throw unsupported_media_type(locale);
  static const std::vector<ParamSpec> kNoParams;
  ParamSources sources;
  sources.path = match.path_params;
  sources.body = &input.body;
  sources.query = &input.query;
  sources.invalid_utf8 = input.invalid_utf8;
  return validate_params(input.calendar ? kNoParams : endpoint.params, sources, locale,
                         CheckContext{&db, &caller, &fragments});
}

// The handler's answer. With If-Match on a write of one record, the check and the write share one
// transaction (the handler's own only nests), so no other write lands between them.
Response run_handler(const std::string& method, const RouteMatch& match, const Endpoint& endpoint,
                     const ParsedInput& input, RequestContext& ctx) {
  if (is_body_method(method) && !match.path_params.empty() && !ctx.request.header("if-match").empty()) {
    Transaction tx(ctx.db);
    check_if_match(*match.route, match, ctx);
    Response response = endpoint.handler(ctx);
    tx.commit();
    return response;
  }
  return (input.calendar ? endpoint.calendar_handler : endpoint.handler)(ctx);
}

// _fields (WordPress): the named fields of the record, or of each record of a list.
void apply_fields(const ParsedInput& input, const RouteMatch& match, Response& response) {
  const auto* f = member(input.query, "_fields");
  if (!f || response.status >= 300 || response.body.empty()) return;
  const std::vector<std::string> fields = field_list(*f);
  const std::string_view pattern = match.route->pattern;
  const std::string_view list_key =
      match.path_params.empty() ? pattern.substr(pattern.rfind('/') + 1) : std::string_view{};
  if (!fields.empty()) filter_fields(response.body, fields, list_key);
}

// Stage 3. `cached` answers an authenticated caller's GET/HEAD once the credentials are checked.
Response route_to_handler(const Request& request, Db& db, Db& primary, const Config& config,
                          ParsedInput& input, Locale& locale, bool& authenticated, long long& caller_id,
                          ResponseCacheUse& cached) {
  const std::string method = effective_method(request, input);
  const auto match = match_route(route_table(), request.path);
  if (!match)
    throw ApiError{404, "rest_no_route",
                   translate(locale, "No route was found matching the URL and request method.")};
  const Route& route = *match->route;
  if (method == "OPTIONS") return answer_options(request, route, db, config, locale);
  const Endpoint* endpoint = route.endpoint_for(method);
  if (!endpoint) {
    ApiError e{405, "rest_method_not_allowed", translate(locale, "Method not allowed for this route.")};
    e.allow = route.allowed_methods();
    throw e;
  }
  // Authentication, then the visitor check before the body is even looked at. 429 after repeated
  // failures, counted on the primary (a replica's connection never writes).
  const Caller caller =
      endpoint->probe ? Caller{} : authenticate_throttled(request, db, locale, auth_throttle(), &primary);
  authenticated = !caller.is_visitor();
  if (caller.user) caller_id = caller.user->id;
  if (endpoint->capability != Capability::kNone && caller.is_visitor()) throw forbidden(locale, 401);
  if (authenticated && cached.key_by(caller))
    if (auto hit = cached.lookup(db, config)) return std::move(*hit);
  const Params params =
      validated_params(request, method, *endpoint, *match, input, db, caller, locale, cached.fragments());
  // Capability of authenticated callers, after validation (docs/api.md §1.4).
  if (!has_capability(caller, endpoint->capability)) throw forbidden(locale);
  RequestContext ctx{
      request, params, caller, db, config, locale, "", "", cached.fragments(), cached.no_scheduled_due()};
  fill_urls(request, config, ctx);
  Response response = run_handler(method, *match, *endpoint, input, ctx);
  apply_fields(input, *match, response);
  if (method == "HEAD") response.head_only = true;
  return response;
}

// The language of the answer: `_locale`, Accept-Language, the site's.
Locale request_locale(const Request& request, const ParsedInput& input, const Config& config) {
  std::string query_locale;
  if (const auto* l = member(input.query, "_locale"); l && l->IsString()) query_locale = l->GetString();
  return choose_locale(request.site_locale, query_locale, request.header("accept-language"),
                       config.site.locale);
}

// The answer with the route template and cache outcome the access log and the metrics report.
Response with_facts(Response response, const Request& request, const char* cache_outcome, Db& db) {
  for (Db::StatementTime& t : db.take_timings())
    response.statement_times.emplace_back(std::move(t.sql), t.seconds);
  if (const auto match = match_route(route_table(), request.path))
    response.route =
        match->route->at_rest_root ? "/" : "/" + std::string(kNamespace) + std::string(match->route->pattern);
  response.cache = cache_outcome;
  return response;
}

// Stage 2. `db` answers (the primary or a replica); `primary` takes the failed-login counts;
// `lost` is set when the answer is a 503 for a lost connection.
Response answer_on_backend(const Request& request, Db& db, Db& primary, const Config& config,
                           const std::string& request_id, ResponseCache* cache, bool* lost = nullptr) {
  // Response cache: a visitor's GET/HEAD is answered from memory when the stored answer
  // is still exactly what the pipeline below would produce (an authenticated caller's, by
  // route_to_handler once the credentials are checked).
  // X-Cal-Statements counts what the pipeline runs, not the cache's version checks (which may have
  // been shared with other requests): the same request always reports the same count.
  const std::size_t statements_at_start = db.statement_count();
  // The health check's answer is about this moment, never a stored one.
  ResponseCacheUse cached(is_health_path(request.path) ? nullptr : cache,
                          request);  // its claim is released at return, after keep()
  db.set_timing(config.log.slow_ms > 0);
  db.take_timings();  // a replica's connection may hold an earlier request's
  if (auto hit = cached.lookup(db, config)) return with_facts(std::move(*hit), request, "hit", db);
  reset_clock_use();
  reset_read_set();
  ParsedInput input;
  parse_query(request, input);
  Locale locale = request_locale(request, input, config);

  bool authenticated = false;
  long long caller_id = 0;
  Response response = answer_or_failure(db, config, locale, request_id, lost, [&] {
    return route_to_handler(request, db, primary, config, input, locale, authenticated, caller_id, cached);
  });
  const std::size_t statements = db.statement_count() - statements_at_start - cached.lookup_statements();
  response.statements = statements;
  response.caller = caller_id;
  const auto add_statement_count = [&] {
    if (!config.server.statement_count_header) return;
    response.set_header("X-Cal-Statements", std::to_string(statements));
    if (db.wrote_since_mark()) response.set_header("X-Cal-Wrote", "1");
  };
  if (cached.answered()) {
    // Stored complete; of this request's statements, only the credentials' check ran.
    add_statement_count();
    return with_facts(std::move(response), request, "hit", db);
  }
  // _envelope (WordPress): status and headers inside a 200 body, errors included. Such an answer
  // to a failed request is never cached: its 200 is not the resource's.
  const int status_before_envelope = response.status;
  if (member(input.query, "_envelope")) envelope(response);
  add_statement_count();
  add_common_headers(request, config, locale, response);
  const std::string method = upper(request.method);
  if (method == "HEAD") response.head_only = true;
  const std::string etag = apply_caching(method, authenticated, response);
  if (status_before_envelope == 200) cached.keep(response, etag);
  apply_conditional(request, etag, response);
  response.not_before = cache_lease_end(config, db);
  return with_facts(std::move(response), request, cached.missed() ? "miss" : "", db);
}

}  // namespace

// Stage 1, one database.
Response handle_request(const Request& request, Db& db, const Config& config, const std::string& request_id,
                        ResponseCache* cache) {
  const std::optional<Request> routed = with_rest_route(request);
  Response response = answer_on_backend(routed ? *routed : request, db, db, config, request_id, cache);
  // After the cache: the same stored answer serves every origin, each with its own headers.
  add_cors_headers(config, request, response);
  return response;
}

// Stage 1 with read replicas: a read from a replica when one can serve it, else the primary.
Response handle_request(const Request& request, Backends& backends, const Config& config,
                        const std::string& request_id) {
  const std::optional<Request> routed_copy = with_rest_route(request);
  const Request& routed = routed_copy ? *routed_copy : request;
  const std::string method = upper(routed.method);
  std::optional<Response> response;
  // The health check asks the primary (the replicas are one of its checks).
  if ((method == "GET" || method == "HEAD") && !is_health_path(routed.path))
    response =
        answer_from_replica(routed, backends, config, [&](Db& replica, ResponseCache* cache, bool* lost) {
          return answer_on_backend(routed, replica, backends.primary, config, request_id, cache, lost);
        });
  if (!response) {
    backends.primary.mark();
    response = answer_on_backend(routed, backends.primary, backends.primary, config, request_id,
                                 backends.primary_cache);
    if (backends.primary.wrote_since_mark() && response->status < 400)
      add_write_position(backends.primary, *response);
  }
  add_cors_headers(config, request, *response);
  return std::move(*response);
}

}  // namespace cal
