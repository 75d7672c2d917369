// Post records (events, venues, organizers) as the API shows them: how each kind is named in
// codes, URLs and lists (PostKind), the addresses of a record, and the JSON every record starts with.
//
// Names of a kind of record, one per layer: the store knows the stored type (PostType, Taxonomy);
// the API describes a REST resource by its Kind (PostKind here, TermKind for categories and tags);
// LinkedResource (cal/api/linked/linked_resource.h) adds to a venue's or organizer's PostKind the
// hooks where the two differ. Handlers are `<verb>_<resource>`: list_events / get_event,
// list_linked / get_linked, list_terms / get_term.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/json.h"
#include "cal/api/pipeline/param_names.h"
#include "cal/store/posts.h"

#include <string>
#include <string_view>
#include <vector>

namespace cal {

// How a post-like resource is named in codes, URLs and lists.
struct PostKind {
  PostType type;
  std::string_view kind;         // "event": rest-event-not-found, event-is-in-trash, ...
  std::string_view collection;   // "events": REST path and list key
  std::string_view public_base;  // "event": {site_url}/event/{slug}/
  ParamName name_param;          // title, venue, organizer: the name field
};

extern const PostKind kEventKind;
extern const PostKind kVenueKind;
extern const PostKind kOrganizerKind;

// What trashing appends to a slug (docs/api.md §5) and restoring takes off again.
inline constexpr std::string_view kTrashSuffix = "__trashed";

// {site_url}/{public_base}/{slug}/
std::string public_url(const RequestContext& ctx, const PostKind& kind, std::string_view slug);
// {rest namespace}/{collection}/{id}
std::string record_rest_url(const RequestContext& ctx, const PostKind& kind, long long id);
// {site host}?id={id}
std::string global_id(const RequestContext& ctx, long long id);

// Writes the keys every post record starts with, in docs/api.md §3 order: id, global_id,
// global_id_lineage, author, status, date, date_utc, modified, modified_utc, url, rest_url,
// <name key>, description, excerpt, slug, image. The image is looked up in `images` by id.
void write_post_head(JsonWriter& w, const RequestContext& ctx, const PostKind& kind, const PostRow& row,
                     const std::vector<Image>& images);
// `false`, or {"url", "id", "extension"}.
void write_image(JsonWriter& w, const Image* image);

}  // namespace cal
