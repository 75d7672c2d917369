// Unit tests for cal/core/text/ascii.h: one white-space set, locale-free classes and case.
#include "cal/core/text/ascii.h"

#include <doctest/doctest.h>

#include <string_view>

namespace ascii = cal::ascii;

TEST_CASE("trim strips SPEC white space (space, \\t, \\n, \\r, \\f, \\v) and nothing else") {
  struct Case {
    std::string_view in, out;
  };
  const Case cases[] = {
      {"", ""},
      {" \t\n\r\f\v", ""},
      {" a b ", "a b"},
      {"\f\v5\r\n", "5"},
      {"\xc2\xa0x\xc2\xa0", "\xc2\xa0x\xc2\xa0"},                // NO-BREAK SPACE is not ASCII white space
      {std::string_view("\0x", 2), std::string_view("\0x", 2)},  // nor is NUL
  };
  for (const Case& c : cases) {
    CAPTURE(c.in);
    CHECK(ascii::trim(c.in) == c.out);
  }
}

TEST_CASE("character classes are ASCII only, whatever the byte's sign") {
  for (int b = 0; b < 256; ++b) {
    const char c = static_cast<char>(b);
    CAPTURE(b);
    CHECK(ascii::is_digit(c) == (b >= '0' && b <= '9'));
    CHECK(ascii::is_alpha(c) == ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')));
    CHECK(ascii::is_alnum(c) == (ascii::is_digit(c) || ascii::is_alpha(c)));
    CHECK(ascii::is_space(c) == (b == ' ' || (b >= '\t' && b <= '\r')));
    if (b >= 0x80) CHECK(ascii::to_lower(c) == c);
    if (b >= 0x80) CHECK(ascii::to_upper(c) == c);
  }
}

TEST_CASE("case helpers change ASCII letters only") {
  CHECK(ascii::lower("AbC-\xc3\x84") == "abc-\xc3\x84");
  CHECK(ascii::upper("aBc-\xc3\xa4") == "ABC-\xc3\xa4");
  CHECK(ascii::iequals("HEAD", "head"));
  CHECK_FALSE(ascii::iequals("HEAD", "heads"));
  CHECK(ascii::starts_with_ignoring_case("HTTPS://x", "https://"));
  CHECK_FALSE(ascii::starts_with_ignoring_case("http", "https"));
  CHECK(ascii::all_digits("0123"));
  CHECK_FALSE(ascii::all_digits(""));
  CHECK_FALSE(ascii::all_digits("+1"));
}
