// The organizer record (docs/api.md §3.2) and what organizers supply to the shared resource code:
// tables, searched columns, detail fields, writer (see cal/api/linked/linked_records.h,
// linked_resource.h).
#include "cal/api/linked/linked_fields.h"
#include "cal/api/linked/linked_records.h"
#include "cal/api/linked/linked_resource.h"
#include "cal/api/posts/post_record.h"

namespace cal {
namespace {

class OrganizerDraft final : public DetailsDraft {
 public:
  void load(Db& db, long long id) override {
    const std::vector<Organizer> found = find_organizers(db, {id});
    if (!found.empty()) details_ = found.front().details;
  }
  void apply(const RequestContext& ctx) override { apply_organizer_params(ctx.params, details_); }
  std::vector<long long> matching(const RequestContext& ctx,
                                  const std::vector<long long>& candidates) override {
    std::vector<long long> out;
    for (const Organizer& o : find_organizers(ctx.db, candidates))
      if (organizer_params_match(ctx.params, details_, o.details)) out.push_back(o.post.id);
    return out;
  }
  void save(Db& db, long long id) const override { save_organizer_details(db, id, details_); }

 private:
  OrganizerDetails details_;
};

void write_organizer_records(JsonWriter& w, const RequestContext& ctx, const std::vector<long long>& ids,
                             bool single) {
  if (ids.empty()) return;
  std::vector<Image> images;
  const std::vector<Organizer> organizers =
      find_organizers(ctx.db, ids, &images);  // records and images: one statement
  for (long long id : ids)
    for (const Organizer& o : organizers)
      if (o.post.id == id) write_organizer(w, ctx, o, images, single);
}

std::unique_ptr<DetailsDraft> new_organizer_draft() { return std::make_unique<OrganizerDraft>(); }

}  // namespace

const LinkedResource kOrganizerResource{
    kOrganizerKind,
    write_organizer_records,
    new_organizer_draft,
    unlink_organizer_from_events,
};

void write_organizer(JsonWriter& w, const RequestContext& ctx, const Organizer& organizer,
                     const std::vector<Image>& images, bool single) {
  const OrganizerDetails& d = organizer.details;
  w.StartObject();
  write_post_head(w, ctx, kOrganizerKind, organizer.post, images);
  write_member(w, "phone", d.phone);
  write_member(w, "website", d.website);
  write_member(w, "email", d.email);
  if (single) {
    write_key(w, "json_ld");
    write_organizer_json_ld(w, ctx, organizer, images);
  }
  w.EndObject();
}

}  // namespace cal
