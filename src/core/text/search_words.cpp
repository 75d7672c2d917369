// Cutting texts and query words into the search index's words (cal/core/text/search_words.h).
#include "cal/core/text/search_words.h"

#include <algorithm>
#include <array>
#include <unordered_set>

namespace cal {
namespace {

struct CodeRange {
  char32_t first;
  char32_t last;
};

// The ASCII separators (white space and every punctuation character) and every character that
// utf8mb4_unicode_ci weighs like one of them: Unicode spaces, full-width and small-form punctuation,
// ≠ ≮ ≯ (= < > with a combining mark), super- and subscript signs. Computed with
//   SELECT seq FROM seq_0_to_1114111 WHERE WEIGHT_STRING(CHAR(seq USING utf32) …) IN (weights of
//   the ASCII separators)
// which `calendarctl search-index check` runs again against the configured server.
constexpr std::array<CodeRange, 32> kSeparators{{
    {0x9, 0xD},       {0x20, 0x2F},     {0x3A, 0x40},     {0x5B, 0x60},     {0x7B, 0x7E},
    {0xA0, 0xA0},     {0x37E, 0x37E},   {0x1FEF, 0x1FEF}, {0x2000, 0x200A}, {0x2024, 0x2024},
    {0x202F, 0x202F}, {0x205F, 0x205F}, {0x207A, 0x207A}, {0x207C, 0x207E}, {0x208A, 0x208A},
    {0x208C, 0x208E}, {0x2260, 0x2260}, {0x226E, 0x226F}, {0x3000, 0x3000}, {0xFB29, 0xFB29},
    {0xFE33, 0xFE38}, {0xFE47, 0xFE48}, {0xFE4D, 0xFE50}, {0xFE52, 0xFE52}, {0xFE54, 0xFE57},
    {0xFE59, 0xFE5C}, {0xFE5F, 0xFE66}, {0xFE68, 0xFE6B}, {0xFF01, 0xFF0F}, {0xFF1A, 0xFF20},
    {0xFF3B, 0xFF40}, {0xFF5B, 0xFF5E},
}};

// The code point starting at s[i] and its length in bytes; a byte that does not start a valid
// sequence is returned as itself with length 1 (never a separator: all separators are valid).
std::pair<char32_t, std::size_t> next_code_point(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i);
  if (b < 0x80) return {b, 1};
  std::size_t n = 0;
  char32_t c = 0;
  if ((b & 0xE0) == 0xC0) {
    n = 2;
    c = b & 0x1F;
  } else if ((b & 0xF0) == 0xE0) {
    n = 3;
    c = b & 0x0F;
  } else if ((b & 0xF8) == 0xF0) {
    n = 4;
    c = b & 0x07;
  } else {
    return {0xFFFFFFFF, 1};
  }
  if (i + n > s.size()) return {0xFFFFFFFF, 1};
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return {0xFFFFFFFF, 1};
    c = (c << 6) | (byte(i + k) & 0x3F);
  }
  return {c, n};
}

// Calls piece(begin, end) for each maximal run of non-separator characters of `s`.
template <typename Piece>
void for_each_run(std::string_view s, Piece piece) {
  std::size_t start = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    const auto [c, n] = next_code_point(s, i);
    if (is_search_separator(c)) {
      if (i > start) piece(start, i);
      start = i + n;
    }
    i += n;
  }
  if (s.size() > start) piece(start, s.size());
}

}  // namespace

bool is_search_separator(char32_t c) {
  const auto it = std::upper_bound(kSeparators.begin(), kSeparators.end(), c,
                                   [](char32_t v, const CodeRange& r) { return v < r.first; });
  return it != kSeparators.begin() && c <= std::prev(it)->last;
}

const std::vector<char32_t>& search_separators() {
  static const std::vector<char32_t> all = [] {
    std::vector<char32_t> v;
    for (const CodeRange& r : kSeparators)
      for (char32_t c = r.first; c <= r.last; ++c) v.push_back(c);
    return v;
  }();
  return all;
}

std::vector<std::string> search_words_of(std::string_view text) {
  std::vector<std::string> words;
  std::unordered_set<std::string_view> seen;
  for_each_run(text, [&](std::size_t begin, std::size_t end) {
    const std::string_view word = text.substr(begin, end - begin);
    if (seen.insert(word).second) words.emplace_back(word);
  });
  return words;
}

std::vector<std::string> search_pieces(std::string_view word) {
  std::vector<std::string> pieces;
  for_each_run(word, [&](std::size_t begin, std::size_t end) {
    pieces.emplace_back(word.substr(begin, end - begin));
  });
  return pieces;
}

std::size_t utf8_length(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); i += next_code_point(s, i).second) ++n;
  return n;
}

}  // namespace cal
