// Unit tests for cal/core/text/slug.h: slugify, slug_with_suffix and is_valid_utf8.
#include "cal/core/text/slug.h"

#include <doctest/doctest.h>

#include <string>
#include <string_view>

namespace {

struct SlugCase {
  std::string_view input;
  std::string_view expected;
};

struct SuffixCase {
  std::string_view base;
  int n;
  std::string_view expected;
};

struct Utf8Case {
  std::string_view input;
  bool valid;
};

}  // namespace

TEST_CASE("slugify") {
  static const SlugCase kCases[] = {
      {"Hello World", "hello-world"},
      {"  Hello,   World!  ", "hello-world"},
      {"Jazz @ the Park -- 2024", "jazz-the-park-2024"},
      {"Café Crème", "cafe-creme"},
      {"Über Straße", "uber-strasse"},
      {"Æble og Ørred på Åen", "aeble-og-orred-pa-aen"},
      {"Niño Ça", "nino-ca"},
      {"Œuvre Þing ĳssel Łódź Čačak", "oeuvre-thing-ijssel-lodz-cacak"},
      {"ÀÁÂÃÄÅ àáâãäå", "aaaaaa-aaaaaa"},
      {"x × y ÷ z", "x-y-z"},
      {"日本語 Event", "event"},
      {"Event 🎉 Party", "event-party"},
      {"!!!", ""},
      {"", ""},
      {"---", ""},
      {"日本語", ""},
      {"a\xff\xfe"
       "b",
       "a-b"},             // invalid UTF-8 bytes separate words
      {"caf\xc3", "caf"},  // truncated sequence at the end
      {"\xc3\xa9t\xc3\xa9", "ete"},
      {"\xc0\xa9x", "x"},  // overlong encoding is not a letter
      {"UPPER lower MiXeD 123", "upper-lower-mixed-123"},
      {"under_score.dot/slash", "under-score-dot-slash"},
  };
  for (const auto& test : kCases) {
    CAPTURE(test.input);
    CHECK(cal::slugify(test.input) == test.expected);
  }
}

TEST_CASE("slugify handles embedded NUL and respects the length limit") {
  CHECK(cal::slugify(std::string_view("A\0B", 3)) == "a-b");

  struct LengthCase {
    std::string input;
    std::string expected;
  };
  const std::string word10 = "abcdefghij";
  std::string many_words;  // 30 × "abcdefghij " = 330 bytes
  for (int i = 0; i < 30; ++i) many_words += word10 + " ";
  std::string expected_words;  // 17 words: 17*10 + 16 = 186 <= 190
  for (int i = 0; i < 17; ++i) expected_words += (i ? "-" : "") + word10;
  const std::string exact(190, 'a');
  const LengthCase kCases[] = {
      {many_words, expected_words},
      {std::string(400, 'x'), std::string(190, 'x')},  // no '-' to cut at
      {exact, exact},
      {exact + " b", exact},  // cut exactly at the boundary
      {std::string(189, 'a') + " bc", std::string(189, 'a')},
      {std::string(100000, '!') + "ok", "ok"},
      {std::string(300, 'e') + "\xc3\xa9", std::string(190, 'e')},
  };
  for (const auto& test : kCases) {
    CAPTURE(test.input);
    const std::string slug = cal::slugify(test.input);
    CHECK(slug == test.expected);
    CHECK(slug.size() <= cal::kMaxSlugBytes);
  }
}

TEST_CASE("slug_with_suffix") {
  const std::string long_base(200, 'a');
  const std::string dashed_base = std::string(190, 'a') + "-bbbbbbbbb";      // 200 bytes
  const std::string utf8_base = std::string(195, 'a') + "\xc3\xa9\xc3\xa9";  // 199 bytes
  static const SuffixCase kCases[] = {
      {"party", 1, "party"},   {"party", 0, "party"},     {"party", -5, "party"},
      {"party", 2, "party-2"}, {"party", 17, "party-17"}, {"party", 2147483647, "party-2147483647"},
      {"", 3, "-3"},
  };
  for (const auto& test : kCases) {
    CAPTURE(test.base);
    CAPTURE(test.n);
    CHECK(cal::slug_with_suffix(test.base, test.n) == test.expected);
  }

  struct LongCase {
    std::string base;
    int n;
    std::string expected;
  };
  const LongCase kLongCases[] = {
      {long_base, 1, long_base},
      {long_base + "a", 1, long_base},
      {long_base, 2, std::string(198, 'a') + "-2"},
      {long_base, 1000, std::string(195, 'a') + "-1000"},
      {dashed_base, 12345678, std::string(190, 'a') + "-12345678"},  // "-" stripped after cut
      {utf8_base, 2, std::string(195, 'a') + "\xc3\xa9-2"},          // whole character kept
      {utf8_base, 10, std::string(195, 'a') + "\xc3\xa9-10"},        // exactly 200 bytes
      {utf8_base, 100, std::string(195, 'a') + "-100"},              // never mid-character
  };
  for (const auto& test : kLongCases) {
    CAPTURE(test.base);
    CAPTURE(test.n);
    const std::string result = cal::slug_with_suffix(test.base, test.n);
    CHECK(result == test.expected);
    CHECK(result.size() <= cal::kMaxSuffixedSlugBytes);
  }
}

TEST_CASE("is_valid_utf8") {
  static const Utf8Case kCases[] = {
      {"", true},
      {"plain ascii", true},
      {"caf\xc3\xa9", true},
      {"\xe2\x82\xac", true},       // U+20AC euro sign
      {"\xf0\x9f\x8e\x89", true},   // U+1F389
      {"\xf4\x8f\xbf\xbf", true},   // U+10FFFF, the maximum
      {"\xef\xbf\xbf", true},       // U+FFFF noncharacter is still well-formed
      {"\xed\x9f\xbf", true},       // U+D7FF, just below the surrogates
      {"\xc3", false},              // truncated 2-byte sequence
      {"\xe2\x82", false},          // truncated 3-byte sequence
      {"\xf0\x9f\x8e", false},      // truncated 4-byte sequence
      {"\x80", false},              // stray continuation byte
      {"\xc0\xaf", false},          // overlong '/'
      {"\xc1\xbf", false},          // overlong
      {"\xe0\x80\xaf", false},      // overlong 3-byte
      {"\xf0\x80\x80\xaf", false},  // overlong 4-byte
      {"\xed\xa0\x80", false},      // U+D800 surrogate
      {"\xed\xbf\xbf", false},      // U+DFFF surrogate
      {"\xf4\x90\x80\x80", false},  // U+110000
      {"\xf5\x80\x80\x80", false},  // lead byte beyond U+10FFFF
      {"\xff", false},
      {"\xfe", false},
      {"a\xc3\xa9\xc3", false},  // valid prefix, truncated end
      {"\xc3\x28", false},       // continuation byte missing
  };
  for (const auto& test : kCases) {
    CAPTURE(test.input);
    CHECK(cal::is_valid_utf8(test.input) == test.valid);
  }
  CHECK(cal::is_valid_utf8(std::string_view("a\0b", 3)));
}
