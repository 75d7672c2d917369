// Applying the shared post fields, the `image` input, trashing and deleting (see
// cal/api/posts/post_writes.h).
#include "cal/api/posts/post_writes.h"

#include "cal/api/pipeline/error.h"
#include "cal/api/posts/post_access.h"
#include "cal/api/posts/site_time.h"
#include "cal/core/text/ascii.h"
#include "cal/core/text/html_sanitizer.h"
#include "cal/core/text/numbers.h"
#include "cal/core/text/slug.h"
#include "cal/core/text/url.h"
#include "cal/store/posts.h"

#include <optional>
#include <string>
#include <string_view>

namespace cal {

namespace {

// Parses a date parameter in `zone` (already validated as parseable by the router).
Seconds date_param(RequestContext& ctx, ParamName name, const TimeZone& zone) {
  const auto parsed = parse_date(ctx.params.text(name), zone, now_seconds());
  if (!parsed)
    throw invalid_param(ctx, std::string(name),
                        format_message(ctx.locale, "%s is not a valid date.", {std::string(name)}));
  return parsed->instant;
}

// Texts from authors and contributors go through the HTML allow-list (docs/api.md §7). The sanitizer
// cuts what exceeds its parse budget, so longer texts are refused rather than silently shortened.
std::string allowed_html(const RequestContext& ctx, std::string_view name, const std::string& text) {
  if (can_post_unfiltered_html(ctx.caller)) return text;
  if (text.size() > kMaxSanitizedHtmlBytes)
    throw invalid_param(ctx, std::string(name),
                        format_message(ctx.locale, "%s is too long: at most %s bytes of HTML are accepted.",
                                       {std::string(name), std::to_string(kMaxSanitizedHtmlBytes)}));
  return sanitize_html(text);
}

// The status a create or update ends with (docs/api.md §5 "Status on create").
std::string resolve_status(RequestContext& ctx, const PostRow& row, bool create, Seconds publish_instant) {
  std::string status = row.status;
  if (ctx.params.given(param::kStatus))
    status = ctx.params.text(param::kStatus);
  else if (create)
    status = can_publish_post(ctx.caller, row.author) ? "publish" : "draft";
  const bool wants_public = status == "publish" || status == "future" || status == "private";
  const bool changes = create || status != row.status;
  if (changes && wants_public && !can_publish_post(ctx.caller, row.author)) status = "pending";
  if (status == "publish" && publish_instant > now_seconds()) status = "future";
  if (status == "future" && publish_instant <= now_seconds()) status = "publish";
  return status;
}

}  // namespace

std::string wanted_slug(const PostKind& kind, std::string_view text) {
  std::string slug = slugify(text);
  return slug.empty() ? std::string(kind.kind) : slug;
}

void apply_post_fields(RequestContext& ctx, const PostKind& kind, PostRow& row, bool create) {
  const TimeZone zone = site_zone(ctx);
  const Seconds now = now_seconds();
  const std::string now_utc = format_date_time(to_utc_date_time(now));
  row.type = kind.type;
  // posts.title and posts.excerpt are TEXT columns: longer values would be a database error.
  constexpr std::size_t kTextColumnBytes = 65535;
  for (const ParamName field : {kind.name_param, param::kExcerpt})
    if (ctx.params.given(field) && ctx.params.text(field).size() > kTextColumnBytes)
      throw invalid_param(ctx, std::string(field),
                          format_message(ctx.locale, "%s is too long.", {std::string(field)}));
  // Author: the caller by default; someone else needs edit_others and must exist.
  if (create) row.author = ctx.caller.id();
  if (ctx.params.given(param::kAuthor)) {
    const long long author = ctx.params.integer(param::kAuthor);
    if (author != row.author || create) {
      if (author != ctx.caller.id() && !can_edit_others(ctx.caller))
        throw forbidden(ctx);  // exists: check_author
      row.author = author;
    }
  }
  // Publication date: date_utc wins over date; default now on create.
  Seconds publish =
      create ? now : from_utc_date_time(parse_sql_date_time(row.date_utc).value_or(LocalDateTime{}));
  if (ctx.params.given(param::kDateUtc))
    publish = date_param(ctx, param::kDateUtc, TimeZone::utc());
  else if (ctx.params.given(param::kDate))
    publish = date_param(ctx, param::kDate, zone);
  if (create || ctx.params.given(param::kDate) || ctx.params.given(param::kDateUtc)) {
    row.date_utc = format_date_time(to_utc_date_time(publish));
    row.date_local = format_date_time(zone.to_local(publish));
  }
  row.modified_utc = now_utc;
  row.modified_local = format_date_time(zone.to_local(now));
  if (ctx.params.given(kind.name_param)) row.title = ctx.params.text(kind.name_param);
  if (ctx.params.given(param::kDescription))
    row.content = allowed_html(ctx, "description", ctx.params.text(param::kDescription));
  if (ctx.params.given(param::kExcerpt))
    row.excerpt = allowed_html(ctx, "excerpt", ctx.params.text(param::kExcerpt));
  // Status, with restore from trash when an update sets one.
  const bool restoring = !create && row.status == "trash" && ctx.params.given(param::kStatus);
  if (restoring) {
    row.status = row.status_before_trash.empty() ? "draft" : row.status_before_trash;
    row.status_before_trash.clear();
    if (std::string_view(row.slug).ends_with(kTrashSuffix))
      row.slug.resize(row.slug.size() - kTrashSuffix.size());
  }
  if (create || ctx.params.given(param::kStatus)) row.status = resolve_status(ctx, row, create, publish);
  if (create)
    row.slug = wanted_slug(kind, ctx.params.given(param::kSlug) ? ctx.params.text(param::kSlug) : row.title);
  // On by-slug routes (no `id`) the `slug` parameter is the path naming the record, not a rename.
  else if (ctx.params.given(param::kSlug) && ctx.params.has(param::kId))
    row.slug = wanted_slug(kind, ctx.params.text(param::kSlug));
  if (ctx.params.given(param::kImage)) row.image_id = resolve_image(ctx, row.author, now_utc);
}

namespace {

// The image id an `image` input names (digits or a JSON integer); nullopt when it is not an id.
std::optional<long long> image_id(const rapidjson::Value& raw) {
  if (raw.IsInt64()) return raw.GetInt64();
  if (!raw.IsString()) return std::nullopt;
  const std::string_view text(raw.GetString(), raw.GetStringLength());
  if (!ascii::all_digits(text)) return std::nullopt;
  return parse_id(text).value_or(0);  // beyond 64 bits: an id no image has (was cut to 18 digits)
}

bool is_no_image(const rapidjson::Value& raw) {
  return raw.IsNull() || (raw.IsBool() && !raw.GetBool()) || (raw.IsString() && raw.GetStringLength() == 0);
}

}  // namespace

std::string image_problem(const rapidjson::Value& raw, const Locale& locale, Db* db) {
  if (is_no_image(raw)) return "";
  if (const auto id = image_id(raw)) {
    if (*id > 0 && (!db || find_image(*db, *id))) return "";
    return translate(locale, "image names no known image.");
  }
  if (raw.IsString() && raw.GetStringLength() <= 2048 &&
      is_absolute_http_url({raw.GetString(), raw.GetStringLength()}))
    return "";
  return translate(locale, "image must be an image id or an absolute http(s) URL.");
}

// The image parameter (checked by check_image): an id of a known image, or an absolute URL.
long long resolve_image(RequestContext& ctx, long long author, const std::string& now_utc) {
  const rapidjson::Value& raw = *ctx.params.find(param::kImage)->raw;
  if (is_no_image(raw)) return 0;
  if (const auto id = image_id(raw)) return *id;
  return find_or_create_image(ctx.db, std::string(raw.GetString(), raw.GetStringLength()), author, now_utc);
}

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
