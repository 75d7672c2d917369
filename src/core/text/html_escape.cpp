// The HTML escaper (see cal/core/text/html_escape.h).
#include "cal/core/text/html_escape.h"

namespace cal {
namespace {

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD

// Length of the well-formed UTF-8 sequence (RFC 3629) starting at text[pos], or 0 when the bytes
// there are not one.
std::size_t utf8_sequence_length(std::string_view text, std::size_t pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  if (lead < 0x80) return 1;
  const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
  if (lead < 0xC2 || lead > 0xF4 || text.size() - pos < length) return 0;
  const auto second = static_cast<unsigned char>(text[pos + 1]);
  // The second byte's range excludes overlong forms, surrogates and code points > U+10FFFF.
  const unsigned char low = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
  const unsigned char high = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
  if (second < low || second > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if ((static_cast<unsigned char>(text[pos + i]) & 0xC0) != 0x80) return 0;
  }
  return length;
}

}  // namespace

void append_html_escaped(std::string& out, std::string_view text, bool in_attribute) {
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t length = utf8_sequence_length(text, pos);
    if (length == 0) {
      out += kReplacementCharacter;
      ++pos;
      continue;
    }
    switch (text[pos]) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += in_attribute ? "&quot;" : "\"";
        break;
      default:
        out.append(text.substr(pos, length));
    }
    pos += length;
  }
}

}  // namespace cal
