// Parsing and display of event cost text (see cal/core/text/cost.h).
#include "cal/core/text/cost.h"

#include "cal/core/text/ascii.h"

#include <algorithm>
#include <cstddef>
#include <optional>

namespace cal {
namespace {

constexpr std::string_view kEnDashSeparator = " \xE2\x80\x93 ";  // " – "
constexpr std::string_view kFreeWord = "free";
constexpr std::string_view kFreeDisplay = "Free";
constexpr std::string_view kPrefix = "prefix";
constexpr std::string_view kPostfix = "postfix";

// A currency symbol as it may be written, and the ISO 4217 code it implies.
struct CurrencySymbol {
  std::string_view text;
  std::string_view code;
  bool starts_with_letter;  // must then start a word
};

// Longer spellings before the shorter ones they contain ("US$" before "$").
constexpr CurrencySymbol kCurrencySymbols[] = {
    {"US$", "USD", true},
    {"AU$", "AUD", true},
    {"CA$", "CAD", true},
    {"NZ$", "NZD", true},
    {"HK$", "HKD", true},
    {"MX$", "MXN", true},
    {"A$", "AUD", true},
    {"C$", "CAD", true},
    {"S$", "SGD", true},
    {"R$", "BRL", true},
    {"z\xC5\x82", "PLN", true},  // zł
    {"$", "USD", false},
    {"\xE2\x82\xAC", "EUR", false},  // €
    {"\xC2\xA3", "GBP", false},      // £
    {"\xC2\xA5", "JPY", false},      // ¥
    {"\xE2\x82\xB9", "INR", false},  // ₹
    {"\xE2\x82\xA9", "KRW", false},  // ₩
    {"\xE2\x82\xBD", "RUB", false},  // ₽
    {"\xE2\x82\xBA", "TRY", false},  // ₺
    {"\xE2\x82\xAA", "ILS", false},  // ₪
    {"\xE2\x82\xB4", "UAH", false},  // ₴
    {"\xE2\x82\xA6", "NGN", false},  // ₦
    {"\xE2\x82\xB1", "PHP", false},  // ₱
    {"\xE2\x82\xAB", "VND", false},  // ₫
    {"\xE0\xB8\xBF", "THB", false},  // ฿
};

// ISO 4217 codes recognized when written in upper case as a separate word.
constexpr std::string_view kIsoCodes[] = {
    "AED", "ARS", "AUD", "BGN", "BRL", "CAD", "CHF", "CLP", "CNY", "COP", "CZK", "DKK", "EGP", "EUR", "GBP",
    "HKD", "HUF", "IDR", "ILS", "INR", "ISK", "JPY", "KES", "KRW", "MXN", "MYR", "NGN", "NOK", "NZD", "PEN",
    "PHP", "PLN", "RON", "RUB", "SAR", "SEK", "SGD", "THB", "TRY", "TWD", "UAH", "USD", "VND", "ZAR",
};

// A currency mention found in the text, with its byte range.
struct CurrencyMatch {
  std::string_view symbol;
  std::string_view code;
  std::size_t begin = 0;
  std::size_t end = 0;
};

// A number found in the text: normalized integer and fraction digits, and its byte range.
struct Number {
  std::string integer;
  std::string fraction;  // without the separator; may be empty
  std::size_t begin = 0;
  std::size_t end = 0;
};

using ascii::is_digit;
using ascii::trim;

bool letter_at(std::string_view text, std::size_t pos) {
  return pos < text.size() && ascii::is_alpha(text[pos]);
}

bool letter_before(std::string_view text, std::size_t pos) {
  return pos > 0 && ascii::is_alpha(text[pos - 1]);
}

// Number of consecutive digits starting at pos.
std::size_t digit_run(std::string_view text, std::size_t pos) {
  std::size_t count = 0;
  while (pos + count < text.size() && is_digit(text[pos + count])) ++count;
  return count;
}

// The currency symbol or ISO code starting exactly at pos, if any.
std::optional<CurrencyMatch> currency_at(std::string_view text, std::size_t pos) {
  const std::string_view rest = text.substr(pos);
  for (const auto& symbol : kCurrencySymbols) {
    if (rest.substr(0, symbol.text.size()) != symbol.text) continue;
    const std::size_t end = pos + symbol.text.size();
    if (symbol.starts_with_letter && (letter_before(text, pos) || letter_at(text, end))) continue;
    return CurrencyMatch{symbol.text, symbol.code, pos, end};
  }
  if (rest.size() < 3 || letter_before(text, pos) || letter_at(text, pos + 3)) return std::nullopt;
  for (const auto code : kIsoCodes) {
    if (rest.substr(0, 3) == code) return CurrencyMatch{code, code, pos, pos + 3};
  }
  return std::nullopt;
}

std::optional<CurrencyMatch> first_currency(std::string_view text) {
  for (std::size_t pos = 0; pos < text.size(); ++pos) {
    if (auto match = currency_at(text, pos)) return match;
  }
  return std::nullopt;
}

// True when text[pos] is a thousands separator inside the integer part of a number: ",ddd" not
// followed by another digit, or ".ddd" followed by ",d" or ".ddd" (or ending a number that has
// already used '.' for grouping, as in "1.000.000").
bool is_thousands_separator(std::string_view text, std::size_t pos, bool dot_grouping) {
  if (pos >= text.size() || (text[pos] != ',' && text[pos] != '.')) return false;
  if (digit_run(text, pos + 1) != 3) return false;
  if (text[pos] == ',' || dot_grouping) return true;
  const std::size_t after = pos + 4;
  if (after + 1 >= text.size()) return false;
  if (text[after] == ',') return is_digit(text[after + 1]);
  return text[after] == '.' && digit_run(text, after + 1) == 3;
}

// True when text[pos] is a ',' used as a decimal separator: exactly two digits follow and end the
// number, no list of comma-separated numbers continues after them, and the number did not itself
// start right after a comma (so "10,20,30" reads as three numbers).
bool is_decimal_comma(std::string_view text, std::size_t pos, std::size_t number_begin) {
  if (pos >= text.size() || text[pos] != ',' || digit_run(text, pos + 1) != 2) return false;
  if (number_begin > 0 && text[number_begin - 1] == ',') return false;
  const std::size_t after = pos + 3;
  return !(after + 1 < text.size() && text[after] == ',' && is_digit(text[after + 1]));
}

// Parses the number starting at pos (a digit, or a '.' directly followed by a digit).
Number parse_number_at(std::string_view text, std::size_t pos) {
  Number number;
  number.begin = pos;
  bool dot_grouping = false;
  while (true) {
    const std::size_t digits = digit_run(text, pos);
    number.integer.append(text.substr(pos, digits));
    pos += digits;
    if (!is_thousands_separator(text, pos, dot_grouping)) break;
    dot_grouping = dot_grouping || text[pos] == '.';
    ++pos;
  }
  const bool decimal_point = pos + 1 < text.size() && text[pos] == '.' && is_digit(text[pos + 1]);
  if (decimal_point || is_decimal_comma(text, pos, number.begin)) {
    const std::size_t digits = digit_run(text, pos + 1);
    number.fraction.assign(text.substr(pos + 1, digits));
    pos += 1 + digits;
  }
  const std::size_t first_nonzero = number.integer.find_first_not_of('0');
  number.integer.erase(0, std::min(first_nonzero, number.integer.size()));
  if (number.integer.empty()) number.integer = "0";
  number.end = pos;
  return number;
}

bool starts_number(std::string_view text, std::size_t pos) {
  if (is_digit(text[pos])) return true;
  return text[pos] == '.' && pos + 1 < text.size() && is_digit(text[pos + 1]) &&
         (pos == 0 || !is_digit(text[pos - 1]));
}

// True when the word "free" (any case, not part of a longer word) starts at pos.
bool is_free_word_at(std::string_view text, std::size_t pos) {
  if (text.size() - pos < kFreeWord.size() || letter_before(text, pos)) return false;
  for (std::size_t i = 0; i < kFreeWord.size(); ++i) {
    if (ascii::to_lower(text[pos + i]) != kFreeWord[i]) return false;
  }
  return !letter_at(text, pos + kFreeWord.size());
}

// All numbers in the text, in order; the word "free" contributes a zero (its range is empty so
// that it never decides the currency position).
std::vector<Number> find_numbers(std::string_view text, std::optional<std::size_t>& first_numeric) {
  std::vector<Number> numbers;
  for (std::size_t pos = 0; pos < text.size();) {
    if (starts_number(text, pos)) {
      numbers.push_back(parse_number_at(text, pos));
      if (!first_numeric) first_numeric = numbers.back().begin;
      pos = numbers.back().end;
    } else if (is_free_word_at(text, pos)) {
      numbers.push_back(Number{"0", "", pos, pos});
      pos += kFreeWord.size();
    } else {
      ++pos;
    }
  }
  return numbers;
}

// Three-way numeric comparison of two normalized numbers.
int compare_numbers(const Number& a, const Number& b) {
  if (a.integer.size() != b.integer.size()) return a.integer.size() < b.integer.size() ? -1 : 1;
  if (const int order = a.integer.compare(b.integer); order != 0) return order < 0 ? -1 : 1;
  const std::size_t length = std::max(a.fraction.size(), b.fraction.size());
  for (std::size_t i = 0; i < length; ++i) {
    const char da = i < a.fraction.size() ? a.fraction[i] : '0';
    const char db = i < b.fraction.size() ? b.fraction[i] : '0';
    if (da != db) return da < db ? -1 : 1;
  }
  return 0;
}

std::string to_value_string(const Number& number) {
  return number.fraction.empty() ? number.integer : number.integer + "." + number.fraction;
}

bool is_zero_value(std::string_view value) { return value.find_first_not_of("0.") == std::string_view::npos; }

std::vector<std::string> sorted_unique_values(std::vector<Number> numbers) {
  std::stable_sort(numbers.begin(), numbers.end(),
                   [](const Number& a, const Number& b) { return compare_numbers(a, b) < 0; });
  const auto last = std::unique(numbers.begin(), numbers.end(),
                                [](const Number& a, const Number& b) { return compare_numbers(a, b) == 0; });
  std::vector<std::string> values;
  for (auto it = numbers.begin(); it != last; ++it) values.push_back(to_value_string(*it));
  return values;
}

// One end of a price range, with the currency symbol placed as parse_cost() found it.
std::string render_value(const CostDetails& details, const std::string& value) {
  if (is_zero_value(value)) return std::string(kFreeDisplay);
  if (details.currency_symbol.empty() || details.currency_position.empty()) return value;
  const std::string gap = details.currency_symbol == details.currency_code ? " " : "";
  if (details.currency_position == kPrefix) return details.currency_symbol + gap + value;
  return value + gap + details.currency_symbol;
}

}  // namespace

CostDetails parse_cost(std::string_view cost_text) {
  CostDetails details;
  std::optional<std::size_t> first_numeric;
  details.values = sorted_unique_values(find_numbers(cost_text, first_numeric));
  if (const auto currency = first_currency(cost_text)) {
    details.currency_symbol = currency->symbol;
    details.currency_code = currency->code;
    if (first_numeric) {
      details.currency_position = currency->end <= *first_numeric ? kPrefix : kPostfix;
    }
  }
  return details;
}

std::string display_cost(std::string_view cost_text) {
  const std::string_view trimmed = trim(cost_text);
  const CostDetails details = parse_cost(trimmed);
  if (details.values.empty()) return std::string(trimmed);
  if (details.values.size() == 1) {
    return is_zero_value(details.values.front()) ? std::string(kFreeDisplay) : std::string(trimmed);
  }
  return render_value(details, details.values.front()) + std::string(kEnDashSeparator) +
         render_value(details, details.values.back());
}

std::string join_cost_values(const std::vector<std::string>& values) {
  std::string out;
  for (std::string_view v : values) {
    v = trim(v);
    if (v.empty()) continue;
    if (!out.empty()) out += ", ";
    out += v;
  }
  return out;
}

}  // namespace cal
