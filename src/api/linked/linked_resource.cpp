// Read, create (with the dedupe rule), update and delete of venues and organizers (docs/api.md §5, §7;
// see cal/api/linked/linked_resource.h).
#include "cal/api/linked/linked_resource.h"

#include "cal/api/posts/post_access.h"
#include "cal/api/posts/post_record.h"
#include "cal/api/posts/post_writes.h"
#include "cal/store/linked_posts.h"

#include <algorithm>

namespace cal {
namespace {

// Whether `existing` holds what the create in `wanted` (as apply_post_fields made it) would store
// in every common field the request sent. The name was matched by the query.
bool post_fields_match(const RequestContext& ctx, const PostKind& kind, const PostRow& wanted,
                       const PostRow& existing) {
  const Params& p = ctx.params;
  if (p.given(param::kDescription) && wanted.content != existing.content) return false;
  if (p.given(param::kExcerpt) && wanted.excerpt != existing.excerpt) return false;
  if (p.given(param::kStatus) && wanted.status != existing.status) return false;
  if (p.given(param::kAuthor) && wanted.author != existing.author) return false;
  if ((p.given(param::kDate) || p.given(param::kDateUtc)) && wanted.date_utc != existing.date_utc)
    return false;
  if (p.given(param::kSlug) && wanted_slug(kind, p.text(param::kSlug)) != existing.slug) return false;
  if (p.given(param::kImage) && wanted.image_id != existing.image_id) return false;
  return true;
}

Response record_response(const RequestContext& ctx, const LinkedResource& type, long long id, int status,
                         bool single) {
  JsonBuffer buffer;
  JsonWriter w(buffer);
  type.write_records(w, ctx, {id}, single);
  return json_response(status, buffer);
}

}  // namespace

CreateOutcome create_or_reuse(RequestContext& ctx, const LinkedResource& type) {
  std::unique_ptr<DetailsDraft> draft = type.new_draft();
  draft->apply(ctx);
  PostRow row;
  apply_post_fields(ctx, type.kind, row, true);
  std::vector<long long> candidates;
  for (const PostRow& existing : find_live_posts_named(ctx.db, type.kind.type, row.title))
    if (can_read_post(ctx.caller, existing.author, existing.status) &&
        post_fields_match(ctx, type.kind, row, existing))
      candidates.push_back(existing.id);
  if (!candidates.empty()) {
    const std::vector<long long> twins = draft->matching(ctx, candidates);
    if (!twins.empty()) return {*std::min_element(twins.begin(), twins.end()), false};
  }
  insert_post(ctx.db, row);
  draft->save(ctx.db, row.id);
  return {row.id, true};
}

Response get_linked(RequestContext& ctx, const LinkedResource& type) {
  const PostRow row = load_target(ctx, type.kind);
  check_readable(ctx, type.kind, row);
  return record_response(ctx, type, row.id, 200, true);
}

Response create_linked(RequestContext& ctx, const LinkedResource& type) {
  Transaction tx(ctx.db);
  const CreateOutcome outcome = create_or_reuse(ctx, type);
  tx.commit();
  Response r = record_response(ctx, type, outcome.id, outcome.created ? 201 : 200, false);
  if (outcome.created) r.set_header("Location", record_rest_url(ctx, type.kind, outcome.id));
  return r;
}

Response update_linked(RequestContext& ctx, const LinkedResource& type) {
  const long long id = load_target(ctx, type.kind).id;
  Transaction tx(ctx.db);
  // Lock first, then read the latest version: concurrent updates apply one after the other.
  lock_post(ctx.db, id);
  PostRow row = load_target(ctx, type.kind);
  check_editable(ctx, row);
  std::unique_ptr<DetailsDraft> draft = type.new_draft();
  draft->load(ctx.db, row.id);
  draft->apply(ctx);
  const std::string slug_before = row.slug;
  apply_post_fields(ctx, type.kind, row, false);
  update_post(ctx.db, row, row.slug != slug_before);
  draft->save(ctx.db, row.id);
  tx.commit();
  return record_response(ctx, type, row.id, 200, false);
}

Response delete_linked(RequestContext& ctx, const LinkedResource& type) {
  const PostRow row = load_target(ctx, type.kind);
  return delete_post_record(
      ctx, type.kind, row, [&] { type.unlink(ctx.db, row.id); },
      [&](JsonWriter& w, const PostRow& record) { type.write_records(w, ctx, {record.id}, false); });
}

}  // namespace cal
