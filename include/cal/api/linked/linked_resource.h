// The REST resources venues and organizers, implemented once: the list of docs/api.md §4/§4.2 (paging,
// name order, search, event, has_events, only_with_upcoming, status), read, create with the
// dedupe rule, partial update, trash/delete with unlinking (docs/api.md §5, §7). Each record type
// supplies only what differs (a LinkedResource): its PostKind, its detail fields and its writer.
// Implemented in linked_resource.cpp (read, create, update, delete) and linked_lists.cpp (the
// list); kVenueResource and kOrganizerResource in venue_record.cpp and organizer_record.cpp.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/json.h"
#include "cal/api/posts/post_record.h"
#include "cal/store/linked_posts.h"

#include <memory>
#include <string_view>
#include <vector>

namespace cal {

// The detail fields of one write of a venue or an organizer.
class DetailsDraft {
 public:
  virtual ~DetailsDraft() = default;
  // Starts from the stored details of record `id` (updates; a create starts from the defaults).
  virtual void load(Db& db, long long id) = 0;
  // Applies the detail fields sent in ctx.params. Throws ApiError 400 for bad values.
  virtual void apply(const RequestContext& ctx) = 0;
  // The ids among `candidates` whose stored details hold every detail field sent in ctx.params
  // as this draft has it.
  virtual std::vector<long long> matching(const RequestContext& ctx,
                                          const std::vector<long long>& candidates) = 0;
  // Stores the draft as the details of record `id`.
  virtual void save(Db& db, long long id) const = 0;
};

// What a linked record type supplies to the shared code: its naming (PostKind, which also holds
// its PostType in the store) and the hooks where venues and organizers differ.
struct LinkedResource {
  const PostKind& kind;
  // Writes the records of `ids`, in that order, as stored; `single` adds `json_ld`. A constant
  // number of statements.
  void (*write_records)(JsonWriter& w, const RequestContext& ctx, const std::vector<long long>& ids,
                        bool single);
  // A draft with the default details, for one create or update.
  std::unique_ptr<DetailsDraft> (*new_draft)();
  // Removes the links events hold to record `id`.
  void (*unlink)(Db& db, long long id);
};

extern const LinkedResource kVenueResource;
extern const LinkedResource kOrganizerResource;

// GET collection: the docs/api.md §4 list in name order, with the filters of §4.2.
Response list_linked(RequestContext& ctx, const LinkedResource& type);
// GET by id or slug: the record with `json_ld`; trash and visibility checks of docs/api.md §2.
Response get_linked(RequestContext& ctx, const LinkedResource& type);
// POST collection: 201 with the new record and Location, or 200 with its existing twin.
Response create_linked(RequestContext& ctx, const LinkedResource& type);
// POST/PUT/PATCH by id or slug: only the sent fields change; 200 with the record.
Response update_linked(RequestContext& ctx, const LinkedResource& type);
// DELETE by id or slug: trash (unlinking it from events), 410 when in trash, or `force`.
Response delete_linked(RequestContext& ctx, const LinkedResource& type);

struct CreateOutcome {
  long long id = 0;
  bool created = false;  // false: an existing twin was reused (docs/api.md §5 dedupe)
};

// Creates a record from ctx.params, unless a non-trashed record the caller may read has the
// same name (case-insensitive) and every other sent field: then that one, unchanged. Runs inside
// the caller's transaction; throws ApiError for bad input.
CreateOutcome create_or_reuse(RequestContext& ctx, const LinkedResource& type);

}  // namespace cal
