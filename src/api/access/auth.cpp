// Authorization header parsing and application-password lookup (see cal/api/access/auth.h).
#include "cal/api/access/auth.h"

#include "cal/api/pipeline/error.h"
#include "cal/core/passwords.h"
#include "cal/core/text/ascii.h"
#include "cal/store/users.h"

#include <sodium.h>

namespace cal {
namespace {

using ascii::trim;

bool starts_with_scheme(std::string_view header, std::string_view scheme) {
  return header.size() > scheme.size() && ascii::starts_with_ignoring_case(header, scheme) &&
         header[scheme.size()] == ' ';
}

std::optional<std::string> decode_base64(std::string_view text) {
  std::string out(text.size(), '\0');
  size_t len = 0;
  if (sodium_init() < 0) return std::nullopt;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(), text.size(),
                        nullptr, &len, nullptr, sodium_base64_VARIANT_ORIGINAL) != 0)
    return std::nullopt;
  out.resize(len);
  return out;
}

ApiError invalid_credentials(const Locale& locale) {
  return ApiError{401, "rest_invalid_credentials", translate(locale, "Invalid credentials.")};
}

}  // namespace

std::optional<Credentials> parse_authorization(std::string_view header) {
  header = trim(header);
  if (starts_with_scheme(header, "Bearer")) {
    const std::string_view token = trim(header.substr(6));
    if (token.empty()) return std::nullopt;
    return Credentials{std::nullopt, std::string(token)};
  }
  if (starts_with_scheme(header, "Basic")) {
    const auto decoded = decode_base64(trim(header.substr(5)));
    if (!decoded) return std::nullopt;
    const auto colon = decoded->find(':');
    if (colon == std::string::npos || colon == 0) return std::nullopt;
    // Application passwords may be shown grouped with spaces; the spaces are not part of them.
    std::string password;
    for (char c : decoded->substr(colon + 1))
      if (c != ' ') password += c;
    return Credentials{decoded->substr(0, colon), password};
  }
  return std::nullopt;
}

Caller authenticate(std::string_view authorization, Db& db, const Locale& locale) {
  if (trim(authorization).empty()) return Caller{};
  const auto credentials = parse_authorization(authorization);
  if (!credentials || credentials->password.empty()) throw invalid_credentials(locale);
  const PasswordHash hash = hash_app_password(credentials->password);
  auto user = find_user_by_password_hash(db, hash);
  if (!user || !hashes_equal(user->matched_hash, hash)) throw invalid_credentials(locale);
  if (credentials->login && *credentials->login != user->login) throw invalid_credentials(locale);
  return Caller{std::move(user)};
}

}  // namespace cal
