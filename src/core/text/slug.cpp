// Slug generation and UTF-8 validation (see cal/core/text/slug.h).
#include "cal/core/text/slug.h"

#include "cal/core/text/ascii.h"

#include <cstdint>
#include <string>

namespace cal {
namespace {

constexpr char32_t kInvalidCodePoint = 0xFFFFFFFF;

// One decoded UTF-8 sequence: the code point (kInvalidCodePoint when malformed) and how many
// bytes it used (1 for a malformed byte, so decoding always makes progress).
struct Decoded {
  char32_t code_point;
  std::size_t length;
};

bool is_continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// Decodes the strict UTF-8 sequence starting at text[pos] (pos < text.size()).
Decoded decode_utf8(std::string_view text, std::size_t pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  if (lead < 0x80) return {lead, 1};
  std::size_t length = 0;
  char32_t code_point = 0;
  char32_t minimum = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, code_point = lead & 0x1F, minimum = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, code_point = lead & 0x0F, minimum = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, code_point = lead & 0x07, minimum = 0x10000;
  } else {
    return {kInvalidCodePoint, 1};
  }
  if (text.size() - pos < length) return {kInvalidCodePoint, 1};
  for (std::size_t i = 1; i < length; ++i) {
    const auto byte = static_cast<unsigned char>(text[pos + i]);
    if (!is_continuation(byte)) return {kInvalidCodePoint, 1};
    code_point = (code_point << 6) | (byte & 0x3F);
  }
  const bool surrogate = code_point >= 0xD800 && code_point <= 0xDFFF;
  if (code_point < minimum || surrogate || code_point > 0x10FFFF) return {kInvalidCodePoint, 1};
  return {code_point, length};
}

// A range of code points that all transliterate to the same ASCII text.
struct Transliteration {
  char32_t first;
  char32_t last;
  const char* ascii;
};

// Latin-1 Supplement and Latin Extended-A letters, ascending; anything else is a separator.
constexpr Transliteration kTransliterations[] = {
    {0xC0, 0xC5, "a"},   {0xC6, 0xC6, "ae"},  {0xC7, 0xC7, "c"},   {0xC8, 0xCB, "e"},    {0xCC, 0xCF, "i"},
    {0xD0, 0xD0, "d"},   {0xD1, 0xD1, "n"},   {0xD2, 0xD6, "o"},   {0xD8, 0xD8, "o"},    {0xD9, 0xDC, "u"},
    {0xDD, 0xDD, "y"},   {0xDE, 0xDE, "th"},  {0xDF, 0xDF, "ss"},  {0xE0, 0xE5, "a"},    {0xE6, 0xE6, "ae"},
    {0xE7, 0xE7, "c"},   {0xE8, 0xEB, "e"},   {0xEC, 0xEF, "i"},   {0xF0, 0xF0, "d"},    {0xF1, 0xF1, "n"},
    {0xF2, 0xF6, "o"},   {0xF8, 0xF8, "o"},   {0xF9, 0xFC, "u"},   {0xFD, 0xFD, "y"},    {0xFE, 0xFE, "th"},
    {0xFF, 0xFF, "y"},   {0x100, 0x105, "a"}, {0x106, 0x10D, "c"}, {0x10E, 0x111, "d"},  {0x112, 0x11B, "e"},
    {0x11C, 0x123, "g"}, {0x124, 0x127, "h"}, {0x128, 0x131, "i"}, {0x132, 0x133, "ij"}, {0x134, 0x135, "j"},
    {0x136, 0x138, "k"}, {0x139, 0x142, "l"}, {0x143, 0x14B, "n"}, {0x14C, 0x151, "o"},  {0x152, 0x153, "oe"},
    {0x154, 0x159, "r"}, {0x15A, 0x161, "s"}, {0x162, 0x167, "t"}, {0x168, 0x173, "u"},  {0x174, 0x175, "w"},
    {0x176, 0x178, "y"}, {0x179, 0x17E, "z"}, {0x17F, 0x17F, "s"},
};

// ASCII transliteration of a non-ASCII code point, or nullptr when it is not a known letter.
const char* transliterate(char32_t code_point) {
  for (const auto& entry : kTransliterations) {
    if (code_point >= entry.first && code_point <= entry.last) return entry.ascii;
  }
  return nullptr;
}

// Appends `piece` to a slug under construction, first writing the pending separator if any.
void append_word_part(std::string& slug, bool& pending_dash, std::string_view piece) {
  if (pending_dash && !slug.empty()) slug += '-';
  pending_dash = false;
  slug += piece;
}

void strip_trailing_dashes(std::string& text) {
  while (!text.empty() && text.back() == '-') text.pop_back();
}

// Shortens an all-ASCII slug to kMaxSlugBytes, preferring to cut at a '-'.
void limit_slug_length(std::string& slug) {
  if (slug.size() <= kMaxSlugBytes) return;
  const std::size_t dash = slug.rfind('-', kMaxSlugBytes);
  slug.resize(dash != std::string::npos && dash > 0 ? dash : kMaxSlugBytes);
  strip_trailing_dashes(slug);
}

// Largest length <= max_bytes that does not end inside a UTF-8 sequence of `text`.
std::size_t utf8_safe_prefix_length(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text.size();
  std::size_t length = max_bytes;
  while (length > 0 && is_continuation(static_cast<unsigned char>(text[length]))) --length;
  return length;
}

}  // namespace

std::string slugify(std::string_view text) {
  std::string slug;
  bool pending_dash = false;
  for (std::size_t pos = 0; pos < text.size();) {
    const Decoded decoded = decode_utf8(text, pos);
    pos += decoded.length;
    if (decoded.code_point < 0x80 && ascii::is_alnum(static_cast<char>(decoded.code_point))) {
      const char letter = ascii::to_lower(static_cast<char>(decoded.code_point));
      append_word_part(slug, pending_dash, std::string_view(&letter, 1));
    } else if (const char* ascii = transliterate(decoded.code_point); ascii != nullptr) {
      append_word_part(slug, pending_dash, ascii);
    } else {
      pending_dash = true;
    }
    // Input can be arbitrarily long; nothing past this point can survive the length limit.
    if (slug.size() > kMaxSlugBytes + 1) break;
  }
  limit_slug_length(slug);
  return slug;
}

std::string slug_with_suffix(std::string_view base, int n) {
  const std::string suffix = n <= 1 ? std::string() : "-" + std::to_string(n);
  std::string result(base.substr(0, utf8_safe_prefix_length(base, kMaxSuffixedSlugBytes - suffix.size())));
  if (result.size() < base.size()) strip_trailing_dashes(result);
  return result + suffix;
}

bool is_valid_utf8(std::string_view bytes) {
  for (std::size_t pos = 0; pos < bytes.size();) {
    const Decoded decoded = decode_utf8(bytes, pos);
    if (decoded.code_point == kInvalidCodePoint) return false;
    pos += decoded.length;
  }
  return true;
}

}  // namespace cal
