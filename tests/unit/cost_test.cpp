// Unit tests for cal/core/text/cost.h: parse_cost and display_cost on typical organizer input.
#include "cal/core/text/cost.h"

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

namespace {

struct CostCase {
  std::string_view input;
  std::string_view display;
  std::string_view symbol;
  std::string_view code;
  std::string_view position;
  std::vector<std::string> values;
};

}  // namespace

TEST_CASE("parse_cost and display_cost") {
  static const CostCase kCases[] = {
      // Worked examples from the API contract.
      {"$23", "$23", "$", "USD", "prefix", {"23"}},
      {"20€", "20€", "€", "EUR", "postfix", {"20"}},
      {"0$,20$,30$", "Free – 30$", "$", "USD", "postfix", {"0", "20", "30"}},
      {"", "", "", "", "", {}},
      // Single values: the text is shown as written (trimmed).
      {"  $23  ", "$23", "$", "USD", "prefix", {"23"}},
      {"USD 15.50", "USD 15.50", "USD", "USD", "prefix", {"15.50"}},
      {"12,50 €", "12,50 €", "€", "EUR", "postfix", {"12.50"}},
      {"£7.5", "£7.5", "£", "GBP", "prefix", {"7.5"}},
      {"¥1,000", "¥1,000", "¥", "JPY", "prefix", {"1000"}},
      {"1.000,50 EUR", "1.000,50 EUR", "EUR", "EUR", "postfix", {"1000.50"}},
      {"1.000.000 ₩", "1.000.000 ₩", "₩", "KRW", "postfix", {"1000000"}},
      {"CHF 40", "CHF 40", "CHF", "CHF", "prefix", {"40"}},
      {"40", "40", "", "", "", {"40"}},
      {"007", "007", "", "", "", {"7"}},
      {"$.50", "$.50", "$", "USD", "prefix", {"0.50"}},
      {"R$ 30", "R$ 30", "R$", "BRL", "prefix", {"30"}},
      {"20 zł", "20 zł", "zł", "PLN", "postfix", {"20"}},
      // Free.
      {"Free", "Free", "", "", "", {"0"}},
      {"FREE entry", "Free", "", "", "", {"0"}},
      {"$0", "Free", "$", "USD", "prefix", {"0"}},
      {"0.00 EUR", "Free", "EUR", "EUR", "postfix", {"0.00"}},
      {"Free, 0$", "Free", "$", "USD", "postfix", {"0"}},
      {"Freedom Fest", "Freedom Fest", "", "", "", {}},
      // Several values: "min – max".
      {"10 - 20 EUR", "10 EUR – 20 EUR", "EUR", "EUR", "postfix", {"10", "20"}},
      {"€5, €10", "€5 – €10", "€", "EUR", "prefix", {"5", "10"}},
      {"$10-$30", "$10 – $30", "$", "USD", "prefix", {"10", "30"}},
      {"Free, $5 donation", "Free – $5", "$", "USD", "prefix", {"0", "5"}},
      {"30$, 10$, 20$, 10$", "10$ – 30$", "$", "USD", "postfix", {"10", "20", "30"}},
      {"10,20,30", "10 – 30", "", "", "", {"10", "20", "30"}},
      {"9.99 or 10", "9.99 – 10", "", "", "", {"9.99", "10"}},
      {"20 or 20.00 EUR", "20 or 20.00 EUR", "EUR", "EUR", "postfix", {"20"}},
      {"Adults 12,50 €, kids 5 €", "5€ – 12.50€", "€", "EUR", "postfix", {"5", "12.50"}},
      {"$1,000 - $2,500.75", "$1000 – $2500.75", "$", "USD", "prefix", {"1000", "2500.75"}},
      {"US$ 5 - 8", "US$5 – US$8", "US$", "USD", "prefix", {"5", "8"}},
      {"100000000000000000000 or 99",
       "99 – 100000000000000000000",
       "",
       "",
       "",
       {"99", "100000000000000000000"}},
      // No numbers: the text unchanged.
      {"Donation", "Donation", "", "", "", {}},
      {"  TBA  ", "TBA", "", "", "", {}},
      {"$ TBD", "$ TBD", "$", "USD", "", {}},
      {"BUS$ ride", "BUS$ ride", "$", "USD", "", {}},
      {"EURO", "EURO", "", "", "", {}},
      {"\xff\xfe\xc3", "\xff\xfe\xc3", "", "", "", {}},
  };
  for (const auto& test : kCases) {
    CAPTURE(test.input);
    const cal::CostDetails details = cal::parse_cost(test.input);
    CHECK(details.currency_symbol == test.symbol);
    CHECK(details.currency_code == test.code);
    CHECK(details.currency_position == test.position);
    CHECK(details.values == test.values);
    CHECK(cal::display_cost(test.input) == test.display);
  }
}

TEST_CASE("parse_cost survives hostile input") {
  const std::string kInputs[] = {
      std::string(100000, '9'),
      std::string(50000, ','),
      std::string("1,") + std::string(3000, '0'),
      std::string(20000, '.') + "5",
      std::string("\0$\0"
                  "5",
                  4),
  };
  for (const auto& input : kInputs) {
    CAPTURE(input.size());
    const cal::CostDetails details = cal::parse_cost(input);
    CHECK(details.values.size() <= input.size());
    CHECK_NOTHROW(cal::display_cost(input));
  }
}

// A cost sent as an array of prices (docs/api.md §3.1's own example) is stored as one text that
// parse_cost reads back as the same values, sorted as for text.
TEST_CASE("join_cost_values: an array of prices becomes a cost text with the same values") {
  struct JoinCase {
    std::vector<std::string> values;
    std::string_view text;
    std::string_view display;
    std::vector<std::string> parsed;
  };
  static const JoinCase kCases[] = {
      {{"0$", "20$", "30$"}, "0$, 20$, 30$", "Free – 30$", {"0", "20", "30"}},
      {{"30$", "0$", "20$"}, "30$, 0$, 20$", "Free – 30$", {"0", "20", "30"}},
      {{"12,50 €", "8 €"}, "12,50 €, 8 €", "8€ – 12.50€", {"8", "12.50"}},
      {{"10", "1000"}, "10, 1000", "10 – 1000", {"10", "1000"}},
      {{" 5 ", "", "  "}, "5", "5", {"5"}},
      {{}, "", "", {}},
  };
  for (const JoinCase& c : kCases) {
    const std::string text = cal::join_cost_values(c.values);
    CAPTURE(text);
    CHECK(text == c.text);
    CHECK(cal::display_cost(text) == c.display);
    CHECK(cal::parse_cost(text).values == c.parsed);
  }
}
