// Integers from text (see cal/core/text/numbers.h).
#include "cal/core/text/numbers.h"

#include <charconv>
#include <system_error>

namespace cal {
namespace {

// std::from_chars over all of `digits`, which must start with a digit (from_chars alone would
// take a '-'); nullopt on overflow or a trailing byte.
std::optional<long long> parse_digits(std::string_view digits, bool negative) {
  if (digits.empty() || digits.front() < '0' || digits.front() > '9') return std::nullopt;
  unsigned long long magnitude = 0;
  const char* end = digits.data() + digits.size();
  const auto [stop, ec] = std::from_chars(digits.data(), end, magnitude);
  if (ec != std::errc() || stop != end) return std::nullopt;
  constexpr unsigned long long kMax = 9223372036854775807ULL;  // LLONG_MAX
  if (negative) {
    if (magnitude > kMax + 1) return std::nullopt;
    return magnitude == kMax + 1 ? -static_cast<long long>(kMax) - 1 : -static_cast<long long>(magnitude);
  }
  if (magnitude > kMax) return std::nullopt;
  return static_cast<long long>(magnitude);
}

}  // namespace

std::optional<long long> parse_id(std::string_view text) { return parse_digits(text, false); }

std::optional<long long> parse_integer(std::string_view text) {
  if (!text.empty() && (text.front() == '+' || text.front() == '-'))
    return parse_digits(text.substr(1), text.front() == '-');
  return parse_digits(text, false);
}

}  // namespace cal
