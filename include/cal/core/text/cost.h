// Event cost text: extracts prices and currency from the free-form cost an organizer typed
// ("$23", "10 - 20 EUR", "Free") and renders the `cost` output field of the REST API.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cal {

// What parse_cost() found in a cost text.
struct CostDetails {
  std::string currency_symbol;      // as written: "$", "€", "US$", "EUR"; "" when none
  std::string currency_code;        // ISO 4217 code written or implied by the symbol; "" if unknown
  std::string currency_position;    // "prefix" | "postfix" | "" (no symbol, or no number)
  std::vector<std::string> values;  // numeric strings, ascending, numerically deduplicated
};

// Parses a cost text. Values: every number in the text, normalized ('.' decimal point; ',' is
// read as a decimal separator when followed by exactly two digits that end the number, as in
// "12,50"; thousands separators such as "1,000" or "1.000,50" are dropped; leading zeros of the
// integer part removed; fraction digits kept as written, so "15.50" stays "15.50"), plus "0" for
// the word "free" (any case). Sorted ascending by numeric value; of numerically equal values the
// first one in the text is kept. The first currency symbol or upper-case ISO code in the text
// gives symbol and code; it is a prefix when it ends before the first number, else a postfix;
// the position is "" when the text has no number. Never throws except std::bad_alloc.
CostDetails parse_cost(std::string_view cost_text);

// The cost text of a list of prices (a `cost` sent as an array, docs/api.md §3.1): the non-blank values
// trimmed and joined by ", ", which parse_cost() reads back as the same values
// (["0$", "20$", "30$"] → "0$, 20$, 30$").
std::string join_cost_values(const std::vector<std::string>& values);

// The `cost` output field. The trimmed text when it has no value, or exactly one value that is
// not zero; "Free" for a single zero value; for several values "min – max" (U+2013 en dash with
// spaces), each rendered with the symbol in its position (no space for a symbol, one space for an
// ISO code, e.g. "$10", "30$", "20 EUR") and a zero value rendered as "Free".
std::string display_cost(std::string_view cost_text);

}  // namespace cal
