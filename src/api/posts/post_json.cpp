// The leading keys of post records (see cal/api/posts/post_json.h).
#include "cal/api/posts/post_json.h"

#include "cal/api/posts/post_urls.h"
#include "cal/core/text/url.h"

namespace cal {

void write_image(JsonWriter& w, const Image* image) {
  if (!image) {
    w.Bool(false);
    return;
  }
  w.StartObject();
  write_member(w, "url", image->url);
  write_key(w, "id");
  w.Int64(image->id);
  write_member(w, "extension", url_extension(image->url));
  w.EndObject();
}

void write_post_head(JsonWriter& w, const RequestContext& ctx, const PostKind& kind, const PostRow& row,
                     const std::vector<Image>& images) {
  write_key(w, "id");
  w.Int64(row.id);
  const std::string gid = global_id(ctx, row.id);
  write_member(w, "global_id", gid);
  write_key(w, "global_id_lineage");
  w.StartArray();
  write_string(w, gid);
  w.EndArray();
  write_key(w, "author");
  w.Int64(row.author);
  write_member(w, "status", row.status);
  write_member(w, "date", row.date_local);
  write_member(w, "date_utc", row.date_utc);
  write_member(w, "modified", row.modified_local);
  write_member(w, "modified_utc", row.modified_utc);
  write_member(w, "url", public_url(ctx, kind, row.slug));
  write_member(w, "rest_url", record_rest_url(ctx, kind, row.id));
  write_member(w, kind.name_param, row.title);
  write_member(w, "description", row.content);
  write_member(w, "excerpt", row.excerpt);
  write_member(w, "slug", row.slug);
  write_key(w, "image");
  const Image* image = nullptr;
  for (const Image& i : images)
    if (i.id == row.image_id && row.image_id != 0) image = &i;
  write_image(w, image);
}

}  // namespace cal
