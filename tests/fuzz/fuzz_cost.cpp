// libFuzzer target: parse_cost() and display_cost(). Values are numeric strings in ascending
// numeric order without numeric duplicates; the position is "prefix", "postfix" or "" (and ""
// when there is no value); the display text is valid UTF-8 whenever the input is.
#include "fuzz_support.h"
#include "cal/core/text/cost.h"
#include "cal/core/text/slug.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>

using caltest_fuzz::require;

namespace {

// "12", "12.50", "0.5": digits with at most one '.' between digits.
bool numeric(const std::string& s) {
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s.front())) ||
      !std::isdigit(static_cast<unsigned char>(s.back())))
    return false;
  int dots = 0;
  for (char c : s) {
    if (c == '.')
      ++dots;
    else if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  }
  return dots <= 1;
}

// a < b for two numeric strings (no leading zeros but for "0.x"), compared exactly.
bool numeric_less(const std::string& a, const std::string& b) {
  const std::size_t ai = a.find('.') == std::string::npos ? a.size() : a.find('.');
  const std::size_t bi = b.find('.') == std::string::npos ? b.size() : b.find('.');
  if (ai != bi) return ai < bi;
  std::string af = a.substr(0, ai) + (ai < a.size() ? a.substr(ai + 1) : "");
  std::string bf = b.substr(0, bi) + (bi < b.size() ? b.substr(bi + 1) : "");
  const std::size_t width = std::max(af.size(), bf.size());
  af.resize(width, '0');
  bf.resize(width, '0');
  return af < bf;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const cal::CostDetails d = cal::parse_cost(text);
  for (const std::string& v : d.values) require(numeric(v), "a value is not a numeric string");
  for (std::size_t i = 1; i < d.values.size(); ++i)
    require(numeric_less(d.values[i - 1], d.values[i]), "values not strictly ascending");
  require(d.currency_position.empty() || d.currency_position == "prefix" || d.currency_position == "postfix",
          "unknown currency position");
  if (d.values.empty()) require(d.currency_position.empty(), "a position without any value");
  const std::string shown = cal::display_cost(text);
  if (cal::is_valid_utf8(text)) {
    require(cal::is_valid_utf8(shown), "display_cost broke UTF-8");
    require(cal::is_valid_utf8(d.currency_symbol), "currency symbol is not valid UTF-8");
  }
  return 0;
}
