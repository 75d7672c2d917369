// SHA-256 of a text as raw bytes, for keys of values that have no length limit (the import's
// VEVENT UIDs, the images' source URLs): BINARY(32) columns with a unique index.
#pragma once

#include <string>
#include <string_view>

namespace cal {

// The 32 bytes of the SHA-256 of `text` (libsodium).
std::string sha256_bytes(std::string_view text);

}  // namespace cal
