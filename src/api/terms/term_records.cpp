// The term record writer and the resolution of events' `categories`/`tags` inputs and filters
// (see cal/api/terms/term_records.h).
#include "cal/api/terms/term_records.h"

#include "cal/api/pipeline/error.h"
#include "cal/api/terms/term_input.h"
#include "cal/api/terms/term_resource.h"
#include "cal/core/text/ascii.h"
#include "cal/core/text/numbers.h"

#include <algorithm>

namespace cal {
namespace {

using ascii::trim;

void push_unique(std::vector<long long>& ids, long long id) {
  if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
}

}  // namespace

void write_term(JsonWriter& w, const RequestContext& ctx, const Term& term) {
  const TermKind& kind = term_kind(term.taxonomy);
  w.StartObject();
  write_key(w, "id");
  w.Int64(term.id);
  write_member(w, "name", term.name);
  write_member(w, "slug", term.slug);
  write_member(w, "taxonomy", taxonomy_name(term.taxonomy));
  write_member(w, "description", term.description);
  write_key(w, "parent");
  w.Int64(term.parent);
  write_key(w, "count");
  w.Int64(term.count);
  write_member(w, "url", term_public_url(ctx, kind, term.slug));
  write_key(w, "urls");
  w.StartObject();
  write_member(w, "self", term_rest_url(ctx, kind, term.id));
  write_member(w, "collection", term_collection_url(ctx, kind));
  if (term.parent != 0) write_member(w, "up", term_rest_url(ctx, kind, term.parent));
  w.EndObject();
  w.EndObject();
}

std::vector<long long> resolve_terms_input(RequestContext& ctx, Taxonomy taxonomy,
                                           const rapidjson::Value& raw, std::string_view param) {
  const TermKind& kind = term_kind(taxonomy);
  // Shape, names and ids were checked by the validator (check_event_terms).
  const std::vector<TermInputItem> items = split_terms_input(raw).value_or(std::vector<TermInputItem>{});
  std::vector<long long> ids;
  for (const auto& item : items) {
    if (item.id > 0) {
      push_unique(ids, item.id);
      continue;
    }
    const std::string name = checked_term_name(ctx, item.name, param);
    if (const auto found = find_term_id_by_name(ctx.db, taxonomy, name)) {
      push_unique(ids, *found);
      continue;
    }
    // A new name creates a top-level term, for those who may create terms of this kind.
    if (!can_manage_terms(ctx, kind))
      throw ApiError{403, "rest_forbidden",
                     format_message(ctx.locale, "Sorry, you are not allowed to create the term %s.", {name})};
    Term term;
    term.taxonomy = taxonomy;
    term.name = name;
    term.slug = term_slug_from(kind, name);
    try {
      insert_term_row(ctx.db, term, true);
      push_unique(ids, term.id);
    } catch (const TermExists& e) {
      push_unique(ids, e.term_id);  // created meanwhile by someone else
    }
  }
  return ids;
}

std::vector<long long> resolve_terms_filter(RequestContext& ctx, Taxonomy taxonomy,
                                            const std::vector<std::string>& items) {
  return resolve_term_refs(ctx.db, taxonomy, items).ids;  // every item exists: resolve_term_filter
}

}  // namespace cal
