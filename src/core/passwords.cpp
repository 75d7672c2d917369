// Application password generation and hashing (see cal/core/passwords.h).
#include "cal/core/passwords.h"

#include <sodium.h>

#include <stdexcept>

namespace cal {
namespace {

void ensure_sodium() {
  static const int ready = sodium_init();
  if (ready < 0) throw std::runtime_error("libsodium failed to initialize");
}

}  // namespace

std::string generate_app_password() {
  ensure_sodium();
  unsigned char bytes[16];
  randombytes_buf(bytes, sizeof bytes);
  char encoded[sodium_base64_ENCODED_LEN(sizeof bytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
  sodium_bin2base64(encoded, sizeof encoded, bytes, sizeof bytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  sodium_memzero(bytes, sizeof bytes);
  return encoded;
}

PasswordHash hash_app_password(std::string_view password) {
  ensure_sodium();
  PasswordHash hash{};
  crypto_generichash(hash.data(), hash.size(), reinterpret_cast<const unsigned char*>(password.data()),
                     password.size(), nullptr, 0);
  return hash;
}

bool hashes_equal(const PasswordHash& a, const PasswordHash& b) {
  return sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace cal
