// The `image` input of posts (docs/api.md §3.4): checking it during validation and turning it into the
// id of a stored image when a write applies it.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/core/i18n/i18n.h"
#include "cal/store/db.h"

#include <rapidjson/document.h>

#include <string>

namespace cal {

// The problem with an `image` input: "" for none, an absolute http(s) URL or the id of a known
// image (not looked up when `db` is null); else the localized message.
std::string image_problem(const rapidjson::Value& raw, const Locale& locale, Db* db);

// The image id the request's (already checked) `image` parameter names: 0 for none, the id
// given, or the id of the image stored for the URL given (created with `author` if new).
long long resolve_image(RequestContext& ctx, long long author, const std::string& now_utc);

}  // namespace cal
