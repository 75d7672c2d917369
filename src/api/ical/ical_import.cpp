// POST /events with Content-Type text/calendar (docs/feeds.md): every VEVENT becomes the
// parameters of POST /events (a new UID) or POST /events/{id} (a UID imported before, or
// "<id>@<site host>" from this site's own feed), validated and written by the same code as
// JSON, all in one transaction: one refused VEVENT and nothing is imported.
#include "cal/api/ical/ical_import.h"
#include "cal/api/events/event_record.h"
#include "cal/api/events/event_recurrence.h"
#include "cal/api/events/event_writes.h"
#include "cal/api/ical/ical_event.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/handlers.h"
#include "cal/api/pipeline/json.h"
#include "cal/api/pipeline/routes.h"
#include "cal/api/posts/site_time.h"
#include "cal/store/event_ical_uids.h"
#include "cal/store/event_series.h"
#include "cal/store/events.h"

#include <algorithm>
#include <map>

namespace cal {
namespace {

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
  if (in.own_id && (!find_events(ctx.db, {*in.own_id}).empty() || find_series_rule(ctx.db, *in.own_id)))
    return in.own_id;
  return find_ical_uid_event(ctx.db, in.uid);
}

// Whether `body`'s venue is the LOCATION this site's feed writes for the event's current venue
// ("name, address, city, ..."): re-importing our own feed then keeps the venue instead of creating
// one named after the whole text.
bool names_current_venue(RequestContext& ctx, long long event_id, bool is_series,
                         const rapidjson::Value& body) {
  const auto member = body.FindMember("venue");
  if (member == body.MemberEnd() || !member->value.IsObject()) return false;
  const auto name = member->value.FindMember("venue");
  if (name == member->value.MemberEnd() || !name->value.IsString()) return false;
  const auto loaded = is_series ? load_series_with_relations(ctx.db, event_id, std::nullopt)
                                : load_event_with_relations(ctx.db, event_id);
  if (!loaded || loaded->first.venue_id == 0) return false;
  const auto venue = loaded->second.venues.find(loaded->first.venue_id);
  return venue != loaded->second.venues.end() && venue_location(venue->second) == name->value.GetString();
}

struct Written {
  const IcalEventInput* input;
  long long id;
  bool created;
};

// The parameters of a write of `in` (POST /events, or POST /events/{target}) with `recurrence`
// set to `lines` when given, checked as the JSON routes check them. They point into `body`, which
// must outlive them.
Params params_of(RequestContext& ctx, const IcalEventInput& in, std::optional<long long> target,
                 const std::optional<std::vector<std::string>>& lines, bool keep_venue,
                 rapidjson::Document& body) {
  body.CopyFrom(in.body, body.GetAllocator());
  if (keep_venue) body.RemoveMember("venue");
  if (lines) {
    auto& a = body.GetAllocator();
    rapidjson::Value list(rapidjson::kArrayType);
    for (const std::string& line : *lines)
      list.PushBack(rapidjson::Value(line.c_str(), static_cast<rapidjson::SizeType>(line.size()), a), a);
    body.AddMember("recurrence", list, a);
  }
  ParamSources sources;
  sources.body = &body;
  if (target) sources.path = {{"id", std::to_string(*target)}};
  return validate_params(post_params(target ? "/events/{id}" : "/events"), sources, ctx.locale,
                         CheckContext{&ctx.db, &ctx.caller});
}

RequestContext inner_context(RequestContext& ctx, const Params& params) {
  return RequestContext{ctx.request, params,       ctx.caller,    ctx.db,       ctx.config,
                        ctx.locale,  ctx.site_url, ctx.rest_root, ctx.fragments};
}

// Writes one VEVENT without RECURRENCE-ID through the JSON routes' validation and writes: a
// one-off event, or a series with `lines` (its recurrence and the EXDATEs of its cancelled
// overrides). A known UID updates its event or series as a scope=all write does.
Written write_one(RequestContext& ctx, const IcalEventInput& in, const std::vector<std::string>& lines) {
  const std::optional<long long> target = target_of(ctx, in);
  const std::optional<SeriesRule> rule = target ? find_series_rule(ctx.db, *target) : std::nullopt;
  const std::optional<StoredOccurrence> occurrence =
      target && !rule ? find_occurrence(ctx.db, *target) : std::nullopt;
  // A series sent without a rule becomes a one-off event, as its VEVENT is.
  std::optional<std::vector<std::string>> recurrence;
  if (!lines.empty() || rule) recurrence = lines;
  const bool keep_venue = target && names_current_venue(ctx, *target, rule.has_value(), in.body);
  rapidjson::Document body;
  const Params params = params_of(ctx, in, target, recurrence, keep_venue, body);
  RequestContext inner = inner_context(ctx, params);
  long long id = 0;
  if (rule) {
    id = write_series_update(inner, *target, *rule);
  } else if (occurrence) {
    id = write_occurrence_update(inner, *occurrence);  // this site's feed of single occurrences
  } else {
    id = target ? write_event_update(inner) : write_new_event(inner);
    if (!lines.empty()) save_series(inner, id, lines);
  }
  // Own UIDs are found by their form; others are remembered for the next import.
  if (!in.uid.empty() && !(in.own_id && *in.own_id == id)) save_ical_uid(ctx.db, in.uid, id);
  return {&in, id, !target};
}

// Whether stored (or expanded) occurrence `o` is the one `original` names in a series in `zone`.
bool names_occurrence(const IcalOriginalStart& original, const StoredOccurrence& o, const TimeZone& zone) {
  if (original.is_date) return o.original_local.compare(0, 10, original.wall, 0, 10) == 0;
  if (original.is_utc) return o.original_utc == original.wall;
  const TimeZone named_zone = original.zone.empty() ? zone : TimeZone::find(original.zone).value_or(zone);
  const LocalDateTime wall = parse_sql_date_time(original.wall).value_or(LocalDateTime{});
  const std::string utc = format_date_time(to_utc_date_time(named_zone.to_instant(wall)));
  // The same zone: the wall clock named too (a DST gap's occurrence keeps the name it was given).
  return o.original_utc == utc && (!(named_zone == zone) || o.original_local == original.wall);
}

// The refusal of an override whose RECURRENCE-ID names no occurrence of its series.
ApiError no_such_occurrence(const RequestContext& ctx, const IcalEventInput& in) {
  return invalid_param(ctx, "RECURRENCE-ID",
                       format_message(ctx.locale, "RECURRENCE-ID %s names no occurrence of the series %s.",
                                      {in.recurrence_id->wall, in.uid}));
}

// A series the overrides of a calendar name, read once for all of them (their writes change no
// occurrence's identity).
struct OverriddenSeries {
  std::optional<SeriesRule> rule;
  std::optional<Event> series;
  std::optional<std::vector<StoredOccurrence>> stored, cancellable;
};

// Writes override `in` of series `series_id`: STATUS:CANCELLED (its EXDATE already in the series'
// rule) is checked to name an occurrence the rule produces; any other becomes that occurrence's
// exception, its own fields written as a scope=this update.
Written write_override(RequestContext& ctx, const IcalEventInput& in, long long series_id,
                       OverriddenSeries& known) {
  if (!known.rule) known.rule = find_series_rule(ctx.db, series_id);
  if (known.rule && !known.series) known.series = find_series_event(ctx.db, series_id);
  if (!known.series) throw no_such_occurrence(ctx, in);
  const TimeZone zone = TimeZone::find(known.series->details.timezone).value_or(TimeZone::utc());
  std::optional<std::vector<StoredOccurrence>>& candidates = in.cancelled ? known.cancellable : known.stored;
  if (!candidates)
    candidates = in.cancelled ? cancellable_occurrences(ctx, *known.series, known.rule->recurrence)
                              : find_series_occurrences(ctx.db, series_id);
  const auto found = std::find_if(candidates->begin(), candidates->end(), [&](const StoredOccurrence& o) {
    return names_occurrence(*in.recurrence_id, o, zone);
  });
  if (found == candidates->end()) throw no_such_occurrence(ctx, in);
  if (in.cancelled) return {&in, series_id, false};
  const StoredOccurrence occurrence = *found;
  rapidjson::Document body;
  const Params params = params_of(ctx, in, occurrence.event_id, std::nullopt, false, body);
  RequestContext inner = inner_context(ctx, params);
  return {&in, write_occurrence_update(inner, occurrence), false};
}

// Cancels an occurrence of series `series_id` (stored rule `rule`) with `exdate`, as DELETE of the
// occurrence does: the series written again with the EXDATE added, nothing else changed.
void cancel_in_series(RequestContext& ctx, long long series_id, const SeriesRule& rule,
                      const std::string& exdate) {
  rapidjson::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  rapidjson::Value lines(rapidjson::kArrayType);
  for (const std::string& line : rule.recurrence)
    lines.PushBack(rapidjson::Value(line.c_str(), static_cast<rapidjson::SizeType>(line.size()), a), a);
  lines.PushBack(rapidjson::Value(exdate.c_str(), static_cast<rapidjson::SizeType>(exdate.size()), a), a);
  body.AddMember("recurrence", lines, a);
  ParamSources sources;
  sources.body = &body;
  sources.path = {{"id", std::to_string(series_id)}};
  const Params params =
      validate_params(post_params("/events/{id}"), sources, ctx.locale, CheckContext{&ctx.db, &ctx.caller});
  RequestContext inner = inner_context(ctx, params);
  write_series_update(inner, series_id, rule);
}

// Imports every VEVENT: first those without RECURRENCE-ID in file order (each series with the
// EXDATEs of its cancelled overrides), then the overrides, wherever they stood, on the series
// their UID names in this calendar, or else in an earlier import. Returns what was written, in
// file order.
std::vector<Written> write_all(RequestContext& ctx, const std::vector<IcalEventInput>& events) {
  std::map<std::string, std::vector<std::string>> cancelled;  // by UID: EXDATE lines
  for (const IcalEventInput& in : events)
    if (in.recurrence_id && in.cancelled) cancelled[in.uid].push_back(in.recurrence_id->exdate);
  std::vector<Written> written;
  std::map<std::string, long long> series_of;  // by UID: the event its last VEVENT wrote
  for (const IcalEventInput& in : events) {
    if (in.recurrence_id) continue;
    try {
      std::vector<std::string> lines = in.recurrence;
      if (const auto it = cancelled.find(in.uid); it != cancelled.end() && !lines.empty())
        lines.insert(lines.end(), it->second.begin(), it->second.end());
      written.push_back(write_one(ctx, in, lines));
      if (!in.uid.empty()) series_of[in.uid] = written.back().id;
    } catch (const ApiError& e) {
      throw about_vevent(ctx, in, e);
    }
  }
  std::map<long long, OverriddenSeries> overridden;
  for (const IcalEventInput& in : events) {
    if (!in.recurrence_id) continue;
    try {
      if (const auto series = series_of.find(in.uid); series != series_of.end()) {
        written.push_back(write_override(ctx, in, series->second, overridden[series->second]));
        continue;
      }
      // Without its series in the file: the series the UID named in an earlier import.
      const std::optional<long long> target = target_of(ctx, in);
      if (!target || !find_series_rule(ctx.db, *target))
        throw invalid_param(
            ctx, "RECURRENCE-ID",
            format_message(ctx.locale, "No series has the UID %s: send the override with its series.",
                           {in.uid}));
      OverriddenSeries& known = overridden[*target];
      written.push_back(write_override(ctx, in, *target, known));
      if (in.cancelled) {
        cancel_in_series(ctx, *target, *known.rule, in.recurrence_id->exdate);
        known = OverriddenSeries{};  // its rule and occurrences changed
      }
    } catch (const ApiError& e) {
      throw about_vevent(ctx, in, e);
    }
  }
  std::sort(written.begin(), written.end(),
            [](const Written& a, const Written& b) { return a.input->index < b.input->index; });
  return written;
}

// A cancelled override: it removed an occurrence from its series and wrote no event.
bool is_cancellation(const Written& x) { return x.input->recurrence_id && x.input->cancelled; }

void write_ids(JsonWriter& w, std::string_view key, const std::vector<Written>& written, bool created) {
  write_key(w, key);
  w.StartArray();
  for (const Written& x : written)
    if (x.created == created && !is_cancellation(x)) w.Int64(x.id);
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
  Transaction tx(ctx.db);
  const std::vector<Written> written = write_all(ctx, parsed.events);
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
    if (is_cancellation(x)) {
      write_key(w, "cancelled");
      w.Bool(true);
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  const bool any_created =
      std::any_of(written.begin(), written.end(), [](const Written& x) { return x.created; });
  return json_response(any_created ? 201 : 200, buffer);
}

}  // namespace cal
