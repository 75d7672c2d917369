// Application passwords (docs/api.md §7): generation from the OS CSPRNG and hashing with libsodium.
// Passwords carry 128 random bits, so a fast keyless hash (BLAKE2b-256) is safe to store and
// lets a Bearer token be found by its hash in one indexed lookup.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace cal {

using PasswordHash = std::array<unsigned char, 32>;

// A new random password: 16 bytes from the CSPRNG as 22 URL-safe base64 characters (no ':').
std::string generate_app_password();

// BLAKE2b-256 of the password.
PasswordHash hash_app_password(std::string_view password);

// Compares two hashes in constant time.
bool hashes_equal(const PasswordHash& a, const PasswordHash& b);

}  // namespace cal
