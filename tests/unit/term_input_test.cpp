// The pure parts of term input (cal/api/terms/term_input.h): splitting an event's `categories`/`tags`
// value into ids and names, and normalizing a term name.
#include "cal/api/terms/term_input.h"
#include "cal/http/input.h"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

namespace {

using cal::TermInputItem;

struct SplitCase {
  const char* json;  // the value of {"v": ...}
  bool ok;
  std::vector<TermInputItem> items;  // when ok
};

const SplitCase kSplitCases[] = {
    {"null", true, {}},
    {"\"\"", true, {}},
    {"[]", true, {}},
    {"\"  \"", true, {}},
    {"5", true, {{5, ""}}},
    {"\"5\"", true, {{5, ""}}},
    {"\"Rock\"", true, {{0, "Rock"}}},
    {"\"Rock, Jazz ,12\"", true, {{0, "Rock"}, {0, "Jazz"}, {12, ""}}},
    {"\"a,,b,\"", true, {{0, "a"}, {0, "b"}}},
    {"[3, \"4\", \"Folk Music\"]", true, {{3, ""}, {4, ""}, {0, "Folk Music"}}},
    {"[\"Rock, Jazz\"]", true, {{0, "Rock, Jazz"}}},  // array items are whole names
    {"[\" x \", \"\"]", true, {{0, "x"}}},
    {"{\"0\": \"7\", \"1\": \"Blues\"}", true, {{7, ""}, {0, "Blues"}}},  // form a[k]=v
    {"\"12a\"", true, {{0, "12a"}}},
    {"\"-3\"", true, {{0, "-3"}}},
    {"0", false, {}},
    {"-2", false, {}},
    {"1.5", false, {}},
    {"true", false, {}},
    {"[null]", false, {}},
    {"[[1]]", false, {}},
    {"[{\"id\": 1}]", false, {}},
};

TEST_CASE("split_terms_input reads ids, names and comma lists") {
  for (const SplitCase& c : kSplitCases) {
    CAPTURE(c.json);
    rapidjson::Document doc;
    const std::string text = std::string("{\"v\":") + c.json + "}";
    REQUIRE(cal::parse_json_body(text, doc) == cal::JsonBodyError::kNone);
    const auto items = cal::split_terms_input(doc["v"]);
    CHECK(items.has_value() == c.ok);
    if (items && c.ok) CHECK(*items == c.items);
  }
}

struct NameCase {
  std::string input;
  std::optional<std::string> expected;  // nullopt: refused
};

const NameCase kNameCases[] = {
    {"Jazz", "Jazz"},
    {"  Jazz Club \t", "Jazz Club"},
    {"", std::nullopt},
    {" \n ", std::nullopt},
    {std::string(200, 'a'), std::string(200, 'a')},
    {std::string(201, 'a'), std::nullopt},
    {" " + std::string(200, 'a') + " ", std::string(200, 'a')},
    {"Café", "Café"},
};

TEST_CASE("normalized_term_name trims and bounds names") {
  for (const NameCase& c : kNameCases) {
    CAPTURE(c.input);
    CHECK(cal::normalized_term_name(c.input) == c.expected);
  }
}

TEST_CASE("normalized_term_name counts characters, not bytes") {
  std::string two_hundred;
  for (int i = 0; i < 200; ++i) two_hundred += "é";  // 400 bytes
  CHECK(cal::normalized_term_name(two_hundred) == two_hundred);
  CHECK_FALSE(cal::normalized_term_name(two_hundred + "é").has_value());
}

}  // namespace
