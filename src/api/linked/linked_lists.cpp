// The venue and organizer lists (docs/api.md §4, §4.2; see cal/api/linked/linked_resource.h): one
// LinkedFilter for both from the validated parameters, the store's page of ids in name order,
// then the records in a constant number of statements.
#include "cal/api/linked/linked_resource.h"

#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/listing.h"
#include "cal/api/posts/post_access.h"
#include "cal/api/posts/site_time.h"
#include "cal/core/text/ascii.h"

namespace cal {
namespace {

LinkedFilter build_filter(RequestContext& ctx) {
  LinkedFilter f;
  f.visibility = list_visibility(ctx);
  if (ctx.params.given(param::kSearch)) f.search_words = ascii::words(ctx.params.text(param::kSearch));
  if (ctx.params.given(param::kEvent))
    f.event = ctx.params.integer(param::kEvent);  // it exists: check_event_id
  f.modified = modified_bounds(ctx);
  if (ctx.params.given(param::kHasEvents)) f.has_events = ctx.params.boolean(param::kHasEvents);
  if (ctx.params.boolean(param::kOnlyWithUpcoming)) {
    // "Ends after now": the answer holds for this second only (the response cache keeps it no longer).
    f.upcoming_after = now_seconds();
    f.upcoming_readers = readable_posts(ctx);
  }
  return f;
}

}  // namespace

Response list_linked(RequestContext& ctx, const LinkedResource& type) {
  const Paging paging = read_paging(ctx);
  const LinkedPage page =
      find_linked_page(ctx.db, type.kind.type, build_filter(ctx), paging.per_page, paging.offset());
  check_page_exists(paging, page.total, type.kind.kind, ctx.locale);
  ListEnvelope envelope{type.kind.collection, ctx.ns_url() + "/" + std::string(type.kind.collection),
                        effective_query(ctx, paging), paging, page.total};
  return list_response(envelope, [&](JsonWriter& w) { type.write_records(w, ctx, page.ids, false); });
}

}  // namespace cal
