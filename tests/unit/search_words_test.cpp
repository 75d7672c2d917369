// Unit tests for cal/core/text/search_words.h: where texts and query words are cut.
#include "cal/core/text/search_words.h"

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

namespace {

struct WordsCase {
  std::string_view text;
  std::vector<std::string> words;
};

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += "[" + s + "]";
  return out;
}

}  // namespace

TEST_CASE("search_words_of cuts at ASCII and Unicode separators, keeps everything else") {
  static const WordsCase kCases[] = {
      {"", {}},
      {"Jazz night", {"Jazz", "night"}},
      {"jazz jazz JAZZ", {"jazz", "JAZZ"}},
      {"<p>Rock &amp; roll</p>", {"p", "Rock", "amp", "roll"}},
      {"rock'n'roll 10:00-12:00", {"rock", "n", "roll", "10", "00", "12"}},
      {"Café Straße ﬁesta", {"Café", "Straße", "ﬁesta"}},
      {"a\u00A0b\u3000c\u2009d", {"a", "b", "c", "d"}},         // no-break, ideographic, thin space
      {"x\uFF1Cy\uFF0Cz", {"x", "y", "z"}},                     // full-width < and ,
      {"1\u2260 2\u226E3", {"1", "2", "3"}},                    // ≠ and ≮ weigh like = and <
      {"jaz\u00ADz ze\u200Bro", {"jaz\u00ADz", "ze\u200Bro"}},  // soft hyphen, zero-width space stay
      {"\xF0\x9F\x8E\xB7sax", {"\xF0\x9F\x8E\xB7sax"}},         // emoji are word characters
      {"e\u0301t\u00E9", {"e\u0301t\u00E9"}},                   // combining marks stay
      {"100%_off\\now", {"100", "off", "now"}},
      {"bad\xFF"
       "byte",
       {"bad\xFF"
        "byte"}},
  };
  for (const WordsCase& c : kCases) {
    INFO("text: ", c.text);
    CHECK(joined(cal::search_words_of(c.text)) == joined(c.words));
  }
}

TEST_CASE("search_pieces keeps order and repeats, drops empty pieces") {
  CHECK(joined(cal::search_pieces("p>j")) == "[p][j]");
  CHECK(joined(cal::search_pieces("a--a")) == "[a][a]");
  CHECK(joined(cal::search_pieces("<>")) == "");
  CHECK(joined(cal::search_pieces("café")) == "[café]");
}

TEST_CASE("is_search_separator: the table's edges") {
  CHECK(cal::is_search_separator(U' '));
  CHECK(cal::is_search_separator(U'\t'));
  CHECK(cal::is_search_separator(U'~'));
  CHECK(cal::is_search_separator(U'\uFF5E'));
  CHECK_FALSE(cal::is_search_separator(U'\uFF5F'));
  CHECK_FALSE(cal::is_search_separator(U'a'));
  CHECK_FALSE(cal::is_search_separator(U'0'));
  CHECK_FALSE(cal::is_search_separator(U'\u00AD'));
  CHECK_FALSE(cal::is_search_separator(0x10FFFF));
  CHECK(cal::search_separators().size() == 133);
  CHECK(cal::search_separators().front() == 0x9);
}

TEST_CASE("utf8_length counts characters, an invalid byte as one") {
  CHECK(cal::utf8_length("") == 0);
  CHECK(cal::utf8_length("abc") == 3);
  CHECK(cal::utf8_length("Straße") == 6);
  CHECK(cal::utf8_length("\xF0\x9F\x8E\xB7") == 1);
  CHECK(cal::utf8_length("a\xFF") == 2);
}
