// POST /events (create) and POST/PUT/PATCH /events/{id} and /events/by-slug/{slug} (update),
// docs/api.md §5: each write is one transaction; the response is the record as stored. The writes
// without their response are shared with the iCalendar import (cal/api/events/event_writes.h).
#include "cal/api/events/event_writes.h"
#include "cal/api/events/event_fields.h"
#include "cal/api/events/event_record.h"
#include "cal/api/pipeline/handlers.h"
#include "cal/api/posts/post_access.h"
#include "cal/api/posts/post_record.h"
#include "cal/api/posts/post_writes.h"
#include "cal/api/posts/site_time.h"
#include "cal/store/search_index.h"

namespace cal {
namespace {

// The written event's words go into the search index in its own transaction; a few events written
// by hand (the mysql client, calendarctl) are indexed along with it.
constexpr long long kPendingIndexedPerWrite = 16;

// The event as stored now (inside the write's transaction), written in full: the writer has
// edit rights, so a password hides nothing from them. One statement reads the event and its
// relations together (two before: a round trip of every write).
Response written_event(RequestContext& ctx, long long id, int status) {
  const auto loaded = load_event_with_relations(ctx.db, id);
  if (!loaded) throw std::runtime_error("event " + std::to_string(id) + " vanished during its write");
  JsonBuffer buffer;
  JsonWriter w(buffer);
  write_event(w, ctx, loaded->first, loaded->second, EventView::kFull, false);
  Response r = json_response(status, buffer);
  if (status == 201) r.set_header("Location", record_rest_url(ctx, kEventKind, id));
  return r;
}

}  // namespace

long long write_new_event(RequestContext& ctx) {
  Transaction tx(ctx.db);
  Event event;
  event.details.timezone = site_zone(ctx).name();
  apply_post_fields(ctx, kEventKind, event.post, true);
  apply_event_fields(ctx, event, true);
  insert_post(ctx.db, event.post);
  save_event_details(ctx.db, event.post.id, event.details);
  apply_event_links(ctx, event.post.id, true);
  if (ctx.config.search.index) index_pending_events(ctx.db, kPendingIndexedPerWrite, event.post.id);
  tx.commit();  // only counts down: the outermost transaction commits
  return event.post.id;
}

long long write_event_update(RequestContext& ctx) {
  const PostRow target = load_target(ctx, kEventKind);
  check_editable(ctx, target);
  Transaction tx(ctx.db);
  // Concurrent updates of one event apply one after the other, each to the latest version.
  lock_post(ctx.db, target.id);
  std::vector<Event> found = find_events(ctx.db, {target.id});
  if (found.empty()) throw std::runtime_error("event " + std::to_string(target.id) + " has no details");
  Event event = std::move(found.front());
  const std::string old_slug = event.post.slug;
  apply_post_fields(ctx, kEventKind, event.post, false);
  apply_event_fields(ctx, event, false);
  update_post(ctx.db, event.post, event.post.slug != old_slug);
  save_event_details(ctx.db, event.post.id, event.details);
  apply_event_links(ctx, event.post.id);
  if (ctx.config.search.index) index_pending_events(ctx.db, kPendingIndexedPerWrite, event.post.id);
  tx.commit();
  return event.post.id;
}

Response create_event(RequestContext& ctx) {
  Transaction tx(ctx.db);
  Response r = written_event(ctx, write_new_event(ctx), 201);
  tx.commit();
  return r;
}

Response update_event(RequestContext& ctx) {
  Transaction tx(ctx.db);
  Response r = written_event(ctx, write_event_update(ctx), 200);
  tx.commit();
  return r;
}

}  // namespace cal
