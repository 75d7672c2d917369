// Unit tests for cal/core/text/url.h: percent-encoding, URL and e-mail checks, URL extensions.
#include "cal/core/text/url.h"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>

namespace {

struct EncodeCase {
  std::string_view input;
  std::string_view expected;
};

struct DecodeCase {
  std::string_view input;
  bool plus_is_space;
  std::optional<std::string> expected;
};

struct CheckCase {
  std::string_view input;
  bool expected;
};

}  // namespace

TEST_CASE("url_encode") {
  static const EncodeCase kCases[] = {
      {"", ""},
      {"abcXYZ019-._~", "abcXYZ019-._~"},
      {"a b", "a%20b"},
      {"a+b=c&d", "a%2Bb%3Dc%26d"},
      {"/?#[]@!$'()*,;:%", "%2F%3F%23%5B%5D%40%21%24%27%28%29%2A%2C%3B%3A%25"},
      {"caf\xc3\xa9", "caf%C3%A9"},
      {"\xff\x01", "%FF%01"},
      {std::string_view("\0", 1), "%00"},
  };
  for (const auto& test : kCases) {
    CAPTURE(test.input);
    CHECK(cal::url_encode(test.input) == test.expected);
  }
}

TEST_CASE("url_decode") {
  static const DecodeCase kCases[] = {
      {"", false, ""},
      {"plain", false, "plain"},
      {"a%20b", false, "a b"},
      {"a+b", false, "a+b"},
      {"a+b", true, "a b"},
      {"%2B", true, "+"},
      {"caf%C3%a9", false, "caf\xc3\xa9"},
      {"%00x", false, std::string("\0x", 2)},
      {"%ff", false, "\xff"},
      {"100%", false, std::nullopt},
      {"%2", false, std::nullopt},
      {"%G0", false, std::nullopt},
      {"%0G", false, std::nullopt},
      {"%%41", false, std::nullopt},
      {"ok%41%42", true, "okAB"},
  };
  for (const auto& test : kCases) {
    CAPTURE(test.input);
    CAPTURE(test.plus_is_space);
    CHECK(cal::url_decode(test.input, test.plus_is_space) == test.expected);
  }
}

TEST_CASE("query_value_encode keeps commas, colons, slashes and at signs") {
  CHECK(cal::query_value_encode("1,2,3") == "1,2,3");
  CHECK(cal::query_value_encode("2024-01-01T10:00:00") == "2024-01-01T10:00:00");
  CHECK(cal::query_value_encode("a b&c=d+e#f?/@") == "a%20b%26c%3Dd%2Be%23f%3F/@");
  CHECK(cal::query_value_encode("\xC3\xA9") == "%C3%A9");
}

TEST_CASE("url_encode and url_decode round-trip every byte") {
  std::string all_bytes;
  for (int byte = 0; byte < 256; ++byte) all_bytes += static_cast<char>(byte);
  CHECK(cal::url_decode(cal::url_encode(all_bytes), false) == all_bytes);
  CHECK(cal::url_decode(cal::url_encode(all_bytes), true) == all_bytes);
}

TEST_CASE("is_absolute_http_url") {
  static const CheckCase kCases[] = {
      {"http://example.com", true},
      {"https://example.com/", true},
      {"HTTPS://Example.COM/a/b?c=d#e", true},
      {"https://example.com:8443/path", true},
      {"http://localhost", true},
      {"http://127.0.0.1:8080/x", true},
      {"http://[::1]:80/", true},
      {"http://[2001:db8::1]", true},
      {"https://münchen.de/veranstaltungen", true},
      {"https://example.com?q=1", true},
      {"https://example.com#top", true},
      {"https://sub_domain.example.com/%20x", true},
      {"", false},
      {"example.com", false},
      {"//example.com/x", false},
      {"ftp://example.com/file", false},
      {"javascript:alert(1)", false},
      {"http://", false},
      {"http:///path", false},
      {"https://?q", false},
      {"http:example.com", false},
      {"http://exa mple.com", false},
      {"http://example.com/a b", false},
      {"http://example.com/\t", false},
      {" http://example.com", false},
      {"http://example.com\n", false},
      {"http://example.com/\x7f", false},
      {"http://user:pass@example.com/", false},
      {"http://example.com:port/", false},
      {"http://example.com:/", false},
      {"http://example.com:99999/", false},
      {"http://[::1/", false},
      {"http://[::1]x/", false},
      {"http://[zz]/", false},
      {"http://./", false},
      {"http://example.com\\@evil.com/", false},
      {std::string_view("http://a\0b.com", 14), false},
  };
  for (const auto& test : kCases) {
    CAPTURE(test.input);
    CHECK(cal::is_absolute_http_url(test.input) == test.expected);
  }
}

TEST_CASE("is_valid_email") {
  const std::string max_local(64, 'a');
  const std::string label63(63, 'b');
  // 64 + 1 + 63 + 1 + 63 + 1 + 61 = 254 bytes
  const std::string longest = max_local + "@" + label63 + "." + label63 + "." + std::string(57, 'c') + ".com";
  static const CheckCase kCases[] = {
      {"user@example.com", true},
      {"first.last@example.co.uk", true},
      {"user+tag@example.com", true},
      {"o'brien@example.ie", true},
      {"x@a-b.io", true},
      {"USER_123@EXAMPLE.COM", true},
      {"a!#$%&'*/=?^_`{|}~-@example.org", true},
      {"", false},
      {"plainaddress", false},
      {"@example.com", false},
      {"user@", false},
      {"user@localhost", false},
      {"user@@example.com", false},
      {"a@b@example.com", false},
      {"us er@example.com", false},
      {"user@exa mple.com", false},
      {".user@example.com", false},
      {"user.@example.com", false},
      {"us..er@example.com", false},
      {"user@.example.com", false},
      {"user@example.com.", false},
      {"user@example..com", false},
      {"user@-example.com", false},
      {"user@example-.com", false},
      {"user@exam_ple.com", false},
      {"\"quoted\"@example.com", false},
      {"user@example.com\n", false},
      {"us\xc3\xa9r@example.com", false},
      {"user@[127.0.0.1]", false},
  };
  for (const auto& test : kCases) {
    CAPTURE(test.input);
    CHECK(cal::is_valid_email(test.input) == test.expected);
  }

  struct LengthCase {
    std::string input;
    bool expected;
  };
  const LengthCase kLengthCases[] = {
      {longest, true},
      {"a" + longest, false},                // 255 bytes and a 65-byte local part
      {max_local + "a@example.com", false},  // local part of 65 bytes
      {"u@" + label63 + ".com", true},
      {"u@" + label63 + "b.com", false},  // 64-byte label
  };
  REQUIRE(longest.size() == 254);
  for (const auto& test : kLengthCases) {
    CAPTURE(test.input);
    CHECK(cal::is_valid_email(test.input) == test.expected);
  }
}

TEST_CASE("url_extension") {
  static const EncodeCase kCases[] = {
      {"https://x/a/b.JPG?x=1", "jpg"},
      {"https://example.com/poster.png", "png"},
      {"https://example.com/archive.tar.gz", "gz"},
      {"https://example.com/a.b/c", ""},
      {"https://example.com/file.pdf#page=2", "pdf"},
      {"https://example.com/img.webp?v=1.2.3", "webp"},
      {"https://example.com", ""},
      {"https://example.com/", ""},
      {"https://example.com?file=x.jpg", ""},
      {"//cdn.example.com/x/y.SVG", "svg"},
      {"//cdn.example.com", ""},
      {"/uploads/2024/flyer.Jpeg", "jpeg"},
      {"flyer.gif", "gif"},
      {"https://example.com/.htaccess", ""},
      {"https://example.com/file.", ""},
      {"https://example.com/file.j%20g", ""},
      {"https://example.com/file.mp4;jsessionid=1", ""},
      {"", ""},
      {".", ""},
  };
  for (const auto& test : kCases) {
    CAPTURE(test.input);
    CHECK(cal::url_extension(test.input) == test.expected);
  }
}
