// Authentication (docs/api.md §7): application passwords sent as `Authorization: Basic` or `Bearer`.
#pragma once

#include "cal/api/access/permissions.h"
#include "cal/core/i18n/i18n.h"
#include "cal/store/db.h"

#include <optional>
#include <string>
#include <string_view>

namespace cal {

// What an Authorization header carries; nullopt login for Bearer.
struct Credentials {
  std::optional<std::string> login;
  std::string password;
};

// Parses an Authorization header value. nullopt when it is malformed or of another scheme.
std::optional<Credentials> parse_authorization(std::string_view header);

// The caller of a request with this Authorization header value: a visitor when it is empty.
// Throws ApiError 401 rest_invalid_credentials for anything else that does not name a user.
Caller authenticate(std::string_view authorization, Db& db, const Locale& locale);

}  // namespace cal
