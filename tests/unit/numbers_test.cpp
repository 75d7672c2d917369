// Unit tests for cal/core/text/numbers.h: ids and integers from text, junk and overflow refused.
#include "cal/core/text/numbers.h"

#include <doctest/doctest.h>

#include <optional>
#include <string_view>

namespace {

struct Case {
  std::string_view text;
  std::optional<long long> id;       // parse_id
  std::optional<long long> integer;  // parse_integer
};

constexpr long long kMax = 9223372036854775807LL;

const Case kCases[] = {
    {"0", 0, 0},
    {"42", 42, 42},
    {"007", 7, 7},
    {"9223372036854775807", kMax, kMax},
    {"9223372036854775808", std::nullopt, std::nullopt},      // one past the range
    {"99999999999999999999999", std::nullopt, std::nullopt},  // overflow is refused, not truncated
    {"+5", std::nullopt, 5},
    {"-5", std::nullopt, -5},
    {"-0", std::nullopt, 0},
    {"-9223372036854775808", std::nullopt, -kMax - 1},
    {"-9223372036854775809", std::nullopt, std::nullopt},
    {"", std::nullopt, std::nullopt},
    {"+", std::nullopt, std::nullopt},
    {"-", std::nullopt, std::nullopt},
    {"+-5", std::nullopt, std::nullopt},
    {"--5", std::nullopt, std::nullopt},
    {"++5", std::nullopt, std::nullopt},
    {" 5", std::nullopt, std::nullopt},
    {"5 ", std::nullopt, std::nullopt},
    {"5x", std::nullopt, std::nullopt},
    {"x5", std::nullopt, std::nullopt},
    {"1.5", std::nullopt, std::nullopt},
    {"1e3", std::nullopt, std::nullopt},
    {"0x10", std::nullopt, std::nullopt},
    {"\xd9\xa3", std::nullopt, std::nullopt},  // ARABIC-INDIC DIGIT THREE is not a digit here
};

}  // namespace

TEST_CASE("parse_id takes unsigned decimal digits that fit in 64 bits, nothing else") {
  for (const Case& c : kCases) {
    CAPTURE(c.text);
    CHECK(cal::parse_id(c.text) == c.id);
  }
}

TEST_CASE("parse_integer takes one optional sign, then decimal digits that fit in 64 bits") {
  for (const Case& c : kCases) {
    CAPTURE(c.text);
    CHECK(cal::parse_integer(c.text) == c.integer);
  }
}
