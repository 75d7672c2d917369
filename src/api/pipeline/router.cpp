// The request pipeline (see cal/api/pipeline/router.h).
#include "cal/api/pipeline/router.h"

#include "api/pipeline/conditional_get.h"
#include "api/pipeline/cors.h"
#include "api/pipeline/if_match.h"
#include "api/pipeline/options_response.h"
#include "api/pipeline/response_cache_use.h"
#include "api/pipeline/retry_policy.h"
#include "cal/api/access/auth.h"
#include "cal/api/access/auth_throttle.h"
#include "cal/api/pipeline/bulkhead.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/json.h"
#include "cal/api/pipeline/response_shape.h"
#include "cal/api/pipeline/routes.h"
#include "cal/core/dates/clock_use.h"
#include "cal/core/text/ascii.h"
#include "cal/http/input.h"
#include "cal/http/multipart.h"
#include "cal/store/read_set.h"
#include "cal/store/replicas.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>
#include <thread>

namespace cal {
namespace {

using ascii::upper;

const rapidjson::Value* member(const rapidjson::Value& obj, const char* name) {
  auto it = obj.FindMember(name);
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

// Everything parsed from the request before routing decisions that need it.
struct ParsedInput {
  rapidjson::Document query;
  rapidjson::Document body;
  std::vector<std::string> invalid_utf8;
  bool calendar = false;  // a text/calendar body, left to the route's calendar_handler
};

bool is_body_method(std::string_view method) {
  return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

ApiError unsupported_media_type(const Locale& locale) {
  return ApiError{415, "rest_unsupported_media_type",
                  translate(locale,
                            "Send the body as application/json, application/x-www-form-urlencoded or "
                            "multipart/form-data.")};
}

// text/calendar is UTF-8 unless a charset says otherwise (RFC 5545 §3.1.4); only UTF-8 is read.
bool is_utf8_content_type(const std::string& content_type) {
  const std::string lowered = ascii::lower(content_type);
  const std::size_t at = lowered.find("charset=");
  if (at == std::string::npos) return true;
  std::string charset = lowered.substr(at + 8);
  charset = charset.substr(0, charset.find(';'));
  charset.erase(
      std::remove_if(charset.begin(), charset.end(), [](char c) { return ascii::is_space(c) || c == '"'; }),
      charset.end());
  return charset == "utf-8" || charset == "utf8";
}

// Parses the body by content type; throws ApiError for malformed or unsupported bodies.
void parse_body(const Request& request, ParsedInput& input, const Locale& locale) {
  input.body.SetObject();
  std::string type = request.content_type.substr(0, request.content_type.find(';'));
  type.erase(std::remove_if(type.begin(), type.end(), ascii::is_space), type.end());
  type = ascii::lower(type);
  // An iCalendar import (issue 16): read by the route's own handler, even when empty.
  if (type == "text/calendar") {
    if (!is_utf8_content_type(request.content_type))
      throw ApiError{415, "rest_unsupported_media_type",
                     translate(locale, "Send text/calendar bodies in UTF-8 (charset=utf-8).")};
    input.calendar = true;
    return;
  }
  // JSON's own white space (RFC 8259), not ascii::kWhiteSpace: a body of "\f" is not empty.
  if (request.body.find_first_not_of(" \t\r\n") == std::string::npos) return;
  if (type == "application/json" || (type.size() > 5 && type.compare(type.size() - 5, 5, "+json") == 0)) {
    switch (parse_json_body(request.body, input.body)) {
      case JsonBodyError::kNone:
        return;
      case JsonBodyError::kInvalidUtf8:
        throw ApiError{400, "rest_invalid_json", translate(locale, "The JSON body is not valid UTF-8.")};
      case JsonBodyError::kNotAnObject:
        throw ApiError{400, "rest_invalid_json", translate(locale, "The JSON body must be an object.")};
      case JsonBodyError::kMalformed:
        throw ApiError{400, "rest_invalid_json", translate(locale, "Invalid JSON body passed.")};
    }
  }
  if (type == "application/x-www-form-urlencoded") {
    parse_form(request.body, input.body, input.invalid_utf8);
    return;
  }
  if (type == "multipart/form-data") {  // a browser's FormData: fields like a form, no files
    const auto boundary = multipart_boundary(request.content_type);
    const MultipartResult parsed =
        boundary ? parse_multipart(request.body, *boundary, input.body, input.invalid_utf8)
                 : MultipartResult{MultipartError::kMalformed, ""};
    if (parsed.error == MultipartError::kMalformed)
      throw ApiError{400, "rest_invalid_multipart",
                     translate(locale, "The multipart/form-data body is malformed.")};
    if (parsed.error == MultipartError::kFile)
      throw invalid_params(
          locale, {{parsed.field,
                    format_message(locale, "%s is a file, and no route takes files.", {parsed.field})}});
    return;
  }
  throw unsupported_media_type(locale);
}

// The REST root and site URL: configured, or the request's scheme, host and mount point.
struct BaseUrls {
  std::string rest_root;
  std::string site_url;
};

BaseUrls base_urls(const Request& request, const Config& config) {
  std::string scheme = request.scheme;
  std::string host = request.host.empty() ? std::string("localhost") : request.host;
  if (config.site.trust_proxy) {
    if (const auto& p = request.header("x-forwarded-proto"); !p.empty()) scheme = p.substr(0, p.find(','));
    if (const auto& h = request.header("x-forwarded-host"); !h.empty()) host = h.substr(0, h.find(','));
  }
  const std::string origin = scheme + "://" + host;
  auto strip = [](std::string s) {
    while (!s.empty() && s.back() == '/') s.pop_back();
    return s;
  };
  return {config.site.rest_url.empty() ? origin + request.script_name : strip(config.site.rest_url),
          config.site.url.empty() ? origin : strip(config.site.url)};
}

void fill_urls(const Request& request, const Config& config, RequestContext& ctx) {
  BaseUrls urls = base_urls(request, config);
  ctx.rest_root = std::move(urls.rest_root);
  ctx.site_url = std::move(urls.site_url);
}

// `cached` answers an authenticated caller's GET/HEAD once the credentials are checked.
Response run_pipeline(const Request& request, Db& db, Db& primary, const Config& config, ParsedInput& input,
                      Locale& locale, bool& authenticated, ResponseCacheUse& cached) {
  // 1. Method, with overrides on POST.
  std::string method = upper(request.method);
  if (method == "POST") {
    std::string override = request.header("x-http-method-override");
    if (override.empty())
      if (const auto* m = member(input.query, "_method"); m && m->IsString()) override = m->GetString();
    if (!override.empty()) method = upper(override);
  }
  // 2. Routing.
  const auto match = match_route(route_table(), request.path);
  if (!match)
    throw ApiError{404, "rest_no_route",
                   translate(locale, "No route was found matching the URL and request method.")};
  const Route& route = *match->route;
  const std::vector<std::string> allow = route.allowed_methods();
  const Endpoint* endpoint = route.endpoint_for(method);
  if (method == "OPTIONS") {
    // A browser's preflight from a granted origin; others get the route's description.
    if (is_preflight(request))
      if (const CorsGrant grant = cors_grant(config, request); grant != CorsGrant::kNone)
        return preflight_response(route, grant);
    const Caller visitor;
    const Params none;
    RequestContext ctx{request, none, visitor, db, config, locale, "", ""};
    fill_urls(request, config, ctx);
    return options_response(route, ctx);
  }
  if (!endpoint) {
    ApiError e{405, "rest_method_not_allowed", translate(locale, "Method not allowed for this route.")};
    e.allow = allow;
    throw e;
  }
  // 3. Authentication, then the visitor check before the body is even looked at.
  // 429 after repeated failures, counted on the primary (a replica's connection never writes).
  const Caller caller = authenticate_throttled(request, db, locale, auth_throttle(), &primary);
  authenticated = !caller.is_visitor();
  if (endpoint->capability != Capability::kNone && caller.is_visitor()) throw forbidden(locale, 401);
  if (authenticated && cached.key_by(caller))
    if (auto hit = cached.lookup(db, config)) return std::move(*hit);
  // 4. Body and parameters.
  if (is_body_method(method)) {
    if (request.body_too_large)
      throw ApiError{413, "rest_body_too_large", translate(locale, "The request body is too large.")};
    parse_body(request, input, locale);
  }
  // A text/calendar body only where a route reads it; it has its own parameters, not the route's.
  if (input.calendar && !endpoint->calendar_handler) throw unsupported_media_type(locale);
  static const std::vector<ParamSpec> kNoParams;
  ParamSources sources;
  sources.path = match->path_params;
  sources.body = &input.body;
  sources.query = &input.query;
  sources.invalid_utf8 = input.invalid_utf8;
  // Per-field rules that look up ids run here too, so every failure comes in one 400 (docs/api.md §1.3).
  const Params params = validate_params(input.calendar ? kNoParams : endpoint->params, sources, locale,
                                        CheckContext{&db, &caller});
  // 5. Capability of authenticated callers, after validation (docs/api.md §1.4).
  if (!has_capability(caller, endpoint->capability)) throw forbidden(locale);
  RequestContext ctx{request, params, caller, db, config, locale, "", ""};
  fill_urls(request, config, ctx);
  Response response;
  if (is_body_method(method) && !match->path_params.empty() && !request.header("if-match").empty()) {
    // 6. If-Match (issue 15): the check and the write share one transaction (the handler's own
    // only nests), so no other write lands between them.
    Transaction tx(db);
    check_if_match(route, *match, ctx);
    response = endpoint->handler(ctx);
    tx.commit();
  } else {
    response = (input.calendar ? endpoint->calendar_handler : endpoint->handler)(ctx);
  }
  // 7. _fields (WordPress): the named fields of the record, or of each record of a list.
  if (const auto* f = member(input.query, "_fields"); f && response.status < 300 && !response.body.empty()) {
    const std::vector<std::string> fields = field_list(*f);
    const std::string_view pattern = route.pattern;
    const std::string_view list_key =
        match->path_params.empty() ? pattern.substr(pattern.rfind('/') + 1) : std::string_view{};
    if (!fields.empty()) filter_fields(response.body, fields, list_key);
  }
  if (method == "HEAD") response.head_only = true;
  return response;
}

// WordPress's form for hosts without pretty URLs: "{root}/?rest_route=/cal/events/v1/events"
// routes like PATH_INFO "/cal/events/v1/events". A copy of the request with that path, or
// nullopt when the request is not for the REST root or names no route there.
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

// `db` answers (the primary or a replica); `primary` takes the failed-login counts; `lost` is set
// when the answer is a 503 for a lost connection.
Response answer(const Request& request, Db& db, Db& primary, const Config& config,
                const std::string& request_id, ResponseCache* cache, bool* lost = nullptr) {
  // Response cache (issue 8): a visitor's GET/HEAD is answered from memory when the stored answer
  // is still exactly what the pipeline below would produce (an authenticated caller's, by
  // run_pipeline once the credentials are checked).
  // X-Cal-Statements counts what the pipeline runs, not the cache's version checks (which may have
  // been shared with other requests): the same request always reports the same count.
  const std::size_t statements_at_start = db.statement_count();
  ResponseCacheUse cached(cache, request);  // its claim is released at return, after keep()
  if (auto hit = cached.lookup(db, config)) return std::move(*hit);
  reset_clock_use();
  reset_read_set();
  ParsedInput input;
  input.query.SetObject();
  parse_form(request.query_string, input.query, input.invalid_utf8);
  std::string query_locale;
  if (const auto* l = member(input.query, "_locale"); l && l->IsString()) query_locale = l->GetString();
  Locale locale =
      choose_locale(request.site_locale, query_locale, request.header("accept-language"), config.site.locale);

  Response response;
  bool authenticated = false;
  for (int attempt = 0;; ++attempt) {
    db.mark();
    try {
      response = run_pipeline(request, db, primary, config, input, locale, authenticated, cached);
    } catch (const ApiError& e) {
      if (db.in_transaction()) db.rollback();
      response = error_response(e);
    } catch (const DatabaseUnavailable& e) {
      if (retry_lost_connection(db, attempt)) continue;
      std::cerr << "request " << request_id << ": database unavailable: " << e.detail << "\n";
      db.reset();
      if (lost) *lost = true;
      ApiError err{503, "rest_db_unavailable",
                   translate(locale, "The database is unavailable; try again shortly.")};
      err.retry_after = 5;
      response = error_response(err);
    } catch (const DatabaseConflict& e) {
      // A deadlock or lock wait timeout rolled the work back.
      if (db.in_transaction()) db.rollback();
      if (retry_conflict(attempt)) continue;
      std::cerr << "request " << request_id << ": database conflict: " << e.detail << "\n";
      ApiError err{503, "rest_db_unavailable",
                   translate(locale, "The database is unavailable; try again shortly.")};
      err.retry_after = 1;
      response = error_response(err);
    } catch (const StatementTimeout& e) {
      // An expensive request's statement ran out of its budget (cal/api/pipeline/bulkhead.h):
      // never retried, the same work would run out again.
      if (db.in_transaction()) db.rollback();
      std::cerr << "request " << request_id << ": statement budget exceeded: " << e.detail << "\n";
      response = error_response(busy_error(locale, config));
    } catch (const std::exception& e) {
      std::cerr << "request " << request_id << ": internal error: " << e.what() << "\n";
      if (db.in_transaction()) db.rollback();
      response =
          error_response({500, "rest_internal_error", translate(locale, "An internal error occurred.")});
    } catch (const DuplicateKey& e) {
      std::cerr << "request " << request_id << ": unhandled duplicate key: " << e.detail << "\n";
      if (db.in_transaction()) db.rollback();
      response =
          error_response({500, "rest_internal_error", translate(locale, "An internal error occurred.")});
    }
    break;
  }
  const std::size_t statements = db.statement_count() - statements_at_start - cached.lookup_statements();
  if (cached.answered()) {
    // Stored complete; of this request's statements, only the credentials' check ran.
    if (config.server.statement_count_header)
      response.set_header("X-Cal-Statements", std::to_string(statements));
    return response;
  }
  // _envelope (WordPress): status and headers inside a 200 body, errors included. Such an answer
  // to a failed request is never cached: its 200 is not the resource's.
  const int status_before_envelope = response.status;
  if (member(input.query, "_envelope")) envelope(response);
  response.set_header("Content-Language", locale.bcp47());
  // The language may come from Accept-Language, so shared caches must key on it.
  response.set_header("Vary", vary_header(config));
  response.set_header("X-Content-Type-Options", "nosniff");
  if (config.server.statement_count_header)
    response.set_header("X-Cal-Statements", std::to_string(statements));
  // WordPress's discovery link (WPAPI.discover and other clients look for it on any answer); after
  // a pagination Link, if any.
  response.headers.emplace_back(
      "Link", "<" + base_urls(request, config).rest_root + "/>; rel=\"https://api.w.org/\"");
  const std::string method = upper(request.method);
  if (method == "HEAD") response.head_only = true;
  const std::string etag = apply_caching(method, authenticated, response);
  if (status_before_envelope == 200) cached.keep(response, etag);
  apply_conditional(request, etag, response);
  // With a cache lease, a cached answer may rest on a version read up to the lease before: a
  // write is acknowledged only once every cache has read a version after its commit.
  if (config.server.cache_lease_ms > 0 && db.wrote_since_mark())
    std::this_thread::sleep_for(std::chrono::milliseconds(config.server.cache_lease_ms));
  return response;
}

// The GTID of the caller's last write: the X-Cal-GTID header, else the cal_gtid cookie.
std::string presented_gtid(const Request& request) {
  std::string gtid = request.header("x-cal-gtid");
  if (gtid.empty()) {
    const std::string cookies = request.header("cookie");
    const std::string name = "cal_gtid=";
    for (std::size_t at = cookies.find(name); at != std::string::npos; at = cookies.find(name, at + 1))
      if (at == 0 || cookies[at - 1] == ' ' || cookies[at - 1] == ';') {
        const std::size_t start = at + name.size();
        gtid = cookies.substr(start, cookies.find(';', start) - start);
        break;
      }
  }
  // Digits, '-' and ',' only (a position like "0-1-42,1-2-7"): anything else presents nothing.
  if (gtid.size() > 200 || gtid.find_first_not_of("0123456789-,") != std::string::npos) return {};
  return gtid;
}

// How long a read waits for a replica to apply the caller's write before asking the primary.
constexpr double kGtidWaitSeconds = 0.5;

// A write's position for read-your-writes: the X-Cal-GTID header, and a cookie for browsers,
// which send it back with their next reads (a minute: far longer than any replica may lag).
void add_write_position(Db& primary, Response& response) {
  std::string gtid;
  try {
    gtid = last_gtid(primary);
  } catch (const DatabaseUnavailable&) {
    return;
  } catch (const std::exception&) {
    return;
  }
  if (gtid.empty()) return;
  response.set_header("X-Cal-GTID", gtid);
  response.headers.emplace_back("Set-Cookie", "cal_gtid=" + gtid + "; Path=/; Max-Age=60; SameSite=Lax");
}

}  // namespace

Response handle_request(const Request& request, Db& db, const Config& config, const std::string& request_id,
                        ResponseCache* cache) {
  const std::optional<Request> routed = with_rest_route(request);
  Response response = answer(routed ? *routed : request, db, db, config, request_id, cache);
  // After the cache: the same stored answer serves every origin, each with its own headers.
  add_cors_headers(config, request, response);
  return response;
}

Response handle_request(const Request& request, Backends& backends, const Config& config,
                        const std::string& request_id) {
  const std::optional<Request> routed_copy = with_rest_route(request);
  const Request& routed = routed_copy ? *routed_copy : request;
  const std::string method = upper(routed.method);
  Response response;
  bool answered = false;
  if (method == "GET" || method == "HEAD") {
    const std::string gtid = presented_gtid(routed);
    // A replica that fails mid-request is reported and the read runs again elsewhere: at most
    // one more replica, then the primary.
    for (int attempt = 0; attempt < 2 && !answered; ++attempt) {
      const std::optional<std::size_t> k = backends.set.pick();
      if (!k) break;
      Db& replica = *backends.replicas[*k];
      try {
        // Read-your-writes: the replica must have applied the caller's last write.
        if (!gtid.empty() && !wait_for_gtid(replica, gtid, kGtidWaitSeconds)) break;
      } catch (const DatabaseUnavailable&) {
        replica.reset();
        backends.set.report_failure(*k);
        continue;
      } catch (const std::exception&) {
        break;  // a position the server cannot read: the primary has everything
      }
      bool lost = false;
      response =
          answer(routed, replica, backends.primary, config, request_id, backends.replica_caches[*k], &lost);
      if (lost) {
        backends.set.report_failure(*k);
        continue;
      }
      if (config.server.statement_count_header) response.set_header("X-Cal-Replica", std::to_string(*k + 1));
      answered = true;
    }
  }
  if (!answered) {
    backends.primary.mark();
    response = answer(routed, backends.primary, backends.primary, config, request_id, backends.primary_cache);
    if (backends.primary.wrote_since_mark() && response.status < 400)
      add_write_position(backends.primary, response);
  }
  add_cors_headers(config, request, response);
  return response;
}

}  // namespace cal
