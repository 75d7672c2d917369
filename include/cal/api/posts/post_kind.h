// How each post-like resource (events, venues, organizers) is named in error codes, URLs, lists
// and its name field: the one value the shared post logic is parameterized by.
//
// Names of a kind of record, one per layer: the store knows the stored type (PostType, Taxonomy);
// the API describes a REST resource by its Kind (PostKind here, TermKind for categories and tags);
// LinkedResource (cal/api/linked/linked_resource.h) adds to a venue's or organizer's PostKind the
// hooks where the two differ. Handlers are `<verb>_<resource>`: list_events / get_event,
// list_linked / get_linked, list_terms / get_term.
#pragma once

#include "cal/api/pipeline/param_names.h"
#include "cal/store/posts.h"

#include <string_view>

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

}  // namespace cal
