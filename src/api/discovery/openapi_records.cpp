// Record schemas of the OpenAPI document (docs/api.md §8.2): the shapes of docs/api.md §3 (every key, in
// order, required, nothing else; json_ld only on a single GET), list envelopes (§4) and forced
// deletes (§5), and which collection serves which.
#include "cal/api/discovery/openapi.h"
#include "cal/api/discovery/openapi_schema.h"

#include <array>
#include <utility>

namespace cal {
namespace {

using Kind = SchemaKind;
using Field = SchemaField;
using Fields = SchemaFields;

const std::vector<std::string_view> kStatuses = {"publish", "future", "draft", "pending", "private", "trash"};

Fields concat(Fields a, const Fields& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The keys every event, venue and organizer starts with (docs/api.md §3.1, §3.2); `name` is the name key.
Fields post_head(std::string_view name) {
  return {
      {"id", Kind::kInteger},
      {"global_id", Kind::kString},
      {"global_id_lineage", Kind::kStringList},
      {"author", Kind::kInteger},
      {"status", Kind::kEnum, {}, kStatuses},
      {"date", Kind::kDateTime},
      {"date_utc", Kind::kDateTime},
      {"modified", Kind::kDateTime},
      {"modified_utc", Kind::kDateTime},
      {"url", Kind::kString},
      {"rest_url", Kind::kString},
      {name, Kind::kString},
      {"description", Kind::kString},
      {"excerpt", Kind::kString},
      {"slug", Kind::kString},
      {"image", Kind::kImageOrFalse},
  };
}

Fields event_fields() {
  Fields f = post_head("title");
  f.push_back({"all_day", Kind::kMaskedBoolean});
  // Key names of the date pairs, each followed by its *_details object.
  static const std::array<std::pair<std::string_view, std::string_view>, 4> kDates = {{
      {"start_date", "start_date_details"},
      {"end_date", "end_date_details"},
      {"utc_start_date", "utc_start_date_details"},
      {"utc_end_date", "utc_end_date_details"},
  }};
  for (const auto& [date, details] : kDates) {
    f.push_back({date, Kind::kDateTime});
    f.push_back({details, Kind::kRef, "DateDetails"});
  }
  return concat(f, {
                       {"timezone", Kind::kString},
                       {"timezone_abbr", Kind::kString},
                       {"cost", Kind::kString},
                       {"cost_details", Kind::kRef, "CostDetails"},
                       {"website", Kind::kString},
                       {"show_map", Kind::kMaskedBoolean},
                       {"show_map_link", Kind::kMaskedBoolean},
                       {"hide_from_listings", Kind::kMaskedBoolean},
                       {"sticky", Kind::kMaskedBoolean},
                       {"featured", Kind::kMaskedBoolean},
                       {"categories", Kind::kRefList, "Term"},
                       {"tags", Kind::kRefList, "Term"},
                       {"venue", Kind::kVenueOrEmpty},
                       {"organizer", Kind::kRefList, "Organizer"},
                       // Recurring events (docs/recurring-events.md); the last four on series only.
                       {"series_id", Kind::kIntegerOrNull},
                       {"is_recurring", Kind::kBoolean},
                       {"is_exception", Kind::kBoolean},
                       {"original_start_date", Kind::kDateTimeOrNull},
                       {"original_start_date_utc", Kind::kDateTimeOrNull},
                       {"recurrence", Kind::kStringList, {}, {}, false},
                       {"occurrences_created", Kind::kInteger, {}, {}, false},
                       {"occurrences_removed", Kind::kInteger, {}, {}, false},
                       {"exceptions_dropped", Kind::kInteger, {}, {}, false},
                       {"next_occurrences", Kind::kObjectList, {}, {}, false},
                       {"json_ld", Kind::kObject, {}, {}, false},
                   });
}

Fields venue_fields() {
  return concat(post_head("venue"), {
                                        {"address", Kind::kString},
                                        {"city", Kind::kString},
                                        {"country", Kind::kString},
                                        {"province", Kind::kString},
                                        {"state", Kind::kString},
                                        {"zip", Kind::kString},
                                        {"phone", Kind::kString},
                                        {"website", Kind::kString},
                                        {"stateprovince", Kind::kString},
                                        {"show_map", Kind::kBoolean},
                                        {"show_map_link", Kind::kBoolean},
                                        {"geo_lat", Kind::kNumberOrNull},
                                        {"geo_lng", Kind::kNumberOrNull},
                                        {"json_ld", Kind::kObject, {}, {}, false},
                                    });
}

Fields organizer_fields() {
  return concat(post_head("organizer"), {
                                            {"phone", Kind::kString},
                                            {"website", Kind::kString},
                                            {"email", Kind::kString},
                                            {"json_ld", Kind::kObject, {}, {}, false},
                                        });
}

Fields term_fields() {
  return {
      {"id", Kind::kInteger},           {"name", Kind::kString},
      {"slug", Kind::kString},          {"taxonomy", Kind::kEnum, {}, {"cal_events_cat", "post_tag"}},
      {"description", Kind::kString},   {"parent", Kind::kInteger},
      {"count", Kind::kInteger},        {"url", Kind::kString},
      {"urls", Kind::kRef, "TermUrls"},
  };
}

void write_details_schema(JsonWriter& w) {
  w.StartObject();
  write_schema_type(w, "object");
  write_key(w, "properties");
  w.StartObject();
  for (std::string_view key : {"year", "month", "day", "hour", "minutes", "seconds"}) {
    write_key(w, key);
    w.StartObject();
    write_schema_type(w, "string");
    write_member(w, "pattern", key == "year" ? "^\\d{4}$" : "^\\d{2}$");
    w.EndObject();
  }
  w.EndObject();
  write_key(w, "required");
  w.StartArray();
  for (std::string_view key : {"year", "month", "day", "hour", "minutes", "seconds"}) write_string(w, key);
  w.EndArray();
  write_key(w, "additionalProperties");
  w.Bool(false);
  w.EndObject();
}

// {"<key>": [record...], rest_url, next_rest_url?, previous_rest_url?, total, total_pages}
void write_list_schema(JsonWriter& w, const OpenApiResource& r) {
  write_object_schema(w, {
                             {r.collection, Kind::kRefList, r.record},
                             {"rest_url", Kind::kString},
                             {"next_rest_url", Kind::kString, {}, {}, false},
                             {"previous_rest_url", Kind::kString, {}, {}, false},
                             {"total", Kind::kInteger},
                             {"total_pages", Kind::kInteger},
                         });
}

const std::array<OpenApiResource, 5> kResources = {{
    {"events", "Event", "EventList", "DeletedEvent"},
    {"venues", "Venue", "VenueList", "DeletedVenue"},
    {"organizers", "Organizer", "OrganizerList", "DeletedOrganizer"},
    {"categories", "Term", "CategoryList", ""},
    {"tags", "Term", "TagList", ""},
}};

}  // namespace

const OpenApiResource* openapi_resource(std::string_view pattern) {
  if (pattern.size() < 2 || pattern[0] != '/') return nullptr;
  const std::string_view first = pattern.substr(1, pattern.find('/', 1) - 1);
  for (const OpenApiResource& r : kResources)
    if (r.collection == first) return &r;
  return nullptr;
}

void write_record_schemas(JsonWriter& w) {
  write_key(w, "Event");
  write_object_schema(w, event_fields());
  write_key(w, "Venue");
  write_object_schema(w, venue_fields());
  write_key(w, "Organizer");
  write_object_schema(w, organizer_fields());
  write_key(w, "Term");
  write_object_schema(w, term_fields());
  write_key(w, "TermUrls");
  write_object_schema(
      w, {{"self", Kind::kString}, {"collection", Kind::kString}, {"up", Kind::kString, {}, {}, false}});
  write_key(w, "Image");
  write_object_schema(w, {{"url", Kind::kString}, {"id", Kind::kInteger}, {"extension", Kind::kString}});
  write_key(w, "DateDetails");
  write_details_schema(w);
  write_key(w, "CostDetails");
  write_object_schema(w, {
                             {"currency_symbol", Kind::kString},
                             {"currency_code", Kind::kString},
                             {"currency_position", Kind::kEnum, {}, {"prefix", "postfix", ""}},
                             {"values", Kind::kStringList},
                         });
  for (const OpenApiResource& r : kResources) {
    write_key(w, r.list);
    write_list_schema(w, r);
    if (!r.deleted.empty()) {
      write_key(w, r.deleted);
      write_object_schema(w, {{"deleted", Kind::kBoolean}, {"previous", Kind::kRef, r.record}});
    }
  }
}

}  // namespace cal
