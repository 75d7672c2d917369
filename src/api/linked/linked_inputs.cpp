// An event's `venue` and `organizer` inputs (docs/api.md §5; see cal/api/linked/linked_records.h): ids,
// {"id": N} objects, or record data that creates a record or reuses its twin through the same
// code as POST /venues and POST /organizers.
#include "cal/api/linked/linked_records.h"
#include "cal/api/linked/linked_resource.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/routes.h"
#include "cal/core/text/ascii.h"
#include "cal/core/text/numbers.h"

#include <algorithm>

namespace cal {
namespace {

// The declared parameters of POST on `collection` ("/venues"), found once in the route table.
const std::vector<ParamSpec>& create_specs(std::string_view collection) {
  for (const Route& route : route_table())
    if (route.pattern == collection)
      if (const Endpoint* e = route.endpoint_for("POST")) return e->params;
  static const std::vector<ParamSpec> kNone;
  return kNone;
}

// The id an input item names: a JSON integer, a decimal string, or {"id": N}; nullopt for data.
std::optional<long long> item_id(const rapidjson::Value& v) {
  if (v.IsInt64()) return v.GetInt64();
  if (v.IsString()) return parse_id({v.GetString(), v.GetStringLength()});
  if (v.IsObject()) {
    const auto it = v.FindMember("id");
    if (it == v.MemberEnd()) return std::nullopt;
    if (it->value.IsInt64()) return it->value.GetInt64();
    if (it->value.IsString()) return parse_id({it->value.GetString(), it->value.GetStringLength()});
    return -1;  // an id of another kind: refused by the caller
  }
  return -1;
}

bool is_empty_input(const rapidjson::Value& v) {
  return v.IsNull() || (v.IsBool() && !v.GetBool()) || (v.IsInt64() && v.GetInt64() == 0) ||
         (v.IsString() &&
          (v.GetStringLength() == 0 || std::string_view(v.GetString(), v.GetStringLength()) == "0")) ||
         (v.IsArray() && v.Empty());
}

// Creates or reuses a record from inline data (validated like a POST to its collection by
// data_problem() in the validation stage). What only the writer checks (HTML size for authors)
// is reported under the event's parameter `param`.
long long create_from_data(RequestContext& ctx, const LinkedResource& type, const rapidjson::Value& data,
                           std::string_view param) {
  ParamSources sources;
  sources.body = &data;
  const Params params =
      validate_params(create_specs("/" + std::string(type.kind.collection)), sources, ctx.locale);
  RequestContext inner{ctx.request, params,       ctx.caller,    ctx.db,       ctx.config,
                       ctx.locale,  ctx.site_url, ctx.rest_root, ctx.fragments};
  try {
    return create_or_reuse(inner, type).id;
  } catch (const ApiError& e) {
    if (e.status != 400 || e.param_messages.empty()) throw;
    std::string detail;
    for (const auto& [name, message] : e.param_messages) detail += (detail.empty() ? "" : " ") + message;
    throw invalid_param(ctx, std::string(param), detail);
  }
}

// The problem with inline record data for `param`, as a POST to `collection` would see it: every
// message in one text; "" when valid.
std::string data_problem(std::string_view collection, const rapidjson::Value& data, const Locale& locale,
                         const CheckContext& context) {
  ParamSources sources;
  sources.body = &data;
  try {
    validate_params(create_specs(collection), sources, locale, context);
  } catch (const ApiError& e) {
    std::string detail;
    for (const auto& [name, message] : e.param_messages) detail += (detail.empty() ? "" : " ") + message;
    for (const auto& name : e.param_names)
      detail += (detail.empty() ? "" : " ") + format_message(locale, "%s is required.", {name});
    return detail;
  }
  return "";
}

// The problem with ids that must name live records of `kind` ("" when they all do).
std::string missing_posts_problem(const PostKind& kind, const std::vector<long long>& ids,
                                  std::string_view param, const Locale& locale, const CheckContext& context) {
  if (ids.empty() || !context.db) return "";
  const std::vector<PostRow> rows = find_posts(*context.db, kind.type, ids);
  for (long long id : ids) {
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const PostRow& r) { return r.id == id; });
    if (row == rows.end() || row->status == "trash")
      return format_message(locale, "%s names no %s with id %s.",
                            {std::string(param), std::string(kind.kind), std::to_string(id)});
  }
  return "";
}

// The items of an organizer input: each a JSON value, or a piece of a comma list as an id
// (0 for a piece that is no id). False for a shape that is neither.
struct OrganizerItems {
  std::vector<const rapidjson::Value*> values;
  std::vector<long long> listed_ids;
};

OrganizerItems organizer_items(const rapidjson::Value& raw) {
  OrganizerItems items;
  if (raw.IsArray()) {
    for (const auto& item : raw.GetArray()) items.values.push_back(&item);
  } else if (raw.IsString()) {
    // A comma list "1, 2" (forms and query strings).
    const std::string_view text(raw.GetString(), raw.GetStringLength());
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t comma = std::min(text.find(',', start), text.size());
      const std::string_view piece = ascii::trim(text.substr(start, comma - start));
      items.listed_ids.push_back(parse_id(piece).value_or(0));
      start = comma + 1;
    }
  } else {
    items.values.push_back(&raw);
  }
  return items;
}

// Checks that the caller may read every named record (403); that they exist was checked by the
// validator (check_event_venue, check_event_organizers). Editors and administrators may read
// every record: no lookup (it was a statement of every such POST /events with a venue).
void check_usable(RequestContext& ctx, const PostKind& kind, const std::vector<long long>& ids) {
  if (ids.empty() || can_read_others_unpublished(ctx.caller)) return;
  for (const PostRow& row : find_posts(ctx.db, kind.type, ids))
    if (!can_read_post(ctx.caller, row.author, row.status)) throw forbidden(ctx);
}

}  // namespace

std::string venue_input_problem(const rapidjson::Value& raw, const Locale& locale,
                                const CheckContext& context) {
  const rapidjson::Value* v = &raw;
  if (v->IsArray()) {
    if (v->Empty()) return "";
    if (v->Size() > 1) return translate(locale, "An event has at most one venue.");
    v = &(*v)[0];
  }
  if (is_empty_input(*v)) return "";
  const std::optional<long long> id = item_id(*v);
  if (!id) return data_problem("/venues", *v, locale, context);
  if (*id <= 0) return translate(locale, "venue must be a venue id or venue data.");
  return missing_posts_problem(kVenueKind, {*id}, "venue", locale, context);
}

std::string organizer_input_problem(const rapidjson::Value& raw, const Locale& locale,
                                    const CheckContext& context) {
  if (is_empty_input(raw)) return "";
  const std::string shape = translate(locale, "organizer must list organizer ids or organizer data.");
  const OrganizerItems items = organizer_items(raw);
  std::vector<long long> ids;
  for (long long id : items.listed_ids) {
    if (id <= 0) return shape;
    ids.push_back(id);
  }
  for (const rapidjson::Value* item : items.values) {
    const std::optional<long long> id = item_id(*item);
    if (!id) {
      if (std::string problem = data_problem("/organizers", *item, locale, context); !problem.empty())
        return problem;
    } else if (*id <= 0) {
      return shape;
    } else {
      ids.push_back(*id);
    }
  }
  return missing_posts_problem(kOrganizerKind, ids, "organizer", locale, context);
}

long long resolve_venue_input(RequestContext& ctx, const rapidjson::Value& raw) {
  const rapidjson::Value* v = &raw;
  if (v->IsArray()) {
    if (v->Empty()) return 0;
    v = &(*v)[0];
  }
  if (is_empty_input(*v)) return 0;
  const std::optional<long long> id = item_id(*v);
  if (!id) return create_from_data(ctx, kVenueResource, *v, "venue");
  check_usable(ctx, kVenueKind, {*id});
  return *id;
}

std::vector<long long> resolve_organizer_input(RequestContext& ctx, const rapidjson::Value& raw) {
  if (is_empty_input(raw)) return {};
  std::vector<long long> ids;
  std::vector<long long> named;  // ids to check, created ones excepted
  auto add = [&](long long id) {
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  };
  const OrganizerItems items = organizer_items(raw);
  for (long long id : items.listed_ids) {
    named.push_back(id);
    add(id);
  }
  for (const rapidjson::Value* item : items.values) {
    if (const std::optional<long long> id = item_id(*item)) {
      named.push_back(*id);
      add(*id);
    } else {
      add(create_from_data(ctx, kOrganizerResource, *item, "organizer"));
    }
  }
  check_usable(ctx, kOrganizerKind, named);
  return ids;
}

}  // namespace cal
