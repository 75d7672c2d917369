// POST /categories, POST|PUT|PATCH /categories/{id}, DELETE /categories/{id} and the same for
// tags (docs/api.md §5): one transaction per write, clashes answered with 409 term_exists.
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/json.h"
#include "cal/api/terms/term_input.h"
#include "cal/api/terms/term_records.h"
#include "cal/api/terms/term_resource.h"
#include "cal/core/text/slug.h"

namespace cal {
namespace {

// An explicit slug, normalized like generated ones (something is left of it: check_term_slug).
std::string checked_slug(RequestContext& ctx) { return slugify(ctx.params.text(param::kSlug)); }

// A category's new parent: 0, or an existing category that is neither the term itself nor
// below it (no cycles). `self` is 0 on create.
long long checked_parent(RequestContext& ctx, long long self) {
  const long long parent = ctx.params.integer(param::kParent);
  if (parent == 0) return 0;  // else an existing category: check_category_parent
  if (self != 0 && is_same_or_descendant(ctx.db, parent, self))
    throw invalid_param(
        ctx, "parent",
        translate(ctx.locale, "parent must not be the category itself or one of its descendants."));
  return parent;
}

Response term_response(RequestContext& ctx, int status, const Term& term) {
  JsonBuffer buffer;
  JsonWriter w(buffer);
  write_term(w, ctx, term);
  return json_response(status, buffer);
}

}  // namespace

Response create_term(RequestContext& ctx, const TermKind& kind) {
  Term term;
  term.taxonomy = kind.taxonomy;
  term.name = checked_term_name(ctx, ctx.params.text(param::kName), "name");
  const bool explicit_slug = ctx.params.given(param::kSlug);
  term.slug = explicit_slug ? checked_slug(ctx) : term_slug_from(kind, term.name);
  if (ctx.params.given(param::kDescription))
    term.description = checked_term_description(ctx, ctx.params.text(param::kDescription));
  Transaction tx(ctx.db);
  if (kind.hierarchical && ctx.params.given(param::kParent)) term.parent = checked_parent(ctx, 0);
  try {
    insert_term_row(ctx.db, term, !explicit_slug);
  } catch (const TermExists& e) {
    throw term_exists_error(ctx, e.term_id);
  }
  tx.commit();
  Response r = term_response(ctx, 201, term);
  r.set_header("Location", term_rest_url(ctx, kind, term.id));
  return r;
}

Response update_term(RequestContext& ctx, const TermKind& kind) {
  Transaction tx(ctx.db);
  Term term = load_term(ctx, kind);
  if (ctx.params.given(param::kName))
    term.name = checked_term_name(ctx, ctx.params.text(param::kName), "name");
  if (ctx.params.given(param::kSlug)) term.slug = checked_slug(ctx);
  if (ctx.params.given(param::kDescription))
    term.description = checked_term_description(ctx, ctx.params.text(param::kDescription));
  if (kind.hierarchical && ctx.params.given(param::kParent)) term.parent = checked_parent(ctx, term.id);
  try {
    update_term_row(ctx.db, term, false);
  } catch (const TermExists& e) {
    throw term_exists_error(ctx, e.term_id);
  }
  tx.commit();
  return term_response(ctx, 200, term);
}

Response delete_term(RequestContext& ctx, const TermKind& kind) {
  Transaction tx(ctx.db);
  const Term term = load_term(ctx, kind);
  try {
    delete_term_row(ctx.db, term);
  } catch (const TermExists& e) {
    ApiError error = term_exists_error(ctx, e.term_id);
    error.message =
        translate(ctx.locale, "A child of this category has the same name as a category at its new level.");
    throw error;
  }
  tx.commit();
  return term_response(ctx, 200, term);
}

}  // namespace cal
