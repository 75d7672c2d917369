// The two term kinds, their URLs, and reading one term (see cal/api/terms/term_resource.h).
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/json.h"
#include "cal/api/terms/term_records.h"
#include "cal/api/terms/term_resource.h"
#include "cal/core/text/url.h"

namespace cal {

const TermKind kCategoryKind{Taxonomy::kCategory, "categories", "category", "events/category", true};
const TermKind kTagKind{Taxonomy::kTag, "tags", "tag", "events/tag", false};

const TermKind& term_kind(Taxonomy taxonomy) { return taxonomy == Taxonomy::kTag ? kTagKind : kCategoryKind; }

std::string term_collection_url(const RequestContext& ctx, const TermKind& kind) {
  return ctx.ns_url() + "/" + std::string(kind.collection);
}

std::string term_rest_url(const RequestContext& ctx, const TermKind& kind, long long id) {
  return term_collection_url(ctx, kind) + "/" + std::to_string(id);
}

std::string term_public_url(const RequestContext& ctx, const TermKind& kind, std::string_view slug) {
  return ctx.site_url + "/" + std::string(kind.public_base) + "/" + url_encode(slug) + "/";
}

Term load_term(RequestContext& ctx, const TermKind& kind) {
  auto term = find_term(ctx.db, kind.taxonomy, ctx.params.integer(param::kId));
  if (!term) throw ApiError{404, "rest_term_invalid", translate(ctx.locale, "Term does not exist.")};
  return *term;
}

Response get_term(RequestContext& ctx, const TermKind& kind) {
  const Term term = load_term(ctx, kind);
  JsonBuffer buffer;
  JsonWriter w(buffer);
  write_term(w, ctx, term);
  return json_response(200, buffer);
}

}  // namespace cal
