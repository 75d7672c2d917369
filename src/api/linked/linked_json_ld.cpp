// schema.org data of venues (`Place`) and organizers (`Organization`) (see
// cal/api/linked/linked_records.h): the `json_ld` of their single GET, and reusable inside events.
#include "cal/api/linked/linked_records.h"

#include "cal/api/posts/post_record.h"
#include "cal/core/text/ascii.h"

namespace cal {
namespace {

// The text of an HTML fragment: tags dropped, white space runs collapsed, ends trimmed.
std::string plain_text(std::string_view html) {
  std::string out;
  bool in_tag = false;
  bool space = false;
  for (char c : html) {
    if (in_tag) {
      if (c == '>') in_tag = false, space = true;
      continue;
    }
    if (c == '<') {
      in_tag = true;
      continue;
    }
    if (ascii::is_space(c)) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

void write_if_set(JsonWriter& w, std::string_view key, std::string_view value) {
  if (!value.empty()) write_member(w, key, value);
}

const Image* image_of(const PostRow& row, const std::vector<Image>& images) {
  if (row.image_id == 0) return nullptr;
  for (const Image& i : images)
    if (i.id == row.image_id) return &i;
  return nullptr;
}

// The keys every schema.org thing here starts with: @context, @type, name, description, image.
void write_thing_head(JsonWriter& w, std::string_view type, const PostRow& row,
                      const std::vector<Image>& images) {
  write_member(w, "@context", "http://schema.org");
  write_member(w, "@type", type);
  write_member(w, "name", row.title);
  write_if_set(w, "description", plain_text(row.content));
  if (const Image* image = image_of(row, images)) write_member(w, "image", image->url);
}

}  // namespace

void write_venue_json_ld(JsonWriter& w, const RequestContext& ctx, const Venue& venue,
                         const std::vector<Image>& images) {
  const VenueDetails& d = venue.details;
  w.StartObject();
  write_thing_head(w, "Place", venue.post, images);
  write_member(w, "url", public_url(ctx, kVenueKind, venue.post.slug));
  write_key(w, "address");
  w.StartObject();
  write_member(w, "@type", "PostalAddress");
  write_if_set(w, "streetAddress", d.address);
  write_if_set(w, "addressLocality", d.city);
  write_if_set(w, "addressRegion", d.stateprovince);
  write_if_set(w, "postalCode", d.zip);
  write_if_set(w, "addressCountry", d.country);
  w.EndObject();
  if (d.geo_lat && d.geo_lng) {
    write_key(w, "geo");
    w.StartObject();
    write_member(w, "@type", "GeoCoordinates");
    write_key(w, "latitude");
    w.Double(*d.geo_lat);
    write_key(w, "longitude");
    w.Double(*d.geo_lng);
    w.EndObject();
  }
  write_if_set(w, "telephone", d.phone);
  write_if_set(w, "sameAs", d.website);
  w.EndObject();
}

void write_organizer_json_ld(JsonWriter& w, const RequestContext& ctx, const Organizer& organizer,
                             const std::vector<Image>& images) {
  const OrganizerDetails& d = organizer.details;
  w.StartObject();
  write_thing_head(w, "Organization", organizer.post, images);
  write_member(w, "url",
               d.website.empty() ? public_url(ctx, kOrganizerKind, organizer.post.slug) : d.website);
  write_if_set(w, "telephone", d.phone);
  write_if_set(w, "email", d.email);
  write_if_set(w, "sameAs", d.website);
  w.EndObject();
}

}  // namespace cal
