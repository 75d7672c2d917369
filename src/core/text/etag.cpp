// Entity tags (see cal/core/text/etag.h).
#include "cal/core/text/etag.h"

#include <sodium.h>

namespace cal {

std::string strong_etag(std::string_view body) {
  // Until sodium_init() has run, libsodium hashes with its portable BLAKE2b; once it has, with
  // the fastest this CPU offers (AVX2 here: the ETag of a 5 KB record was a tenth of the
  // service's CPU). A failure leaves the portable one, which gives the same hash.
  static const int ready [[maybe_unused]] = sodium_init();
  unsigned char hash[16];
  crypto_generichash(hash, sizeof hash, reinterpret_cast<const unsigned char*>(body.data()), body.size(),
                     nullptr, 0);
  static const char kHex[] = "0123456789abcdef";
  std::string tag = "\"";
  for (unsigned char b : hash) {
    tag += kHex[b >> 4];
    tag += kHex[b & 15];
  }
  tag += '"';
  return tag;
}

namespace {

// Calls `each` with every trimmed item of a comma list until it returns true.
template <typename F>
bool any_item(std::string_view header, F each) {
  size_t pos = 0;
  while (pos < header.size()) {
    size_t comma = header.find(',', pos);
    if (comma == std::string_view::npos) comma = header.size();
    std::string_view item = header.substr(pos, comma - pos);
    pos = comma + 1;
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (each(item)) return true;
  }
  return false;
}

}  // namespace

bool if_none_match(std::string_view header, std::string_view etag) {
  return any_item(header, [&](std::string_view item) {
    if (item == "*") return true;
    if (item.substr(0, 2) == "W/") item.remove_prefix(2);
    return item == etag;
  });
}

bool if_match_any(std::string_view header) {
  return any_item(header, [](std::string_view item) { return item == "*"; });
}

bool if_match(std::string_view header, std::string_view etag) {
  return any_item(header, [&](std::string_view item) { return item == etag; });
}

}  // namespace cal
