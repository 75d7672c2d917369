// GET /events (docs/api.md §4, §4.1), and GET and DELETE of one event by id or by slug
// (docs/api.md §2, §3.5, §5). Create and update are in event_writes.cpp.
#include "cal/api/events/event_filter.h"
#include "cal/api/events/event_fragments.h"
#include "cal/api/events/event_record.h"
#include "cal/api/pipeline/bulkhead.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/handlers.h"
#include "cal/api/pipeline/listing.h"
#include "cal/api/posts/post_access.h"
#include "cal/api/posts/post_writes.h"

namespace cal {
namespace {

// 403 event-password-protected: a single read of a protected event without the password.
ApiError event_password_protected(const RequestContext& ctx) {
  return ApiError{403, "event-password-protected", translate(ctx.locale, "The event is password protected.")};
}

// The stored event behind a post row found by load_target.
Event load_event(RequestContext& ctx, const PostRow& row) {
  std::vector<Event> found = find_events(ctx.db, {row.id});
  if (found.empty()) throw std::runtime_error("event " + std::to_string(row.id) + " has no details");
  return std::move(found.front());
}

}  // namespace

// One page of events in UTC start order, a constant number of statements whatever per_page is
// (page + count, then the relations of the whole page at once).
Response list_events(RequestContext& ctx) {
  const Paging paging = read_paging(ctx);
  const EventFilter filter = build_event_filter(ctx);
  PlannedWork work;
  work.event_list = plan_event_list(filter);
  const Admission admission = admit(ctx, work);
  const EventPage page = find_event_page(ctx.db, filter, paging.per_page, paging.offset());
  check_page_exists(paging, page.total, "event", ctx.locale);
  const ListEnvelope envelope{"events", ctx.ns_url() + "/events", effective_query(ctx, paging), paging,
                              page.total};
  // The records already rendered for an earlier answer are reused; relations are read for the rest.
  return list_response(envelope, [&](JsonWriter& w) { write_event_list(w, ctx, page.events); });
}

Response get_event(RequestContext& ctx) {
  // A record rendered for an earlier read, kept with the post row the checks read: no statement.
  if (ctx.params.has(param::kId))
    if (const auto kept = find_single_event(ctx, ctx.params.integer(param::kId))) {
      const PostRow& row = *static_cast<const PostRow*>(kept->source.get());
      check_readable(ctx, kEventKind, row);
      if (!event_unlocked(ctx, row)) throw event_password_protected(ctx);
      note_fragment_read(*kept);
      return json_response(200, kept->json);
    }
  // By id, the event and its relations come first, in one statement, and the checks run on its
  // post row: a read by id costs one statement. Computed for a caller who may then
  // not see it, as rare as a wrong id. By slug, or for no event by that id (the 404), the post
  // row is looked up first.
  std::optional<std::pair<Event, EventRelations>> loaded;
  if (ctx.params.has(param::kId)) loaded = load_event_with_relations(ctx.db, ctx.params.integer(param::kId));
  const PostRow row = loaded ? loaded->first.post : load_target(ctx, kEventKind);
  check_readable(ctx, kEventKind, row);
  if (!event_unlocked(ctx, row)) throw event_password_protected(ctx);
  if (!loaded) loaded = load_event_with_relations(ctx.db, row.id);
  if (!loaded) throw std::runtime_error("event " + std::to_string(row.id) + " has no details");
  JsonBuffer buffer;
  JsonWriter w(buffer);
  write_event(w, ctx, loaded->first, loaded->second, EventView::kFull, true);
  keep_single_event(ctx, loaded->first, loaded->second, buffer);
  return json_response(200, buffer);
}

Response delete_event(RequestContext& ctx) {
  const PostRow row = load_target(ctx, kEventKind);
  const Event event = load_event(ctx, row);
  const EventRelations relations = load_event_relations(ctx.db, {event});
  // The record as trashed (or as it was, when deleted for good); links stay with a trashed event
  // so that restoring it brings them back. The deleter has edit rights: nothing is masked.
  return delete_post_record(
      ctx, kEventKind, row, [] {},
      [&](JsonWriter& w, const PostRow& post) {
        Event shown = event;
        shown.post = post;
        write_event(w, ctx, shown, relations, EventView::kFull, false);
      });
}

}  // namespace cal
