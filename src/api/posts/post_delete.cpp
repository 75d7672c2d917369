// Trashing and deleting post records (see cal/api/posts/post_delete.h).
#include "cal/api/posts/post_delete.h"

#include "cal/api/pipeline/error.h"
#include "cal/api/posts/post_access.h"
#include "cal/api/posts/site_time.h"

#include <string>

namespace cal {

Response delete_post_record(RequestContext& ctx, const PostKind& kind, PostRow row,
                            const std::function<void()>& unlink,
                            const std::function<void(JsonWriter&, const PostRow&)>& write_record) {
  check_editable(ctx, row);
  const bool force = ctx.params.boolean(param::kForce);
  if (force && !can_force_delete(ctx.caller)) throw forbidden(ctx);
  if (!force && row.status == "trash")
    throw ApiError{410, std::string(kind.kind) + "-is-in-trash",
                   format_message(ctx.locale, "The %s has already been trashed.", {std::string(kind.kind)})};
  JsonBuffer buffer;
  JsonWriter w(buffer);
  Transaction tx(ctx.db);
  if (force) {
    // The record as it was, written before the rows go.
    w.StartObject();
    write_key(w, "deleted");
    w.Bool(true);
    write_key(w, "previous");
    write_record(w, row);
    w.EndObject();
    unlink();
    delete_post(ctx.db, row.id);
  } else {
    unlink();
    row.status_before_trash = row.status;
    row.status = "trash";
    row.slug += kTrashSuffix;
    const Seconds now = now_seconds();
    row.modified_utc = format_date_time(to_utc_date_time(now));
    row.modified_local = format_date_time(site_zone(ctx).to_local(now));
    update_post(ctx.db, row, true);
    write_record(w, row);
  }
  tx.commit();
  return json_response(200, buffer);
}

}  // namespace cal
