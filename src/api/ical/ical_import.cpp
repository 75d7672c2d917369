// POST /events with Content-Type text/calendar (docs/feeds.md): every VEVENT becomes the
// parameters of POST /events (a new UID) or POST /events/{id} (a UID imported before, or
// "<id>@<site host>" from this site's own feed), validated and written by the same code as
// JSON, all in one transaction: one refused VEVENT and nothing is imported.
#include "cal/api/ical/ical_import.h"
#include "cal/api/events/event_record.h"
#include "cal/api/events/event_writes.h"
#include "cal/api/ical/ical_event.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/handlers.h"
#include "cal/api/pipeline/json.h"
#include "cal/api/pipeline/routes.h"
#include "cal/api/posts/site_time.h"
#include "cal/store/event_ical_uids.h"
#include "cal/store/events.h"

#include <algorithm>

namespace cal {
namespace {

// The declared parameters of POST on `pattern` ("/events", "/events/{id}").
const std::vector<ParamSpec>& write_specs(std::string_view pattern) {
  for (const Route& route : route_table())
    if (route.pattern == pattern)
      if (const Endpoint* e = route.endpoint_for("POST")) return e->params;
  throw std::logic_error("no POST route " + std::string(pattern));
}

// "example.org:8080" of "https://example.org:8080/sub".
std::string site_host(const RequestContext& ctx) {
  std::string host = ctx.site_url;
  if (const auto scheme = host.find("://"); scheme != std::string::npos) host = host.substr(scheme + 3);
  return host.substr(0, host.find('/'));
}

// The error of a refused VEVENT names it: its position, its UID and, from the inner error, the field.
ApiError about_vevent(const RequestContext& ctx, const IcalEventInput& in, ApiError e) {
  e.message = in.uid.empty() ? format_message(ctx.locale, "VEVENT %s cannot be imported: %s",
                                              {std::to_string(in.index), e.message})
                             : format_message(ctx.locale, "VEVENT %s (UID %s) cannot be imported: %s",
                                              {std::to_string(in.index), in.uid, e.message});
  e.vevent = in.index;
  if (!in.uid.empty()) e.uid = in.uid;
  if (in.line > 0) e.line = in.line;
  return e;
}

// The existing event this VEVENT updates, if any.
std::optional<long long> target_of(RequestContext& ctx, const IcalEventInput& in) {
  if (in.uid.empty()) return std::nullopt;
  if (in.own_id && !find_events(ctx.db, {*in.own_id}).empty()) return in.own_id;
  return find_ical_uid_event(ctx.db, in.uid);
}

// Whether `body`'s venue is the LOCATION this site's feed writes for the event's current venue
// ("name, address, city, ..."): re-importing our own feed then keeps the venue instead of creating
// one named after the whole text.
bool names_current_venue(RequestContext& ctx, long long event_id, const rapidjson::Value& body) {
  const auto member = body.FindMember("venue");
  if (member == body.MemberEnd() || !member->value.IsObject()) return false;
  const auto name = member->value.FindMember("venue");
  if (name == member->value.MemberEnd() || !name->value.IsString()) return false;
  const auto loaded = load_event_with_relations(ctx.db, event_id);
  if (!loaded || loaded->first.venue_id == 0) return false;
  const auto venue = loaded->second.venues.find(loaded->first.venue_id);
  return venue != loaded->second.venues.end() && venue_location(venue->second) == name->value.GetString();
}

struct Written {
  const IcalEventInput* input;
  long long id;
  bool created;
};

// Writes one VEVENT through the JSON routes' validation and writes.
Written write_one(RequestContext& ctx, const IcalEventInput& in) {
  const std::optional<long long> target = target_of(ctx, in);
  rapidjson::Document body;
  body.CopyFrom(in.body, body.GetAllocator());
  if (target && names_current_venue(ctx, *target, body)) body.RemoveMember("venue");
  ParamSources sources;
  sources.body = &body;
  if (target) sources.path = {{"id", std::to_string(*target)}};
  const Params params = validate_params(write_specs(target ? "/events/{id}" : "/events"), sources, ctx.locale,
                                        CheckContext{&ctx.db, &ctx.caller});
  RequestContext inner{ctx.request, params,       ctx.caller,    ctx.db,       ctx.config,
                       ctx.locale,  ctx.site_url, ctx.rest_root, ctx.fragments};
  const long long id = target ? write_event_update(inner) : write_new_event(inner);
  // Own UIDs are found by their form; others are remembered for the next import.
  if (!in.uid.empty() && !(in.own_id && *in.own_id == id)) save_ical_uid(ctx.db, in.uid, id);
  return {&in, id, !target};
}

void write_ids(JsonWriter& w, std::string_view key, const std::vector<Written>& written, bool created) {
  write_key(w, key);
  w.StartArray();
  for (const Written& x : written)
    if (x.created == created) w.Int64(x.id);
  w.EndArray();
}

}  // namespace

Response import_events_ical(RequestContext& ctx) {
  const IcalImportOptions options{site_zone(ctx).name(), site_host(ctx),
                                  static_cast<std::size_t>(ctx.config.site.import_max_events)};
  const IcalImport parsed = parse_ical_import(ctx.request.body, options);
  if (parsed.failure != IcalFailure::kNone) {
    ApiError e{
        parsed.failure == IcalFailure::kTooManyEvents ? 413 : 400,
        parsed.failure == IcalFailure::kTooManyEvents ? "rest_ical_too_many_events" : "rest_invalid_ical",
        format_message(ctx.locale, parsed.problem.msgid, parsed.problem.args)};
    if (parsed.problem.line > 0) e.line = parsed.problem.line;
    throw e;
  }
  // What cannot be mapped is refused before anything is written.
  for (const IcalEventInput& in : parsed.events)
    if (in.problem)
      throw about_vevent(ctx, in,
                         invalid_param(ctx.locale, in.problem->field,
                                       format_message(ctx.locale, in.problem->msgid, in.problem->args)));
  std::vector<Written> written;
  Transaction tx(ctx.db);
  for (const IcalEventInput& in : parsed.events) {
    try {
      written.push_back(write_one(ctx, in));
    } catch (const ApiError& e) {
      throw about_vevent(ctx, in, e);
    }
  }
  tx.commit();
  JsonBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  write_ids(w, "created", written, true);
  write_ids(w, "updated", written, false);
  write_key(w, "events");
  w.StartArray();
  for (const Written& x : written) {
    w.StartObject();
    write_key(w, "vevent");
    w.Int(x.input->index);
    write_member(w, "uid", x.input->uid);
    write_key(w, "id");
    w.Int64(x.id);
    write_key(w, "created");
    w.Bool(x.created);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  const bool any_created =
      std::any_of(written.begin(), written.end(), [](const Written& x) { return x.created; });
  return json_response(any_created ? 201 : 200, buffer);
}

}  // namespace cal
