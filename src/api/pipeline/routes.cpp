// The route table (docs/architecture.md): every route of docs/api.md §10 with its declared parameters.
// Nothing else in the service lists parameters.
#include "cal/api/pipeline/routes.h"

#include "cal/api/ical/ical_feed.h"
#include "cal/api/linked/linked_resource.h"
#include "cal/api/ops/health.h"
#include "cal/api/pipeline/handlers.h"
#include "cal/api/pipeline/list_limits.h"
#include "cal/api/pipeline/param_checks.h"
#include "cal/api/terms/term_resource.h"

#include <stdexcept>
#include <string>

namespace cal {
namespace {

using T = ParamType;
using Specs = std::vector<ParamSpec>;

const std::vector<std::string_view> kPostStatuses = {"publish", "future", "draft", "pending", "private"};
const std::vector<std::string_view> kFilterStatuses = {"publish", "future",  "draft",
                                                       "pending", "private", "trash"};

Specs concat(Specs a, const Specs& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Specs id_param() {
  // Not `positive`: {id} is \d+, so 0 is a valid path naming no record (404, docs/api.md §1.1, §2).
  return {{.name = param::kId,
           .type = T::kInteger,
           .description = "Unique identifier for the record.",
           .required = true}};
}
Specs slug_param() {
  return {{.name = param::kSlug,
           .type = T::kString,
           .description = "The record's slug.",
           .required = true,
           .non_empty = true}};
}
Specs context_param() {
  return {{.name = param::kContext,
           .type = T::kString,
           .description = "Scope under which the request is made; edit shows protected and trashed records "
                          "to those who may edit them.",
           .default_value = "view",
           .enum_values = {"view", "edit"}}};
}
Specs force_param() {
  return {{.name = param::kForce,
           .type = T::kBoolean,
           .description = "Whether to delete permanently instead of moving to the trash.",
           .default_value = "false"}};
}
// On a write or DELETE of an event by id: which occurrences of a recurring series it applies to.
Specs scope_param() {
  return {{.name = param::kScope,
           .type = T::kString,
           .description =
               "On an occurrence of a series: this (default) applies to it alone, following to it and "
               "the later ones, all to the whole series; on a series all (the default).",
           .enum_values = {"this", "following", "all"}}};
}
Specs paging_params() {
  return {
      {.name = param::kPage,
       .type = T::kInteger,
       .description = "The page of results to return.",
       .default_value = "1",
       .positive = true},
      {.name = param::kPerPage,
       .type = T::kInteger,
       .description = "The number of results per page.",
       .default_value = "10",
       .positive = true},
  };
}

// modified_after / modified_before (WordPress core's names; docs/sync.md) on every list route.
Specs modified_params() {
  return {
      {.name = param::kModifiedAfter,
       .type = T::kDateTime,
       .description =
           "Only records modified after this date (terms: their name, slug, description or parent)."},
      {.name = param::kModifiedBefore,
       .type = T::kDateTime,
       .description =
           "Only records modified before this date (terms: their name, slug, description or parent)."},
  };
}

// GET /changes (docs/sync.md): what changed since a sync token.
Specs changes_params() {
  return {
      {.name = param::kSince,
       .type = T::kString,
       .description =
           "The sync token of an earlier answer's `next`; absent: no changes and the current token."},
      {.name = param::kKinds,
       .type = T::kStringList,
       .description = "Only changes of these kinds (use the same kinds with the tokens they give).",
       .enum_values = {"event", "venue", "organizer", "category", "tag", "series"},
       .declared_type = "string",
       .max_items = list_limits::kChoiceItems},
      {.name = param::kPerPage,
       .type = T::kInteger,
       .description = "The most changes in one answer; `more` says whether others follow.",
       .default_value = "100",
       .positive = true},
  };
}

// Fields shared by every post-like record on create and update (docs/api.md §11).
Specs post_fields() {
  return {
      {.name = param::kAuthor,
       .type = T::kInteger,
       .description = "The author's user id.",
       .positive = true,
       .check = check_author},
      {.name = param::kDate, .type = T::kDateTime, .description = "The publication date, site-local."},
      {.name = param::kDateUtc, .type = T::kDateTime, .description = "The publication date in UTC."},
  };
}

Specs event_fields(bool create) {
  Specs f = post_fields();
  const Specs more = {
      {.name = param::kTitle,
       .type = T::kString,
       .description = "The event title.",
       .required = create,
       .non_empty = true},
      {.name = param::kDescription, .type = T::kString, .description = "The event description."},
      {.name = param::kSlug, .type = T::kString, .description = "The event slug.", .non_empty = true},
      {.name = param::kExcerpt, .type = T::kString, .description = "The event excerpt."},
      {.name = param::kStatus,
       .type = T::kString,
       .description = "The event status.",
       .enum_values = kPostStatuses},
      {.name = param::kTimezone,
       .type = T::kString,
       .description = "The event time zone: an IANA id or UTC+H[:MM].",
       .non_empty = true,
       .check = check_time_zone},
      {.name = param::kAllDay,
       .type = T::kBoolean,
       .description = "Whether the event lasts the whole day.",
       .default_value = create ? std::string_view("false") : std::string_view{}},
      {.name = param::kStartDate,
       .type = T::kDateTime,
       .description = "The event start date and time.",
       .required = create},
      {.name = param::kEndDate,
       .type = T::kDateTime,
       .description = "The event end date and time.",
       .required = create},
      {.name = param::kImage,
       .type = T::kAny,
       .description = "The featured image: an image id or an absolute URL.",
       .declared_type = "string",
       .check = check_image},
      {.name = param::kCost,
       .type = T::kAny,
       .description = "The event cost: one or more prices as text.",
       .check = check_cost},
      {.name = param::kWebsite,
       .type = T::kAny,
       .description = "The event website URL.",
       .check = check_event_website},
      {.name = param::kShowMap, .type = T::kBoolean, .description = "Whether to show a map."},
      {.name = param::kShowMapLink, .type = T::kBoolean, .description = "Whether to show a map link."},
      {.name = param::kHideFromListings,
       .type = T::kBoolean,
       .description = "Whether to hide the event from listings."},
      {.name = param::kSticky,
       .type = T::kBoolean,
       .description = "Whether the event is sticky in the calendar view."},
      {.name = param::kFeatured, .type = T::kBoolean, .description = "Whether the event is featured."},
      {.name = param::kCategories,
       .type = T::kAny,
       .description = "Event categories: ids or names, as an array or a comma list.",
       .declared_type = "array",
       .declared_items = "integer",
       .declared_also = {"integer", "string"},
       .declared_items_also = {"string"},
       .max_items = list_limits::kTermsPerEvent,
       .check = check_event_terms},
      {.name = param::kTags,
       .type = T::kAny,
       .description = "Event tags: ids or names, as an array or a comma list.",
       .declared_type = "array",
       .declared_items = "integer",
       .declared_also = {"integer", "string"},
       .declared_items_also = {"string"},
       .max_items = list_limits::kTermsPerEvent,
       .check = check_event_terms},
      {.name = param::kVenue,
       .type = T::kAny,
       .description = "The venue: an id, or venue data to create or reuse a venue.",
       .declared_type = "integer",
       .declared_items = "integer",
       .declared_also = {"object", "array"},
       .declared_items_also = {"object"},
       .check = check_event_venue},
      {.name = param::kOrganizer,
       .type = T::kAny,
       .description = "Organizers: ids or organizer data, in order.",
       .declared_type = "array",
       .declared_items = "integer",
       .declared_also = {"integer", "string", "object"},
       .declared_items_also = {"object"},
       .max_items = list_limits::kOrganizersPerEvent,
       .check = check_event_organizers},
      {.name = param::kRecurrence,
       .type = T::kAny,
       .description =
           "RFC 5545 RRULE, RDATE and EXDATE lines: the event repeats (a series); null or an empty "
           "list makes it a one-off event.",
       .declared_type = "array",
       .declared_items = "string",
       .declared_also = {"string"},
       .check = check_recurrence},
  };
  Specs all = concat(f, more);
  if (!create) all = concat(all, scope_param());
  return all;
}

// The iCalendar feed (docs/feeds.md) of an event list or a single event.
Specs ical_param() {
  return {{.name = param::kIcal,
           .type = T::kBoolean,
           .description = "Whether to answer with an iCalendar feed (text/calendar, RFC 5545) instead of "
                          "JSON: calendar apps subscribe to the URL with ical=1, as webcal:// or https://. "
                          "When absent, an Accept header preferring text/calendar asks for the feed."}};
}

Specs password_param() {
  return {{.name = param::kPassword, .type = T::kString, .description = "The event password."}};
}

Specs event_list_params() {
  return concat(
      concat(paging_params(), modified_params()),
      {
          {.name = param::kStartDate,
           .type = T::kDateTime,
           .description = "Events that start on or after this date."},
          {.name = param::kEndDate,
           .type = T::kDateTime,
           .description = "Events that end on or before this date."},
          {.name = param::kStartsBefore,
           .type = T::kDateTime,
           .description = "Events that start before this date."},
          {.name = param::kStartsAfter,
           .type = T::kDateTime,
           .description = "Events that start after this date."},
          {.name = param::kEndsBefore,
           .type = T::kDateTime,
           .description = "Events that end before this date."},
          {.name = param::kEndsAfter,
           .type = T::kDateTime,
           .description = "Events that end after this date."},
          {.name = param::kStrictDates,
           .type = T::kBoolean,
           .description = "Whether date filters use exact times instead of whole days.",
           .default_value = "false"},
          {.name = param::kSearch,
           .type = T::kString,
           .description = "Events whose title, description or excerpt contain every word.",
           .non_empty = true},
          {.name = param::kCategories,
           .type = T::kStringList,
           .description = "Events in one of these categories (ids or slugs).",
           .declared_items = "integer",
           .declared_also = {"integer", "string"},
           .declared_items_also = {"string"},
           .max_items = list_limits::kFilterItems,
           .resolve = resolve_term_filter},
          {.name = param::kTags,
           .type = T::kStringList,
           .description = "Events with one of these tags (ids or slugs).",
           .declared_items = "integer",
           .declared_also = {"integer", "string"},
           .declared_items_also = {"string"},
           .max_items = list_limits::kFilterItems,
           .resolve = resolve_term_filter},
          {.name = param::kVenue,
           .type = T::kIntegerList,
           .description = "Events at one of these venues.",
           .positive = true,
           .max_items = list_limits::kFilterItems,
           .check = check_venue_ids},
          {.name = param::kOrganizer,
           .type = T::kIntegerList,
           .description = "Events by one of these organizers.",
           .positive = true,
           .max_items = list_limits::kFilterItems,
           .check = check_organizer_ids},
          {.name = param::kFeatured,
           .type = T::kBoolean,
           .description = "Only featured (true) or only non-featured (false) events."},
          {.name = param::kStatus,
           .type = T::kStringList,
           .description = "Events with one of these statuses.",
           .enum_values = kFilterStatuses,
           .declared_also = {"string"},
           .max_items = list_limits::kChoiceItems},
          {.name = param::kGeoloc,
           .type = T::kBoolean,
           .description = "Only events whose venue has geolocation data (geolocation extension)."},
          {.name = param::kGeolocLat,
           .type = T::kNumber,
           .description = "Latitude of the point events must be near (geolocation extension).",
           .minimum = -90.0,
           .maximum = 90.0},
          {.name = param::kGeolocLng,
           .type = T::kNumber,
           .description = "Longitude of the point events must be near (geolocation extension).",
           .minimum = -180.0,
           .maximum = 180.0},
          {.name = param::kInclude,
           .type = T::kIntegerList,
           .description = "Only these event ids; date filters are then ignored.",
           .positive = true,
           .max_items = list_limits::kFilterItems},
          {.name = param::kPostParent,
           .type = T::kInteger,
           .description = "Events whose parent is this event id.",
           .positive = true,
           .check = check_event_id},
          {.name = param::kTicketed,
           .type = T::kBoolean,
           .description = "Events with (true) or without (false) tickets."},
          {.name = param::kHideSubsequentRecurrences,
           .type = T::kBoolean,
           .description = "Of each recurring series only its first occurrence that the other filters let "
                          "through; the totals then count series (and one-off events)."},
          ical_param().front(),
          {.name = param::kExpand,
           .type = T::kBoolean,
           .description = "With ical=1: one VEVENT per occurrence, for calendar apps that cannot "
                          "expand RRULE; by default each recurring series is one VEVENT with its rule "
                          "and its occurrences edited alone are RECURRENCE-ID overrides."},
      });
}

// GET /events/{id}/occurrences: the event list's paging, date window and status filter.
Specs occurrence_list_params() {
  Specs out;
  for (ParamSpec& p : event_list_params())
    if (p.name == "page" || p.name == "per_page" || p.name == "start_date" || p.name == "end_date" ||
        p.name == "strict_dates" || p.name == "status")
      out.push_back(std::move(p));
  return out;
}

Specs linked_list_params(std::string_view kind_search) {
  return concat(
      concat(paging_params(), modified_params()),
      {
          {.name = param::kSearch, .type = T::kString, .description = kind_search, .non_empty = true},
          {.name = param::kEvent,
           .type = T::kInteger,
           .description = "Only those linked to this event id.",
           .positive = true,
           .check = check_event_id},
          {.name = param::kHasEvents,
           .type = T::kBoolean,
           .description = "Only those linked (true) or not linked (false) to a live event."},
          {.name = param::kOnlyWithUpcoming,
           .type = T::kBoolean,
           .description = "Only those linked to an upcoming event.",
           .default_value = "false"},
          {.name = param::kStatus,
           .type = T::kStringList,
           .description = "Only records with one of these statuses.",
           .enum_values = kFilterStatuses,
           .declared_also = {"string"},
           .max_items = list_limits::kChoiceItems},
      });
}

Specs venue_fields(bool create) {
  return concat(
      post_fields(),
      {
          {.name = param::kVenue,
           .type = T::kString,
           .description = "The venue name.",
           .required = create,
           .non_empty = true},
          {.name = param::kDescription, .type = T::kString, .description = "The venue description."},
          {.name = param::kSlug, .type = T::kString, .description = "The venue slug.", .non_empty = true},
          {.name = param::kStatus,
           .type = T::kString,
           .description = "The venue status.",
           .enum_values = kPostStatuses},
          {.name = param::kShowMap, .type = T::kTruthy, .description = "Whether linked events show a map."},
          {.name = param::kShowMapLink,
           .type = T::kTruthy,
           .description = "Whether linked events show a map link."},
          {.name = param::kAddress,
           .type = T::kString,
           .description = "The street address.",
           .check = check_linked_text},
          {.name = param::kCity, .type = T::kString, .description = "The city.", .check = check_linked_text},
          {.name = param::kCountry,
           .type = T::kString,
           .description = "The country.",
           .check = check_linked_text},
          {.name = param::kProvince,
           .type = T::kString,
           .description = "The province.",
           .check = check_linked_text},
          {.name = param::kState,
           .type = T::kString,
           .description = "The state.",
           .check = check_linked_text},
          {.name = param::kZip,
           .type = T::kString,
           .description = "The postal code.",
           .check = check_linked_text},
          {.name = param::kPhone,
           .type = T::kString,
           .description = "The phone number.",
           .check = check_linked_text},
          {.name = param::kStateprovince,
           .type = T::kString,
           .description = "The state or province as shown.",
           .check = check_linked_text},
          {.name = param::kWebsite,
           .type = T::kString,
           .description = "The venue website URL.",
           .check = check_linked_text},
          {.name = param::kImage,
           .type = T::kAny,
           .description = "The featured image: an image id or an absolute URL.",
           .declared_type = "string",
           .check = check_image},
          {.name = param::kGeoLat,
           .type = T::kNumber,
           .description = "Latitude (geolocation extension).",
           .minimum = -90.0,
           .maximum = 90.0},
          {.name = param::kGeoLng,
           .type = T::kNumber,
           .description = "Longitude (geolocation extension).",
           .minimum = -180.0,
           .maximum = 180.0},
      });
}

Specs organizer_fields(bool create) {
  return concat(
      post_fields(),
      {
          {.name = param::kOrganizer,
           .type = T::kString,
           .description = "The organizer name.",
           .required = create,
           .non_empty = true},
          {.name = param::kDescription, .type = T::kString, .description = "The organizer description."},
          {.name = param::kSlug, .type = T::kString, .description = "The organizer slug.", .non_empty = true},
          {.name = param::kStatus,
           .type = T::kString,
           .description = "The organizer status.",
           .enum_values = kPostStatuses},
          {.name = param::kPhone,
           .type = T::kString,
           .description = "The phone number.",
           .check = check_linked_text},
          {.name = param::kWebsite,
           .type = T::kString,
           .description = "The organizer website URL.",
           .check = check_linked_text},
          {.name = param::kEmail,
           .type = T::kString,
           .description = "The e-mail address.",
           .check = check_linked_text},
          {.name = param::kImage,
           .type = T::kAny,
           .description = "The featured image: an image id or an absolute URL.",
           .declared_type = "string",
           .check = check_image},
      });
}

Specs term_list_params(bool hierarchical) {
  Specs s = concat(
      concat(paging_params(), modified_params()),
      {
          {.name = param::kSearch,
           .type = T::kString,
           .description = "Terms whose name or slug contains this text.",
           .non_empty = true},
          {.name = param::kExclude,
           .type = T::kIntegerList,
           .description = "Term ids to leave out.",
           .positive = true,
           .max_items = list_limits::kFilterItems,
           .check = hierarchical ? check_category_ids : check_tag_ids},
          {.name = param::kInclude,
           .type = T::kIntegerList,
           .description = "Only these term ids.",
           .positive = true,
           .max_items = list_limits::kFilterItems,
           .check = hierarchical ? check_category_ids : check_tag_ids},
          {.name = param::kOrder,
           .type = T::kString,
           .description = "Sort direction.",
           .enum_values = {"asc", "desc"},
           .non_empty = true},
          {.name = param::kOrderby,
           .type = T::kString,
           .description = "Term attribute to sort by.",
           .enum_values =
               hierarchical
                   ? std::vector<std::string_view>{"id", "name", "slug", "count", "parent", "description"}
                   : std::vector<std::string_view>{"id", "name", "slug", "count", "description"},
           .non_empty = true},
          {.name = param::kHideEmpty,
           .type = T::kBoolean,
           .description = "Whether to hide terms not assigned to any published event.",
           .default_value = "true"},
      });
  if (hierarchical)
    s.push_back({.name = param::kParent,
                 .type = T::kInteger,
                 .description = "Terms with this parent id; 0 for top level.",
                 .check = check_category_parent});
  return concat(s, {
                       {.name = param::kPost,
                        .type = T::kInteger,
                        .description = "Terms assigned to this event id.",
                        .positive = true,
                        .check = check_readable_event},
                       {.name = param::kEvent,
                        .type = T::kInteger,
                        .description = "Terms assigned to this event id (alias of post).",
                        .positive = true,
                        .check = check_readable_event},
                       {.name = param::kSlug,
                        .type = T::kString,
                        .description = "Terms with this slug.",
                        .non_empty = true},
                   });
}

Specs term_fields(bool create, bool hierarchical) {
  Specs s = {
      {.name = param::kName,
       .type = T::kString,
       .description = "The term name.",
       .required = create,
       .non_empty = true,
       .check = check_term_name},
      {.name = param::kDescription, .type = T::kString, .description = "The term description."},
      {.name = param::kSlug,
       .type = T::kString,
       .description = "The term slug.",
       .non_empty = true,
       .check = check_term_slug},
  };
  if (hierarchical)
    s.push_back({.name = param::kParent,
                 .type = T::kInteger,
                 .description = "The parent category id; 0 for top level.",
                 .check = check_category_parent});
  return s;
}

const std::vector<std::string_view> kWrite = {"POST", "PUT", "PATCH"};

// The handlers of one resource's five operations.
struct Operations {
  Handler list, create, get, update, remove;
  Handler import_calendar = nullptr;  // create from a text/calendar body (events only)
};

// The handler that applies a shared operation to one resource description (a linked record type,
// a taxonomy), bound at compile time: `bound<list_linked, kVenueResource>`.
template <auto operation, auto& kind>
Response bound(RequestContext& ctx) {
  return operation(ctx, kind);
}

// Venues and organizers: the linked-resource operations (cal/api/linked/linked_resource.h).
template <auto& type>
constexpr Operations linked_operations() {
  return {bound<list_linked, type>, bound<create_linked, type>, bound<get_linked, type>,
          bound<update_linked, type>, bound<delete_linked, type>};
}

// Categories and tags: the term operations (cal/api/terms/term_resource.h).
template <auto& kind>
constexpr Operations term_operations() {
  return {bound<list_terms, kind>, bound<create_term, kind>, bound<get_term, kind>, bound<update_term, kind>,
          bound<delete_term, kind>};
}

// The five routes of an event/venue/organizer resource.
void add_post_resource(std::vector<Route>& routes, std::string_view base, std::string_view by_id,
                       std::string_view by_slug, Specs list_params, Specs (*fields)(bool), bool has_password,
                       const Operations& op, const Specs& read_params = {}, const Specs& delete_params = {}) {
  const Specs pw = has_password ? password_param() : Specs{};
  routes.push_back({base,
                    {
                        {.methods = {"GET"},
                         .handler = op.list,
                         .params = std::move(list_params),
                         .summary = "List records."},
                        {.methods = {"POST"},
                         .capability = Capability::kEditPosts,
                         .handler = op.create,
                         .calendar_handler = op.import_calendar,
                         .params = concat(fields(true), pw),
                         .summary = "Create a record."},
                    }});
  routes.push_back({by_id,
                    {
                        {.methods = {"GET"},
                         .handler = op.get,
                         .params = concat(concat(concat(id_param(), pw), context_param()), read_params),
                         .summary = "Read a record."},
                        {.methods = kWrite,
                         .capability = Capability::kEditPosts,
                         .handler = op.update,
                         .params = concat(concat(id_param(), pw), fields(false)),
                         .summary = "Update a record."},
                        {.methods = {"DELETE"},
                         .capability = Capability::kEditPosts,
                         .handler = op.remove,
                         .params = concat(concat(concat(id_param(), pw), force_param()), delete_params),
                         .summary = "Trash or delete a record."},
                    }});
  // By slug the path's slug names the record; a body `slug` renames it (path wins, docs/api.md §1.3).
  Specs slug_update = slug_param();
  for (ParamSpec& p : fields(false))
    if (p.name != "slug") slug_update.push_back(p);
  routes.push_back({by_slug,
                    {
                        {.methods = {"GET"},
                         .handler = op.get,
                         .params = concat(concat(slug_param(), context_param()), read_params),
                         .summary = "Read a record by slug."},
                        {.methods = kWrite,
                         .capability = Capability::kEditPosts,
                         .handler = op.update,
                         .params = slug_update,
                         .summary = "Update a record by slug."},
                        {.methods = {"DELETE"},
                         .capability = Capability::kEditPosts,
                         .handler = op.remove,
                         .params = concat(concat(slug_param(), force_param()), delete_params),
                         .summary = "Trash or delete a record by slug."},
                    }});
}

void add_term_resource(std::vector<Route>& routes, std::string_view base, std::string_view by_id,
                       bool hierarchical, Capability capability, const Operations& op) {
  routes.push_back({base,
                    {
                        {.methods = {"GET"},
                         .handler = op.list,
                         .params = term_list_params(hierarchical),
                         .summary = "List terms."},
                        {.methods = {"POST"},
                         .capability = capability,
                         .handler = op.create,
                         .params = term_fields(true, hierarchical),
                         .summary = "Create a term."},
                    }});
  routes.push_back(
      {by_id,
       {
           {.methods = {"GET"}, .handler = op.get, .params = id_param(), .summary = "Read a term."},
           {.methods = kWrite,
            .capability = capability,
            .handler = op.update,
            .params = concat(id_param(), term_fields(false, hierarchical)),
            .summary = "Update a term."},
           {.methods = {"DELETE"},
            .capability = capability,
            .handler = op.remove,
            .params = concat(id_param(), force_param()),
            .summary = "Delete a term."},
       }});
}

std::vector<Route> build_routes() {
  std::vector<Route> routes;
  routes.push_back({"",
                    {{.methods = {"GET"},
                      .handler = get_root_index,
                      .params = {{.name = param::kContext,
                                  .type = T::kString,
                                  .description = "Scope under which the request is made.",
                                  .default_value = "view",
                                  .enum_values = {"view", "help"}}},
                      .summary = "Describe the REST API: the site, its namespaces and every route."}},
                    true});
  routes.push_back({"",
                    {{.methods = {"GET"},
                      .handler = get_namespace_index,
                      .params =
                          {
                              {.name = param::kNamespace,
                               .type = T::kString,
                               .description = "The namespace to describe.",
                               .default_value = "cal/events/v1"},
                              {.name = param::kContext,
                               .type = T::kString,
                               .description = "Scope under which the request is made.",
                               .default_value = "view",
                               .enum_values = {"view", "help"}},
                          },
                      .summary = "Describe the namespace."}}});
  routes.push_back({"/doc",
                    {{.methods = {"GET"},
                      .handler = get_openapi_document,
                      .params = {},
                      .summary = "The OpenAPI document of this interface."}}});
  routes.push_back({"/health",
                    {{.methods = {"GET"},
                      .handler = get_health,
                      .params = {},
                      .summary = "Whether the service can answer: its database, schema and replicas.",
                      .probe = true}}});
  add_post_resource(routes, "/events", "/events/{id}", "/events/by-slug/{slug}", event_list_params(),
                    event_fields, true,
                    {list_events_negotiated, create_event, get_event_negotiated, update_event, delete_event,
                     import_events_ical},
                    ical_param(), scope_param());
  routes.push_back({"/events/{id}/occurrences",
                    {{.methods = {"GET"},
                      .handler = list_occurrences,
                      .params = concat(concat(id_param(), context_param()), occurrence_list_params()),
                      .summary = "List the occurrences of a recurring event."}}});
  add_post_resource(
      routes, "/venues", "/venues/{id}", "/venues/by-slug/{slug}",
      linked_list_params("Venues whose name, description or address fields contain every word."),
      venue_fields, false, linked_operations<kVenueResource>());
  add_post_resource(
      routes, "/organizers", "/organizers/{id}", "/organizers/by-slug/{slug}",
      linked_list_params("Organizers whose name, description, phone, e-mail or website contain every word."),
      organizer_fields, false, linked_operations<kOrganizerResource>());
  add_term_resource(routes, "/categories", "/categories/{id}", true, Capability::kManageCategories,
                    term_operations<kCategoryKind>());
  add_term_resource(routes, "/tags", "/tags/{id}", false, Capability::kManageTags,
                    term_operations<kTagKind>());
  routes.push_back({"/changes",
                    {{.methods = {"GET"},
                      .handler = list_changes,
                      .params = changes_params(),
                      .summary = "What changed for this caller since a sync token (incremental sync)."}}});
  return routes;
}

}  // namespace

const std::vector<Route>& route_table() {
  static const std::vector<Route> routes = build_routes();
  return routes;
}

const std::vector<ParamSpec>& post_params(std::string_view pattern) {
  for (const Route& route : route_table())
    if (route.pattern == pattern)
      if (const Endpoint* e = route.endpoint_for("POST")) return e->params;
  throw std::logic_error("no POST route " + std::string(pattern));
}

}  // namespace cal
