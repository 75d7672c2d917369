// Finding the record a request names, the read and edit checks, and list visibility (see
// cal/api/posts/post_access.h).
#include "cal/api/posts/post_access.h"

#include "cal/api/pipeline/error.h"

#include <string>

namespace cal {

PostRow load_target(RequestContext& ctx, const PostKind& kind) {
  std::optional<PostRow> row;
  if (ctx.params.has(param::kId))
    row = find_post(ctx.db, kind.type, ctx.params.integer(param::kId));
  else
    row = find_post_by_slug(ctx.db, kind.type, ctx.params.text(param::kSlug));
  if (!row) {
    throw ApiError{404, "rest-" + std::string(kind.kind) + "-not-found",
                   format_message(ctx.locale, "The requested %s was not found.", {std::string(kind.kind)})};
  }
  return *row;
}

std::optional<PostRow> find_record(RequestContext& ctx, const PostKind& kind, long long id) {
  return find_post(ctx.db, kind.type, id);
}

void check_readable(RequestContext& ctx, const PostKind& kind, const PostRow& row) {
  const bool edit_context = ctx.params.text(param::kContext) == "edit";
  if (row.status == "trash") {
    if (edit_context && can_edit_post(ctx.caller, row.author, row.status)) return;
    throw ApiError{
        403, std::string(kind.kind) + "-no-longer-available",
        format_message(ctx.locale, "The requested %s is no longer available.", {std::string(kind.kind)})};
  }
  if (!can_read_post(ctx.caller, row.author, row.status))
    throw ApiError{
        403, std::string(kind.kind) + "-not-accessible",
        format_message(ctx.locale, "The requested %s is not accessible.", {std::string(kind.kind)})};
}

void check_editable(RequestContext& ctx, const PostRow& row) {
  const std::string status =
      row.status == "trash" && !row.status_before_trash.empty() ? row.status_before_trash : row.status;
  if (!can_edit_post(ctx.caller, row.author, status)) throw forbidden(ctx);
}

PostVisibility readable_posts(const RequestContext& ctx) {
  PostVisibility v;
  if (can_read_others_unpublished(ctx.caller)) {
    v.scope = ReadScope::kAll;
  } else if (!ctx.caller.is_visitor() && has_capability(ctx.caller, Capability::kEditPosts)) {
    v.scope = ReadScope::kPublishedAndOwn;
    v.user_id = ctx.caller.id();
  }
  return v;
}

PostVisibility list_visibility(RequestContext& ctx) {
  PostVisibility v = readable_posts(ctx);
  v.statuses = ctx.params.texts(param::kStatus);
  v.none_due = ctx.no_scheduled_due;
  if (ctx.caller.is_visitor()) {
    for (const auto& s : v.statuses)
      if (s != "publish")
        throw invalid_param(ctx, "status",
                            translate(ctx.locale, "status: visitors may only list published records."));
  }
  return v;
}

}  // namespace cal
