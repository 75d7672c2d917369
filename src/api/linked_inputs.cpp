// An event's `venue` and `organizer` inputs (SPEC §5; see cal/api/linked_records.h): ids,
// {"id": N} objects, or record data that creates a record or reuses its twin through the same
// code as POST /venues and POST /organizers.
#include "cal/api/error.h"
#include "cal/api/linked_records.h"
#include "cal/api/linked_resource.h"
#include "cal/api/routes.h"

#include <algorithm>
#include <cctype>

namespace cal {
namespace {

ApiError invalid_param(const RequestContext& ctx, std::string_view name, const std::string& message) {
  ApiError e{400, "rest_invalid_param", format_message(ctx.locale, "Invalid parameter(s): %s", {std::string(name)})};
  e.param_messages[std::string(name)] = message;
  return e;
}

// The declared parameters of POST on `collection` ("/venues"), found once in the route table.
const std::vector<ParamSpec>& create_specs(std::string_view collection) {
  for (const Route& route : route_table())
    if (route.pattern == collection)
      if (const Endpoint* e = route.endpoint_for("POST")) return e->params;
  static const std::vector<ParamSpec> kNone;
  return kNone;
}

std::optional<long long> numeric_text(std::string_view s) {
  if (s.empty() || s.size() > 18 || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
    return std::nullopt;
  return std::stoll(std::string(s));
}

// The id an input item names: a JSON integer, a decimal string, or {"id": N}; nullopt for data.
std::optional<long long> item_id(const rapidjson::Value& v) {
  if (v.IsInt64()) return v.GetInt64();
  if (v.IsString()) return numeric_text({v.GetString(), v.GetStringLength()});
  if (v.IsObject()) {
    const auto it = v.FindMember("id");
    if (it == v.MemberEnd()) return std::nullopt;
    if (it->value.IsInt64()) return it->value.GetInt64();
    if (it->value.IsString()) return numeric_text({it->value.GetString(), it->value.GetStringLength()});
    return -1;  // an id of another kind: refused by the caller
  }
  return -1;
}

bool is_empty_input(const rapidjson::Value& v) {
  return v.IsNull() || (v.IsBool() && !v.GetBool()) || (v.IsInt64() && v.GetInt64() == 0) ||
         (v.IsString() && (v.GetStringLength() == 0 || std::string_view(v.GetString(), v.GetStringLength()) == "0")) ||
         (v.IsArray() && v.Empty());
}

// Creates or reuses a record from inline data, validated like a POST to its collection; errors
// are reported under the event's parameter `param`.
long long create_from_data(RequestContext& ctx, const LinkedType& type, const rapidjson::Value& data, std::string_view param) {
  ParamSources sources;
  sources.body = &data;
  Params params;
  try {
    params = validate_params(create_specs("/" + std::string(type.kind.collection)), sources, ctx.locale);
  } catch (const ApiError& e) {
    std::string detail;
    for (const auto& [name, message] : e.param_messages) detail += (detail.empty() ? "" : " ") + message;
    for (const auto& name : e.param_names)
      detail += (detail.empty() ? "" : " ") + format_message(ctx.locale, "%s is required.", {name});
    throw invalid_param(ctx, param, detail);
  }
  RequestContext inner{ctx.request, params, ctx.caller, ctx.db, ctx.config, ctx.locale, ctx.site_url, ctx.rest_root};
  try {
    return create_or_reuse(inner, type).id;
  } catch (const ApiError& e) {
    if (e.status != 400 || e.param_messages.empty()) throw;
    std::string detail;
    for (const auto& [name, message] : e.param_messages) detail += (detail.empty() ? "" : " ") + message;
    throw invalid_param(ctx, param, detail);
  }
}

// Checks that every id names a live record of the type the caller may read (400 / 403).
void check_usable(RequestContext& ctx, const PostKind& kind, const std::vector<long long>& ids, std::string_view param) {
  if (ids.empty()) return;
  const std::vector<PostRow> rows = find_posts(ctx.db, kind.type, ids);
  for (long long id : ids) {
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const PostRow& r) { return r.id == id; });
    if (row == rows.end() || row->status == "trash")
      throw invalid_param(ctx, param, format_message(ctx.locale, "%s names no %s with id %s.",
                                                     {std::string(param), std::string(kind.kind), std::to_string(id)}));
    if (!can_read_post(ctx.caller, row->author, row->status))
      throw ApiError{403, "rest_forbidden", translate(ctx.locale, "Sorry, you are not allowed to do that.")};
  }
}

}  // namespace

long long resolve_venue_input(RequestContext& ctx, const rapidjson::Value& raw) {
  const rapidjson::Value* v = &raw;
  if (v->IsArray()) {
    if (v->Empty()) return 0;
    if (v->Size() > 1) throw invalid_param(ctx, "venue", translate(ctx.locale, "An event has at most one venue."));
    v = &(*v)[0];
  }
  if (is_empty_input(*v)) return 0;
  const std::optional<long long> id = item_id(*v);
  if (!id) return create_from_data(ctx, kVenueType, *v, "venue");
  if (*id <= 0)
    throw invalid_param(ctx, "venue", translate(ctx.locale, "venue must be a venue id or venue data."));
  check_usable(ctx, kVenueKind, {*id}, "venue");
  return *id;
}

std::vector<long long> resolve_organizer_input(RequestContext& ctx, const rapidjson::Value& raw) {
  if (is_empty_input(raw)) return {};
  std::vector<long long> ids;
  std::vector<long long> named;  // ids to check, created ones excepted
  auto add = [&](long long id) {
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  };
  auto take = [&](const rapidjson::Value& item) {
    const std::optional<long long> id = item_id(item);
    if (!id) {
      add(create_from_data(ctx, kOrganizerType, item, "organizer"));
    } else if (*id <= 0) {
      throw invalid_param(ctx, "organizer", translate(ctx.locale, "organizer must list organizer ids or organizer data."));
    } else {
      named.push_back(*id);
      add(*id);
    }
  };
  if (raw.IsArray()) {
    for (const auto& item : raw.GetArray()) take(item);
  } else if (raw.IsString()) {
    // A comma list "1, 2" (forms and query strings).
    const std::string_view text(raw.GetString(), raw.GetStringLength());
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t comma = std::min(text.find(',', start), text.size());
      std::string_view piece = text.substr(start, comma - start);
      while (!piece.empty() && std::isspace(static_cast<unsigned char>(piece.front()))) piece.remove_prefix(1);
      while (!piece.empty() && std::isspace(static_cast<unsigned char>(piece.back()))) piece.remove_suffix(1);
      const std::optional<long long> id = numeric_text(piece);
      if (!id || *id <= 0)
        throw invalid_param(ctx, "organizer", translate(ctx.locale, "organizer must list organizer ids or organizer data."));
      named.push_back(*id);
      add(*id);
      start = comma + 1;
    }
  } else {
    take(raw);
  }
  check_usable(ctx, kOrganizerKind, named, "organizer");
  return ids;
}

}  // namespace cal
