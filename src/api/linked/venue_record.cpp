// The venue record (docs/api.md §3.2) and what venues supply to the shared resource code: tables,
// searched columns, detail fields, writer (see cal/api/linked/linked_records.h, linked_resource.h).
#include "cal/api/linked/linked_fields.h"
#include "cal/api/linked/linked_records.h"
#include "cal/api/linked/linked_resource.h"
#include "cal/api/posts/post_record.h"

namespace cal {
namespace {

void write_optional_number(JsonWriter& w, std::string_view key, const std::optional<double>& value) {
  write_key(w, key);
  if (value)
    w.Double(*value);
  else
    w.Null();
}

class VenueDraft final : public DetailsDraft {
 public:
  void load(Db& db, long long id) override {
    const std::vector<Venue> found = find_venues(db, {id});
    if (!found.empty()) details_ = found.front().details;
  }
  void apply(const RequestContext& ctx) override {
    apply_venue_params(ctx.params, ctx.config.geoloc.enabled, details_);
  }
  std::vector<long long> matching(const RequestContext& ctx,
                                  const std::vector<long long>& candidates) override {
    std::vector<long long> out;
    for (const Venue& v : find_venues(ctx.db, candidates))
      if (venue_params_match(ctx.params, ctx.config.geoloc.enabled, details_, v.details))
        out.push_back(v.post.id);
    return out;
  }
  void save(Db& db, long long id) const override { save_venue_details(db, id, details_); }

 private:
  VenueDetails details_;
};

void write_venue_records(JsonWriter& w, const RequestContext& ctx, const std::vector<long long>& ids,
                         bool single) {
  if (ids.empty()) return;
  std::vector<Image> images;
  const std::vector<Venue> venues = find_venues(ctx.db, ids, &images);  // records and images: one statement
  for (long long id : ids)
    for (const Venue& v : venues)
      if (v.post.id == id) write_venue(w, ctx, v, images, single);
}

std::unique_ptr<DetailsDraft> new_venue_draft() { return std::make_unique<VenueDraft>(); }

}  // namespace

const LinkedResource kVenueResource{
    kVenueKind,
    write_venue_records,
    new_venue_draft,
    unlink_venue_from_events,
};

void write_venue(JsonWriter& w, const RequestContext& ctx, const Venue& venue,
                 const std::vector<Image>& images, bool single) {
  const VenueDetails& d = venue.details;
  w.StartObject();
  write_post_head(w, ctx, kVenueKind, venue.post, images);
  write_member(w, "address", d.address);
  write_member(w, "city", d.city);
  write_member(w, "country", d.country);
  write_member(w, "province", d.province);
  write_member(w, "state", d.state);
  write_member(w, "zip", d.zip);
  write_member(w, "phone", d.phone);
  write_member(w, "website", d.website);
  write_member(w, "stateprovince", d.stateprovince);
  write_key(w, "show_map");
  w.Bool(d.show_map);
  write_key(w, "show_map_link");
  w.Bool(d.show_map_link);
  write_optional_number(w, "geo_lat", d.geo_lat);
  write_optional_number(w, "geo_lng", d.geo_lng);
  if (single) {
    write_key(w, "json_ld");
    write_venue_json_ld(w, ctx, venue, images);
  }
  w.EndObject();
}

}  // namespace cal
