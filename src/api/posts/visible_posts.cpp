// The caller's list visibility (see cal/api/posts/visible_posts.h).
#include "cal/api/posts/visible_posts.h"

#include "cal/api/pipeline/error.h"

namespace cal {

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
  if (ctx.caller.is_visitor()) {
    for (const auto& s : v.statuses)
      if (s != "publish")
        throw invalid_param(ctx, "status",
                            translate(ctx.locale, "status: visitors may only list published records."));
  }
  return v;
}

}  // namespace cal
