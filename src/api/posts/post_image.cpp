// The `image` input: its check and its resolution to an image id (see cal/api/posts/post_image.h).
#include "cal/api/posts/post_image.h"

#include "cal/core/text/ascii.h"
#include "cal/core/text/numbers.h"
#include "cal/core/text/url.h"
#include "cal/store/posts.h"

#include <optional>
#include <string_view>

namespace cal {
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

}  // namespace cal
