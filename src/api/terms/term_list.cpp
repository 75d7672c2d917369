// GET /categories and GET /tags (docs/api.md §4, §4.4): the request's filters checked and turned into
// one TermQuery, then one page in one statement.
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/listing.h"
#include "cal/api/posts/site_time.h"
#include "cal/api/terms/term_input.h"
#include "cal/api/terms/term_records.h"
#include "cal/api/terms/term_resource.h"
#include "cal/store/posts.h"

#include <algorithm>
#include <array>

namespace cal {
namespace {

struct OrderName {
  std::string_view name;
  TermOrder order;
};

constexpr std::array<OrderName, 6> kOrders = {{{"id", TermOrder::kId},
                                               {"name", TermOrder::kName},
                                               {"slug", TermOrder::kSlug},
                                               {"count", TermOrder::kCount},
                                               {"parent", TermOrder::kParent},
                                               {"description", TermOrder::kDescription}}};

// `event` (or its alias `post`; `event` wins): an event the caller may read. Sets the query's
// event; a password-protected event the caller may not edit shows no terms (docs/api.md §3.5).
void apply_event_filter(RequestContext& ctx, TermQuery& query) {
  const ParamName which = ctx.params.given(param::kEvent) ? param::kEvent : param::kPost;
  const long long id = ctx.params.integer(which);
  const auto event = find_post(ctx.db, PostType::kEvent, id);  // readable: check_readable_event
  if (!event) return;
  query.event_id = id;
  if (!event->password.empty() && !can_edit_post(ctx.caller, event->author, event->status))
    query.event_id = 0;  // no event has id 0: an empty list
}

}  // namespace

Response list_terms(RequestContext& ctx, const TermKind& kind) {
  const Paging paging = read_paging(ctx);
  TermQuery query;
  query.taxonomy = kind.taxonomy;
  query.include = ctx.params.integers(param::kInclude);
  query.exclude = ctx.params.integers(param::kExclude);
  if (kind.hierarchical && ctx.params.given(param::kParent))
    query.parent = ctx.params.integer(param::kParent);  // check_category_parent
  const bool by_event = ctx.params.given(param::kEvent) || ctx.params.given(param::kPost);
  if (by_event) apply_event_filter(ctx, query);
  // The terms of one event are shown whatever their count, unless hide_empty is sent.
  query.hide_empty =
      by_event && !ctx.params.given(param::kHideEmpty) ? false : ctx.params.boolean(param::kHideEmpty, true);
  query.search = ctx.params.text(param::kSearch);
  query.slug = ctx.params.text(param::kSlug);
  query.modified = modified_bounds(ctx);
  if (ctx.params.given(param::kOrderby))
    for (const auto& o : kOrders)
      if (o.name == ctx.params.text(param::kOrderby)) query.order_by = o.order;
  query.descending = ctx.params.text(param::kOrder) == "desc";
  query.limit = paging.per_page;
  query.offset = paging.offset();

  const TermPage page = find_term_page(ctx.db, query);
  check_page_exists(paging, page.total, kind.archive_kind, ctx.locale);
  ListEnvelope envelope{kind.collection, term_collection_url(ctx, kind), effective_query(ctx, paging), paging,
                        page.total};
  return list_response(envelope, [&](JsonWriter& w) {
    for (const Term& term : page.terms) write_term(w, ctx, term);
  });
}

}  // namespace cal
