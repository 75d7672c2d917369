// Slugs, UTF-8 validation, URL/e-mail helpers and cost parsing: table-driven.
#include "cal/core/cost.h"
#include "cal/core/slug.h"
#include "cal/core/url.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

struct Pair {
  const char* in;
  const char* out;
};

const Pair kSlugs[] = {
    {"Hello World", "hello-world"},
    {"  Hello,   World!  ", "hello-world"},
    {"Caf\xC3\xA9 M\xC3\xBCnchen", "cafe-munchen"},
    {"Stra\xC3\x9F" "e", "strasse"},
    {"\xC3\x86sop \xC3\x98resund", "aesop-oresund"},
    {"Jazz & Blues 2025", "jazz-blues-2025"},
    {"---a---", "a"},
    {"!!!", ""},
    {"\xE2\x82\xAC", ""},
    {"A\xE2\x82\xAC" "B", "a-b"},
    {"\xFF\xFE" "abc", "abc"},
    {"UPPER lower", "upper-lower"},
    {"\xC5\x81\xC3\xB3" "d\xC5\xBA", "lodz"},
};

struct Utf8Case {
  const char* text;
  bool valid;
};

const Utf8Case kUtf8[] = {
    {"plain", true},          {"caf\xC3\xA9", true},     {"\xE2\x82\xAC", true},   {"\xF0\x9F\x8E\x89", true},
    {"\xC3\x28", false},      {"\xC0\xAF", false},       {"\xE0\x80\xAF", false},  {"\xED\xA0\x80", false},
    {"\xF4\x90\x80\x80", false}, {"\xE2\x82", false},    {"\x80", false},          {"", true},
};

const Pair kEncode[] = {
    {"abc", "abc"}, {"a b", "a%20b"}, {"a&b=c", "a%26b%3Dc"}, {"2025-05-02 09:00:00", "2025-05-02%2009%3A00%3A00"},
    {"\xC3\xA9", "%C3%A9"}, {"1,2", "1%2C2"}, {"~._-", "~._-"},
};

struct UrlCase {
  const char* text;
  bool valid;
};

const UrlCase kUrls[] = {
    {"https://example.org", true}, {"http://example.org/a?b=c#d", true}, {"HTTPS://EXAMPLE.ORG/x", true},
    {"https://example.org:8080/x", true}, {"https://user@example.org/x", false}, {"https://[::1]/x", true}, {"ftp://example.org", false},
    {"javascript:alert(1)", false}, {"https://", false}, {"https:///x", false}, {"https://exa mple.org", false},
    {"example.org", false}, {"", false}, {"https://example.org:80a/", false},
};

const UrlCase kEmails[] = {
    {"a@example.org", true}, {"first.last+tag@sub.example.co.uk", true}, {"a@b", false}, {"@example.org", false},
    {"a@@example.org", false}, {"a b@example.org", false}, {"a@-example.org", false}, {"a..b@example.org", false},
    {"a@example..org", false}, {"", false}, {"a@example.org ", false},
};

const Pair kExtensions[] = {
    {"https://x/a/b.JPG?x=1", "jpg"}, {"https://x/a/b.png#f", "png"}, {"https://x/a/b", ""}, {"https://x.org", ""},
    {"https://x.org/", ""}, {"https://x/a.b/c", ""}, {"https://x/a/b.webp", "webp"},
};

struct CostCase {
  const char* text;
  const char* symbol;
  const char* code;
  const char* position;
  std::vector<std::string> values;
  const char* display;
};

const CostCase kCosts[] = {
    {"", "", "", "", {}, ""},
    {"$23", "$", "USD", "prefix", {"23"}, "$23"},
    {"20\xE2\x82\xAC", "\xE2\x82\xAC", "EUR", "postfix", {"20"}, "20\xE2\x82\xAC"},
    {"0$,20$,30$", "$", "USD", "postfix", {"0", "20", "30"}, "Free \xE2\x80\x93 30$"},
    {"Free", "", "", "", {"0"}, "Free"},
    {"0", "", "", "", {"0"}, "Free"},
    {"USD 15.50", "USD", "USD", "prefix", {"15.50"}, "USD 15.50"},
    {"10 - 20 EUR", "EUR", "EUR", "postfix", {"10", "20"}, "10 EUR \xE2\x80\x93 20 EUR"},
    {"\xE2\x82\xAC" "5, \xE2\x82\xAC" "10", "\xE2\x82\xAC", "EUR", "prefix", {"5", "10"}, "\xE2\x82\xAC" "5 \xE2\x80\x93 \xE2\x82\xAC" "10"},
    {"12,50 \xE2\x82\xAC", "\xE2\x82\xAC", "EUR", "postfix", {"12.50"}, "12,50 \xE2\x82\xAC"},
    {"$30, $10, $30", "$", "USD", "prefix", {"10", "30"}, "$10 \xE2\x80\x93 $30"},
    {"Donation", "", "", "", {}, "Donation"},
    {"  $5  ", "$", "USD", "prefix", {"5"}, "$5"},
    {"\xC2\xA3" "1,000", "\xC2\xA3", "GBP", "prefix", {"1000"}, "\xC2\xA3" "1,000"},
};

}  // namespace

TEST_CASE("slugify: lower-case ASCII, transliterated, dashes between words") {
  for (const auto& c : kSlugs) {
    CAPTURE(std::string(c.in));
    CHECK(cal::slugify(c.in) == c.out);
  }
  const std::string long_title(300, 'a');
  CHECK(cal::slugify(long_title).size() <= 190);
  CHECK(cal::slug_with_suffix("party", 1) == "party");
  CHECK(cal::slug_with_suffix("party", 3) == "party-3");
  CHECK(cal::slug_with_suffix(std::string(200, 'x'), 12).size() == 200);
}

TEST_CASE("UTF-8 validation is strict") {
  for (const auto& c : kUtf8) {
    CAPTURE(std::string(c.text));
    CHECK(cal::is_valid_utf8(c.text) == c.valid);
  }
}

TEST_CASE("url_encode and url_decode round-trip") {
  for (const auto& c : kEncode) {
    CAPTURE(std::string(c.in));
    CHECK(cal::url_encode(c.in) == c.out);
    CHECK(cal::url_decode(c.out, false) == std::string(c.in));
  }
  CHECK(cal::url_decode("a+b", true) == std::string("a b"));
  CHECK(cal::url_decode("a+b", false) == std::string("a+b"));
  CHECK_FALSE(cal::url_decode("%", true).has_value());
  CHECK_FALSE(cal::url_decode("%4", true).has_value());
  CHECK_FALSE(cal::url_decode("%zz", true).has_value());
}

TEST_CASE("absolute http(s) URLs, e-mail addresses and extensions") {
  for (const auto& c : kUrls) {
    CAPTURE(std::string(c.text));
    CHECK(cal::is_absolute_http_url(c.text) == c.valid);
  }
  for (const auto& c : kEmails) {
    CAPTURE(std::string(c.text));
    CHECK(cal::is_valid_email(c.text) == c.valid);
  }
  for (const auto& c : kExtensions) {
    CAPTURE(std::string(c.in));
    CHECK(cal::url_extension(c.in) == c.out);
  }
}

TEST_CASE("cost text: values, currency, position and display") {
  for (const auto& c : kCosts) {
    CAPTURE(std::string(c.text));
    const cal::CostDetails d = cal::parse_cost(c.text);
    CHECK(d.currency_symbol == c.symbol);
    CHECK(d.currency_code == c.code);
    CHECK(d.currency_position == c.position);
    CHECK(d.values == c.values);
    CHECK(cal::display_cost(c.text) == c.display);
  }
}
