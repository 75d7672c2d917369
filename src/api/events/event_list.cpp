// GET /events (docs/api.md §4, §4.1): one page of events in UTC start order, a constant number of
// statements whatever per_page is (page + count, then the relations of the whole page at once).
#include "cal/api/events/event_filter.h"
#include "cal/api/events/event_record.h"
#include "cal/api/pipeline/bulkhead.h"
#include "cal/api/pipeline/handlers.h"
#include "cal/api/pipeline/listing.h"

namespace cal {

Response list_events(RequestContext& ctx) {
  const Paging paging = read_paging(ctx);
  const EventFilter filter = build_event_filter(ctx);
  PlannedWork work;
  work.event_list = plan_event_list(filter);
  const Admission admission = admit(ctx, work);
  const EventPage page = find_event_page(ctx.db, filter, paging.per_page, paging.offset());
  check_page_exists(paging, page.total, "event", ctx.locale);
  const EventRelations relations = load_event_relations(ctx.db, page.events);
  const ListEnvelope envelope{"events", ctx.ns_url() + "/events", effective_query(ctx, paging), paging,
                              page.total};
  return list_response(envelope, [&](JsonWriter& w) {
    // Lists never show a protected event's content (docs/api.md §3.5).
    for (const Event& e : page.events) write_event(w, ctx, e, relations, EventView::kMasked, false);
  });
}

}  // namespace cal
