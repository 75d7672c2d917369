// Entity tags (see cal/core/text/etag.h).
#include "cal/core/text/etag.h"

#include <sodium.h>

namespace cal {

std::string strong_etag(std::string_view body) {
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

bool if_none_match(std::string_view header, std::string_view etag) {
  size_t pos = 0;
  while (pos < header.size()) {
    size_t comma = header.find(',', pos);
    if (comma == std::string_view::npos) comma = header.size();
    std::string_view item = header.substr(pos, comma - pos);
    pos = comma + 1;
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (item == "*") return true;
    if (item.substr(0, 2) == "W/") item.remove_prefix(2);
    if (item == etag) return true;
  }
  return false;
}

}  // namespace cal
