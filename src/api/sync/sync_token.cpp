// The sync token codec (see cal/api/sync/sync_token.h).
#include "cal/api/sync/sync_token.h"

#include <sodium.h>

#include <charconv>
#include <cstdint>
#include <vector>

namespace cal {
namespace {

// FNV-1a, 32 bits: not a secret (tokens carry nothing to protect), only a check that the text
// came out of encode_sync_token whole.
std::uint32_t checksum(std::string_view text) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : text) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

constexpr int kVariant = sodium_base64_VARIANT_URLSAFE_NO_PADDING;

std::string base64url(std::string_view bytes) {
  std::string out(sodium_base64_ENCODED_LEN(bytes.size(), kVariant), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()),
                    bytes.size(), kVariant);
  out.resize(out.size() - 1);  // the terminating NUL
  return out;
}

std::optional<std::string> unbase64url(std::string_view text) {
  std::string out(text.size() * 3 / 4 + 1, '\0');
  std::size_t length = 0;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(), text.size(),
                        nullptr, &length, nullptr, kVariant) != 0)
    return std::nullopt;
  out.resize(length);
  return out;
}

std::string payload(const SyncToken& t) {
  std::string text = "1";
  for (long long v : t.shards) text += "." + std::to_string(v);
  text += "." + std::to_string(t.at);
  return text;
}

}  // namespace

std::string encode_sync_token(const SyncToken& token) {
  const std::string text = payload(token);
  return base64url(text + "." + std::to_string(checksum(text)));
}

std::optional<SyncToken> decode_sync_token(std::string_view text) {
  if (text.empty() || text.size() > 512) return std::nullopt;
  const auto raw = unbase64url(text);
  if (!raw) return std::nullopt;
  std::vector<std::string_view> parts;
  std::string_view rest = *raw;
  for (;;) {
    const auto dot = rest.find('.');
    parts.push_back(rest.substr(0, dot));
    if (dot == std::string_view::npos) break;
    rest.remove_prefix(dot + 1);
  }
  if (parts.size() != kVersionShards + 3 || parts.front() != "1") return std::nullopt;
  std::vector<unsigned long long> numbers;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    unsigned long long n = 0;
    const auto [end, error] = std::from_chars(parts[i].data(), parts[i].data() + parts[i].size(), n);
    if (parts[i].empty() || error != std::errc() || end != parts[i].data() + parts[i].size())
      return std::nullopt;
    numbers.push_back(n);
  }
  SyncToken token;
  for (std::size_t s = 0; s < kVersionShards; ++s) {
    if (numbers[s] > static_cast<unsigned long long>(INT64_MAX)) return std::nullopt;
    token.shards[s] = static_cast<long long>(numbers[s]);
  }
  if (numbers[kVersionShards] > static_cast<unsigned long long>(INT64_MAX)) return std::nullopt;
  token.at = static_cast<long long>(numbers[kVersionShards]);
  // Canonical form only: the same position always has the same text (and so one cache key).
  if (numbers.back() != checksum(payload(token)) || encode_sync_token(token) != text) return std::nullopt;
  return token;
}

bool sync_token_expired(const SyncToken& token, long long now, double retention_days) {
  return static_cast<double>(now - token.at) > retention_days * 86400.0;
}

}  // namespace cal
