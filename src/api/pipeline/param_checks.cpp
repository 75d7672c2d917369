// The per-field rules of the route table (see cal/api/pipeline/param_checks.h). Messages keep the wording
// the handlers used when they checked these fields themselves.
#include "cal/api/pipeline/param_checks.h"

#include "cal/api/access/permissions.h"
#include "cal/api/events/event_fields.h"
#include "cal/api/events/event_fragments.h"
#include "cal/api/linked/linked_fields.h"
#include "cal/api/linked/linked_records.h"
#include "cal/api/posts/post_writes.h"
#include "cal/api/terms/term_input.h"
#include "cal/core/dates/dates.h"
#include "cal/core/text/ascii.h"
#include "cal/core/text/numbers.h"
#include "cal/core/text/slug.h"
#include "cal/core/text/url.h"
#include "cal/store/events.h"
#include "cal/store/posts.h"
#include "cal/store/terms.h"
#include "cal/store/users.h"

#include <algorithm>
#include <set>

namespace cal {
namespace {

std::string name_of(const ParamSpec& spec) { return std::string(spec.name); }

Taxonomy taxonomy_of(const ParamSpec& spec) {
  return spec.name == "tags" ? Taxonomy::kTag : Taxonomy::kCategory;
}

using ascii::trim;

// The first id of `ids` that names no term of `taxonomy`, as text; "" when all exist.
std::string missing_term(Db& db, Taxonomy taxonomy, const std::vector<long long>& ids) {
  if (ids.empty()) return "";
  const auto existing = existing_term_ids(db, taxonomy, ids);
  for (long long id : ids)
    if (std::find(existing.begin(), existing.end(), id) == existing.end()) return std::to_string(id);
  return "";
}

std::string term_ids_problem(const ParamSpec& spec, const ParamValue& value, const Locale& locale,
                             const CheckContext& context, Taxonomy taxonomy) {
  if (!context.db) return "";
  const std::string missing = missing_term(*context.db, taxonomy, value.integers);
  if (missing.empty()) return "";
  return format_message(locale, "%s names no existing term: %s.", {name_of(spec), missing});
}

std::string post_ids_problem(const ParamSpec& spec, const ParamValue& value, const Locale& locale,
                             const CheckContext& context, PostType type, std::string_view kind) {
  if (!context.db || value.integers.empty()) return "";
  const std::set<long long> ids(value.integers.begin(), value.integers.end());
  const auto found = find_posts(*context.db, type, {ids.begin(), ids.end()});
  if (found.size() == ids.size()) return "";
  return format_message(locale, "%s names no existing %s.", {name_of(spec), std::string(kind)});
}

}  // namespace

std::string check_time_zone(const ParamSpec&, const ParamValue& value, const Locale& locale,
                            const CheckContext&) {
  if (TimeZone::find(value.text)) return "";
  return translate(locale, "timezone must be an IANA time zone or UTC+H[:MM].");
}

std::string check_event_website(const ParamSpec&, const ParamValue& value, const Locale& locale,
                                const CheckContext&) {
  constexpr std::size_t kMaxWebsiteLength = 2048;  // event_details.website
  const rapidjson::Value& raw = *value.raw;
  if (raw.IsNull() || (raw.IsString() && raw.GetStringLength() == 0)) return "";
  if (raw.IsString()) {
    const std::string_view url(raw.GetString(), raw.GetStringLength());
    if (url.size() <= kMaxWebsiteLength && is_absolute_http_url(url)) return "";
  }
  return translate(locale, "website must be empty or an absolute URL.");
}

std::string check_recurrence(const ParamSpec&, const ParamValue& value, const Locale& locale,
                             const CheckContext&) {
  constexpr std::size_t kMaxLines = 1600;  // one RRULE, RDATE and EXDATE lines (cal/core/dates/recurrence.h)
  const rapidjson::Value& raw = *value.raw;
  if (raw.IsNull() || raw.IsString()) return "";
  if (raw.IsArray() && raw.Size() <= kMaxLines) {
    bool texts = true;
    for (const auto& v : raw.GetArray()) texts = texts && v.IsString();
    if (texts) return "";
  }
  return translate(locale, "recurrence must be a list of RFC 5545 RRULE, RDATE and EXDATE lines.");
}

std::string check_linked_text(const ParamSpec& spec, const ParamValue& value, const Locale& locale,
                              const CheckContext&) {
  return linked_field_problem(spec.name, value.text, locale);
}

std::string check_cost(const ParamSpec&, const ParamValue& value, const Locale& locale, const CheckContext&) {
  const auto text = cost_input_text(*value.raw);
  if (!text) return translate(locale, "cost must be text, a number or a list of them.");
  if (text->size() > kMaxCostLength) return translate(locale, "cost must be at most 255 characters long.");
  return "";
}

std::string check_image(const ParamSpec&, const ParamValue& value, const Locale& locale,
                        const CheckContext& context) {
  return image_problem(*value.raw, locale, context.db);
}

std::string check_author(const ParamSpec&, const ParamValue& value, const Locale& locale,
                         const CheckContext& context) {
  if (!context.db || user_exists(*context.db, value.integer)) return "";
  return translate(locale, "author names no user.");
}

std::string check_event_terms(const ParamSpec& spec, const ParamValue& value, const Locale& locale,
                              const CheckContext& context) {
  const auto items = split_terms_input(*value.raw);
  if (!items) return format_message(locale, "%s must be term ids or names.", {name_of(spec)});
  std::vector<long long> ids;
  for (const auto& item : *items) {
    if (item.id > 0)
      ids.push_back(item.id);
    else if (!normalized_term_name(item.name))
      return format_message(locale, "%s must be a non-blank text of at most 200 characters.",
                            {name_of(spec)});
  }
  if (!context.db) return "";
  const std::string missing = missing_term(*context.db, taxonomy_of(spec), ids);
  if (missing.empty()) return "";
  return format_message(locale, "%s names no existing term: %s.", {name_of(spec), missing});
}

std::string check_event_venue(const ParamSpec&, const ParamValue& value, const Locale& locale,
                              const CheckContext& context) {
  return venue_input_problem(*value.raw, locale, context);
}

std::string check_event_organizers(const ParamSpec&, const ParamValue& value, const Locale& locale,
                                   const CheckContext& context) {
  return organizer_input_problem(*value.raw, locale, context);
}

std::string resolve_term_filter(const ParamSpec& spec, ParamValue& value, const Locale& locale,
                                const CheckContext& context) {
  if (!context.db) return "";
  const std::unique_ptr<LinkedRowKeeper> kept =
      context.fragments ? fragment_row_keeper(*context.fragments) : nullptr;
  TermRefs refs = resolve_term_refs(*context.db, taxonomy_of(spec), value.texts, kept.get());
  if (!refs.unknown.empty())
    return format_message(locale, "%s names no existing term: %s.", {name_of(spec), refs.unknown});
  value.resolved = std::move(refs.ids);
  return "";
}

std::string check_venue_ids(const ParamSpec& spec, const ParamValue& value, const Locale& locale,
                            const CheckContext& context) {
  return post_ids_problem(spec, value, locale, context, PostType::kVenue, "venue");
}

std::string check_organizer_ids(const ParamSpec& spec, const ParamValue& value, const Locale& locale,
                                const CheckContext& context) {
  return post_ids_problem(spec, value, locale, context, PostType::kOrganizer, "organizer");
}

std::string check_event_id(const ParamSpec& spec, const ParamValue& value, const Locale& locale,
                           const CheckContext& context) {
  if (!context.db || event_exists(*context.db, value.integer)) return "";
  return format_message(locale, "%s names no existing %s.", {name_of(spec), "event"});
}

std::string check_readable_event(const ParamSpec& spec, const ParamValue& value, const Locale& locale,
                                 const CheckContext& context) {
  if (!context.db || !context.caller) return "";
  const auto event = find_post(*context.db, PostType::kEvent, value.integer);
  if (event && can_read_post(*context.caller, event->author, event->status)) return "";
  return format_message(locale, "%s names no event.", {name_of(spec)});
}

std::string check_category_ids(const ParamSpec& spec, const ParamValue& value, const Locale& locale,
                               const CheckContext& context) {
  return term_ids_problem(spec, value, locale, context, Taxonomy::kCategory);
}

std::string check_tag_ids(const ParamSpec& spec, const ParamValue& value, const Locale& locale,
                          const CheckContext& context) {
  return term_ids_problem(spec, value, locale, context, Taxonomy::kTag);
}

std::string check_category_parent(const ParamSpec&, const ParamValue& value, const Locale& locale,
                                  const CheckContext& context) {
  if (value.integer == 0) return "";
  if (value.integer > 0 && (!context.db || find_term(*context.db, Taxonomy::kCategory, value.integer)))
    return "";
  return translate(locale, "parent must be 0 or an existing category id.");
}

std::string check_term_name(const ParamSpec& spec, const ParamValue& value, const Locale& locale,
                            const CheckContext&) {
  if (normalized_term_name(value.text)) return "";
  return format_message(locale, "%s must be a non-blank text of at most 200 characters.", {name_of(spec)});
}

std::string check_term_slug(const ParamSpec&, const ParamValue& value, const Locale& locale,
                            const CheckContext&) {
  if (!slugify(value.text).empty()) return "";
  return translate(locale, "slug must contain letters or digits.");
}

}  // namespace cal
