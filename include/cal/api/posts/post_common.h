// What events, venues and organizers share: finding the record a path names, read and edit
// checks, the common writable fields (author, dates, status, slug, texts, image), trash and
// delete, list visibility, and the leading keys of their JSON records.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/json.h"
#include "cal/core/dates/dates.h"
#include "cal/store/post_visibility.h"
#include "cal/store/posts.h"

#include <functional>
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

// The problem with an `image` input (SPEC §3.4): "" for none, an absolute http(s) URL or the id of
// a known image (not looked up when `db` is null); else the localized message.
std::string image_problem(const rapidjson::Value& raw, const Locale& locale, Db* db);

// The current instant, and "now" as stored (UTC and site-local "YYYY-MM-DD HH:MM:SS").
Seconds now_seconds();
TimeZone site_zone(const RequestContext& ctx);

// The record named by the path (`id` or `slug`). Throws 404 rest-<kind>-not-found.
PostRow load_target(RequestContext& ctx, const PostKind& kind);
// Like load_target, for a record id named in a body or filter (no 404: nullopt when missing).
std::optional<PostRow> find_record(RequestContext& ctx, const PostKind& kind, long long id);

// GET checks: trashed → 403 <kind>-no-longer-available (unless context=edit by one who may edit);
// not readable → 403 <kind>-not-accessible.
void check_readable(RequestContext& ctx, const PostKind& kind, const PostRow& row);
// Edit/delete check: 403 rest_forbidden unless the caller may edit the record.
void check_editable(RequestContext& ctx, const PostRow& row);

// Applies the fields every post resource shares (author, date, date_utc, status, slug,
// description, excerpt, image, and the name field) to `row`, following SPEC §5: only sent fields
// change; on create the status and dates get their defaults. Throws ApiError for bad values.
void apply_post_fields(RequestContext& ctx, const PostKind& kind, PostRow& row, bool create);

// Slugs: wanted slug from a title or given text ("" → the kind name, e.g. "event").
std::string wanted_slug(const PostKind& kind, std::string_view text);

// DELETE of SPEC §5: trash (200 with the trashed record), 410 when already trashed, or with
// force (editors and up, else 403) permanent deletion → {"deleted": true, "previous": record}.
// `unlink` runs inside the transaction before trashing/deleting; `write_record` writes the record.
Response delete_post_record(RequestContext& ctx, const PostKind& kind, PostRow row,
                            const std::function<void()>& unlink,
                            const std::function<void(JsonWriter&, const PostRow&)>& write_record);

// The posts the caller may see in lists (SPEC §4.1), with the request's `status` filter. Throws
// 400 for statuses a visitor may not ask for.
PostVisibility list_visibility(RequestContext& ctx);
// The posts the caller may read in lists, whatever the request's `status`: for related records
// (e.g. "linked to an event visible to this caller").
PostVisibility readable_posts(const RequestContext& ctx);

std::string public_url(const RequestContext& ctx, const PostKind& kind, std::string_view slug);
std::string record_rest_url(const RequestContext& ctx, const PostKind& kind, long long id);
std::string global_id(const RequestContext& ctx, long long id);

// Writes the keys every post record starts with, in SPEC §3 order: id, global_id,
// global_id_lineage, author, status, date, date_utc, modified, modified_utc, url, rest_url,
// <name key>, description, excerpt, slug, image. The image is looked up in `images` by id.
void write_post_head(JsonWriter& w, const RequestContext& ctx, const PostKind& kind, const PostRow& row,
                     const std::vector<Image>& images);
// `false`, or {"url", "id", "extension"}.
void write_image(JsonWriter& w, const Image* image);

}  // namespace cal
