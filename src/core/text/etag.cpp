// Entity tags (see cal/core/text/etag.h).
#include "cal/core/text/etag.h"

// Inlined rather than linked: XXH3 is a few header functions, and inline they are the fastest.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace cal {

std::string strong_etag(std::string_view body) {
  // XXH3-128: a tag authenticates nothing, it only has to change with the body, which 128 bits
  // do for every body a site will ever serve; and XXH3 hashes a 190 KB list in 0.02 ms where
  // BLAKE2b took 0.23 ms, a tenth of that answer's time (docs/performance.md). Its output is
  // fixed by its specification, whichever CPU computes it.
  XXH128_canonical_t hash;
  XXH128_canonicalFromHash(&hash, XXH3_128bits(body.data(), body.size()));
  static const char kHex[] = "0123456789abcdef";
  std::string tag = "\"";
  for (unsigned char b : hash.digest) {
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
