// Authorization header parsing and password hashing.
#include "cal/api/access/auth.h"
#include "cal/core/passwords.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

namespace {

struct HeaderCase {
  const char* header;
  bool ok;
  const char* login;  // nullptr: Bearer
  const char* password;
};

const HeaderCase kHeaderCases[] = {
    {"Bearer abc123", true, nullptr, "abc123"},
    {"bearer abc123", true, nullptr, "abc123"},
    {"Bearer   spaced  ", true, nullptr, "spaced"},
    {"Basic YWRtaW46c2VjcmV0", true, "admin", "secret"},      // admin:secret
    {"basic YWRtaW46c2VjIHJldA==", true, "admin", "secret"},  // admin:sec ret (spaces dropped)
    {"Basic YWRtaW46", true, "admin", ""},                    // admin:
    {"Basic OnNlY3JldA==", false, nullptr, nullptr},          // :secret (no login)
    {"Basic YWRtaW4=", false, nullptr, nullptr},              // admin (no colon)
    {"Basic !!!", false, nullptr, nullptr},
    {"Bearer", false, nullptr, nullptr},
    {"Bearer ", false, nullptr, nullptr},
    {"Digest abc", false, nullptr, nullptr},
    {"Bearerabc", false, nullptr, nullptr},
    {"", false, nullptr, nullptr},
};

}  // namespace

TEST_CASE("Authorization headers are parsed into credentials") {
  for (const auto& c : kHeaderCases) {
    CAPTURE(std::string(c.header));
    const auto creds = cal::parse_authorization(c.header);
    REQUIRE(creds.has_value() == c.ok);
    if (!c.ok) continue;
    CHECK(creds->password == c.password);
    if (c.login) {
      REQUIRE(creds->login.has_value());
      CHECK(*creds->login == c.login);
    } else {
      CHECK_FALSE(creds->login.has_value());
    }
  }
}

TEST_CASE("application passwords are random, 128-bit, and hash deterministically") {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const std::string pw = cal::generate_app_password();
    CHECK(pw.size() == 22);  // 16 bytes, URL-safe base64 without padding
    CHECK(pw.find(':') == std::string::npos);
    CHECK(seen.insert(pw).second);
  }
  const auto a = cal::hash_app_password("secret");
  CHECK(cal::hashes_equal(a, cal::hash_app_password("secret")));
  CHECK_FALSE(cal::hashes_equal(a, cal::hash_app_password("secreT")));
}
