// GET and DELETE of one event, by id or by slug (docs/api.md §2, §3.5, §5). The list is in
// event_list.cpp, create and update in event_writes.cpp.
#include "cal/api/events/event_record.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/pipeline/handlers.h"
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

Response get_event(RequestContext& ctx) {
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
