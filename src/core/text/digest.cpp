// SHA-256 by libsodium (see cal/core/text/digest.h).
#include "cal/core/text/digest.h"

#include <sodium.h>

namespace cal {

std::string sha256_bytes(std::string_view text) {
  std::string hash(crypto_hash_sha256_BYTES, '\0');
  crypto_hash_sha256(reinterpret_cast<unsigned char*>(hash.data()),
                     reinterpret_cast<const unsigned char*>(text.data()), text.size());
  return hash;
}

}  // namespace cal
