// Categories and tags as REST resources: how each taxonomy is named in paths, codes and public
// URLs, and the five operations (list, read, create, update, delete) written once and
// parametrised by that description; the route table (src/api/pipeline/routes.cpp) binds them to
// the ten routes. Implemented in src/api/terms/: term_kind.cpp (kinds, URLs, load_term),
// term_list.cpp (the list) and term_writes.cpp (create, update, delete; get is in term_kind.cpp).
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/store/terms.h"

#include <string>
#include <string_view>

namespace cal {

struct TermKind {
  Taxonomy taxonomy;
  std::string_view collection;    // "categories": REST path segment and list key
  std::string_view archive_kind;  // "category": category-archive-page-not-found
  std::string_view public_base;   // "events/category": {site_url}/events/category/{slug}/
  bool hierarchical;              // categories have parents, tags do not
};

extern const TermKind kCategoryKind;
extern const TermKind kTagKind;

// The description of a taxonomy.
const TermKind& term_kind(Taxonomy taxonomy);

// "{ns}/categories" and "{ns}/categories/{id}".
std::string term_collection_url(const RequestContext& ctx, const TermKind& kind);
std::string term_rest_url(const RequestContext& ctx, const TermKind& kind, long long id);
// "{site_url}/events/category/{slug}/".
std::string term_public_url(const RequestContext& ctx, const TermKind& kind, std::string_view slug);

// The term the path's `id` names. Throws 404 rest_term_invalid when it is no term of this kind.
Term load_term(RequestContext& ctx, const TermKind& kind);

// GET collection (docs/api.md §4, §4.4): filters, order, paging, envelope.
Response list_terms(RequestContext& ctx, const TermKind& kind);
// GET item: 200 with the term.
Response get_term(RequestContext& ctx, const TermKind& kind);
// POST collection (docs/api.md §5): 201 with the term and Location; 409 term_exists on a clash.
Response create_term(RequestContext& ctx, const TermKind& kind);
// POST/PUT/PATCH item: only the fields sent change; 200 with the term.
Response update_term(RequestContext& ctx, const TermKind& kind);
// DELETE item: permanent; 200 with the term as it was; children move up, events lose it.
Response delete_term(RequestContext& ctx, const TermKind& kind);

}  // namespace cal
