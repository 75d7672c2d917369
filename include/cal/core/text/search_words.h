// The words of the search index (docs/search.md): a text is cut into words at the characters that
// MariaDB's utf8mb4_unicode_ci LIKE treats as equal to ASCII white space or punctuation, so a
// search word without such a character can only occur inside one word of the text. That is what
// makes the index exact: the database's own LIKE, run on the words, decides every match.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cal {

// The longest word the index stores, in characters (search_words.word is VARCHAR of this many);
// a text with a longer word is searched with LIKE instead (its event stays pending).
inline constexpr std::size_t kMaxSearchWordChars = 190;

// Whether LIKE under utf8mb4_unicode_ci compares `c` equal to ASCII white space or punctuation
// (the ASCII characters themselves included). Generated from MariaDB 10.11 and checked against the
// server by `calendarctl search-index check`.
bool is_search_separator(char32_t c);

// Every code point for which is_search_separator() holds, ascending.
const std::vector<char32_t>& search_separators();

// The distinct words of `text` in order of first appearance: maximal runs of characters that are
// not separators. Bytes that are not valid UTF-8 stay inside words.
std::vector<std::string> search_words_of(std::string_view text);

// The pieces of one query word cut at separators (empty pieces dropped), in order. A piece occurs
// in a text only inside one of the text's words.
std::vector<std::string> search_pieces(std::string_view word);

// Characters of a UTF-8 string (a byte that is not valid UTF-8 counts as one).
std::size_t utf8_length(std::string_view s);

}  // namespace cal
