// The post kinds, the addresses of post records and their leading keys (see
// cal/api/posts/post_record.h).
#include "cal/api/posts/post_record.h"

#include "cal/core/text/url.h"

namespace cal {

const PostKind kEventKind{PostType::kEvent, "event", "events", "event", param::kTitle};
const PostKind kVenueKind{PostType::kVenue, "venue", "venues", "venue", param::kVenue};
const PostKind kOrganizerKind{PostType::kOrganizer, "organizer", "organizers", "organizer",
                              param::kOrganizer};

std::string public_url(const RequestContext& ctx, const PostKind& kind, std::string_view slug) {
  return ctx.site_url + "/" + std::string(kind.public_base) + "/" + url_encode(slug) + "/";
}

std::string record_rest_url(const RequestContext& ctx, const PostKind& kind, long long id) {
  return ctx.ns_url() + "/" + std::string(kind.collection) + "/" + std::to_string(id);
}

std::string global_id(const RequestContext& ctx, long long id) {
  std::string host = ctx.site_url;
  if (const auto scheme = host.find("://"); scheme != std::string::npos) host = host.substr(scheme + 3);
  return host + "?id=" + std::to_string(id);
}

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
