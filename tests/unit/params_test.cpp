// Parameter coercion and validation of docs/api.md §1 (types, required, defaults, gathering errors).
#include "cal/api/pipeline/params.h"
#include "cal/api/pipeline/error.h"
#include "cal/http/input.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using cal::ParamSpec;
using cal::ParamType;

// Validates one parameter "p" from `sources`; returns the error code, or "" (and the value).
std::string check(const ParamSpec& spec, const cal::ParamSources& sources, cal::ParamValue* out) {
  try {
    const cal::Params params = cal::validate_params({spec}, sources, cal::Locale{});
    if (out && params.find(cal::ParamName("p"))) *out = *params.find(cal::ParamName("p"));
    return "";
  } catch (const cal::ApiError& e) {
    return e.code;
  }
}

// One parameter given as a JSON body `{"p": <json>}`.
std::string check_json(const ParamSpec& spec, const char* json_value, cal::ParamValue* out = nullptr) {
  rapidjson::Document body;
  REQUIRE(cal::parse_json_body(std::string("{\"p\":") + json_value + "}", body) == cal::JsonBodyError::kNone);
  cal::ParamSources sources;
  sources.body = &body;
  return check(spec, sources, out);
}

// One parameter from a query string "p=..." (form conventions).
std::string check_query(const ParamSpec& spec, const char* query, cal::ParamValue* out = nullptr) {
  rapidjson::Document q;
  q.SetObject();
  cal::ParamSources sources;
  cal::parse_form(query, q, sources.invalid_utf8);
  sources.query = &q;
  return check(spec, sources, out);
}

struct TypeCase {
  ParamType type;
  const char* json;
  bool ok;
};

const TypeCase kJsonCases[] = {
    {ParamType::kInteger, "5", true},
    {ParamType::kInteger, "\"5\"", true},
    {ParamType::kInteger, "\"-5\"", true},
    {ParamType::kInteger, "\"5.5\"", false},
    {ParamType::kInteger, "5.5", false},
    {ParamType::kInteger, "\"5x\"", false},
    {ParamType::kInteger, "\"\"", false},
    {ParamType::kInteger, "\"99999999999999999999\"", false},
    {ParamType::kInteger, "\"+-5\"", false},  // one sign at most
    {ParamType::kInteger, "true", false},
    {ParamType::kInteger, "[1]", false},
    {ParamType::kBoolean, "true", true},
    {ParamType::kBoolean, "false", true},
    {ParamType::kBoolean, "\"TRUE\"", true},
    {ParamType::kBoolean, "\"0\"", true},
    {ParamType::kBoolean, "1", true},
    {ParamType::kBoolean, "0", true},
    {ParamType::kBoolean, "2", false},
    {ParamType::kBoolean, "\"yes\"", false},
    {ParamType::kBoolean, "null", false},
    {ParamType::kString, "\"x\"", true},
    {ParamType::kString, "\"\"", true},
    {ParamType::kString, "5", false},
    {ParamType::kString, "true", false},
    {ParamType::kString, "{\"a\":1}", false},
    {ParamType::kString, "[\"a\"]", false},
    {ParamType::kIntegerList, "[1,2,3]", true},
    {ParamType::kIntegerList, "[\"1\",2]", true},
    {ParamType::kIntegerList, "\"1,2, 3\"", true},
    {ParamType::kIntegerList, "\"1,\\t2\\f\"", true},
    {ParamType::kIntegerList, "7", true},
    {ParamType::kIntegerList, "\"1,x\"", false},
    {ParamType::kIntegerList, "[1.5]", false},
    {ParamType::kIntegerList, "{\"a\":1}", false},
    {ParamType::kNumber, "1.5", true},
    {ParamType::kNumber, "\"-12.25\"", true},
    {ParamType::kNumber, "\"abc\"", false},
    {ParamType::kNumber, "\"nan\"", false},
    {ParamType::kDateTime, "\"2025-05-02\"", true},
    {ParamType::kDateTime, "\"tomorrow 9am\"", true},
    {ParamType::kDateTime, "1700000000", true},
    {ParamType::kDateTime, "\"2025-02-30\"", false},
    {ParamType::kDateTime, "\"someday\"", false},
    {ParamType::kTruthy, "\"yes\"", true},
    {ParamType::kTruthy, "\"nope\"", true},
    {ParamType::kTruthy, "{}", false},
};

}  // namespace

TEST_CASE("JSON values are coerced per declared type") {
  for (const auto& c : kJsonCases) {
    CAPTURE(static_cast<int>(c.type));
    CAPTURE(std::string(c.json));
    const ParamSpec spec{.name = cal::ParamName("p"), .type = c.type};
    CHECK((check_json(spec, c.json) == "") == c.ok);
  }
}

TEST_CASE("query-string lists accept a[]=, comma lists and single values") {
  const ParamSpec spec{.name = cal::ParamName("p"), .type = ParamType::kIntegerList};
  cal::ParamValue v;
  CHECK(check_query(spec, "p[]=1&p[]=2", &v) == "");
  CHECK(v.integers == std::vector<long long>{1, 2});
  CHECK(check_query(spec, "p=3,%204", &v) == "");
  CHECK(v.integers == std::vector<long long>{3, 4});
  CHECK(check_query(spec, "p=x", &v) == "rest_invalid_param");
}

TEST_CASE("list limits count every form of a list before anything else") {
  const ParamSpec ids{.name = cal::ParamName("p"), .type = ParamType::kIntegerList, .max_items = 3};
  CHECK(check_query(ids, "p=1,2,3") == "");
  CHECK(check_query(ids, "p=1,2,3,4") == "rest_invalid_param");
  CHECK(check_query(ids, "p[]=1&p[]=2&p[]=3&p[]=4") == "rest_invalid_param");
  CHECK(check_json(ids, "[1,2,3]") == "");
  CHECK(check_json(ids, "[1,2,3,4]") == "rest_invalid_param");
  // Raw inputs (event terms): arrays, one-level form objects and comma lists alike.
  const ParamSpec terms{.name = cal::ParamName("p"), .type = ParamType::kAny, .max_items = 2};
  CHECK(check_json(terms, "[\"a\",\"b\"]") == "");
  CHECK(check_json(terms, "[\"a\",\"b\",\"c\"]") == "rest_invalid_param");
  CHECK(check_json(terms, "\"a,b,c\"") == "rest_invalid_param");
  CHECK(check_query(terms, "p[0]=a&p[1]=b&p[2]=c") == "rest_invalid_param");
  CHECK(check_json(terms, "5") == "");
  // The message names the parameter and the limit.
  rapidjson::Document body;
  REQUIRE(cal::parse_json_body("{\"p\":[1,2,3]}", body) == cal::JsonBodyError::kNone);
  cal::ParamSources sources;
  sources.body = &body;
  try {
    cal::validate_params({terms}, sources, cal::Locale{});
    FAIL("no error");
  } catch (const cal::ApiError& e) {
    CHECK(e.param_messages.at("p") == "p takes at most 2 items.");
  }
}

TEST_CASE("positive integers, enums, non-empty strings and ranges are enforced") {
  const ParamSpec page{.name = cal::ParamName("p"), .type = ParamType::kInteger, .positive = true};
  CHECK(check_query(page, "p=0") == "rest_invalid_param");
  CHECK(check_query(page, "p=-1") == "rest_invalid_param");
  CHECK(check_query(page, "p=1") == "");
  const ParamSpec order{
      .name = cal::ParamName("p"), .type = ParamType::kString, .enum_values = {"asc", "desc"}};
  cal::ParamValue v;
  CHECK(check_query(order, "p=DESC", &v) == "");
  CHECK(v.text == "desc");
  CHECK(check_query(order, "p=up") == "rest_invalid_param");
  const ParamSpec search{.name = cal::ParamName("p"), .type = ParamType::kString, .non_empty = true};
  CHECK(check_query(search, "p=") == "rest_invalid_param");
  const ParamSpec lat{
      .name = cal::ParamName("p"), .type = ParamType::kNumber, .minimum = -90.0, .maximum = 90.0};
  CHECK(check_query(lat, "p=91") == "rest_invalid_param");
  CHECK(check_query(lat, "p=-90") == "");
}

TEST_CASE("missing required parameters are gathered into one error") {
  const std::vector<ParamSpec> specs = {
      {.name = cal::ParamName("title"), .type = ParamType::kString, .required = true},
      {.name = cal::ParamName("start_date"), .type = ParamType::kDateTime, .required = true},
      {.name = cal::ParamName("x"), .type = ParamType::kString},
  };
  cal::ParamSources sources;
  try {
    cal::validate_params(specs, sources, cal::Locale{});
    FAIL("expected an error");
  } catch (const cal::ApiError& e) {
    CHECK(e.status == 400);
    CHECK(e.code == "rest_missing_callback_param");
    CHECK(e.param_names == std::vector<std::string>{"title", "start_date"});
    CHECK(e.message == "Missing parameter(s): title, start_date");
  }
}

TEST_CASE("invalid parameters are gathered into one error with a message each") {
  const std::vector<ParamSpec> specs = {
      {.name = cal::ParamName("page"), .type = ParamType::kInteger, .positive = true},
      {.name = cal::ParamName("featured"), .type = ParamType::kBoolean},
      {.name = cal::ParamName("title"), .type = ParamType::kString, .required = true},
  };
  rapidjson::Document q;
  q.SetObject();
  cal::ParamSources sources;
  cal::parse_form("page=abc&featured=maybe&title=", q, sources.invalid_utf8);
  sources.query = &q;
  try {
    cal::validate_params(specs, sources, cal::Locale{});
    FAIL("expected an error");
  } catch (const cal::ApiError& e) {
    CHECK(e.code == "rest_invalid_param");
    CHECK(e.param_messages.size() == 3);
    CHECK(e.param_messages.at("page") == "page must be a positive integer.");
    CHECK(e.param_messages.at("featured") == "featured is not of type boolean.");
    CHECK(e.param_messages.count("title") == 1);  // required but sent empty
  }
}

TEST_CASE("sources: path wins over body, body over query, query over default") {
  const std::vector<ParamSpec> specs = {
      {.name = cal::ParamName("id"), .type = ParamType::kInteger},
      {.name = cal::ParamName("a"), .type = ParamType::kString},
      {.name = cal::ParamName("b"), .type = ParamType::kString},
      {.name = cal::ParamName("c"), .type = ParamType::kString, .default_value = "dflt"},
  };
  rapidjson::Document body, query;
  REQUIRE(cal::parse_json_body(R"({"id": 99, "a": "body"})", body) == cal::JsonBodyError::kNone);
  query.SetObject();
  cal::ParamSources sources;
  cal::parse_form("a=query&b=query", query, sources.invalid_utf8);
  sources.path = {{"id", "5"}};
  sources.body = &body;
  sources.query = &query;
  const cal::Params p = cal::validate_params(specs, sources, cal::Locale{});
  CHECK(p.integer(cal::ParamName("id")) == 5);
  CHECK(p.text(cal::ParamName("a")) == "body");
  CHECK(p.text(cal::ParamName("b")) == "query");
  CHECK(p.text(cal::ParamName("c")) == "dflt");
  CHECK(p.given(cal::ParamName("b")));
  CHECK_FALSE(p.given(cal::ParamName("c")));
}

TEST_CASE("invalid UTF-8 in a query value is a rest_invalid_param") {
  const ParamSpec spec{.name = cal::ParamName("p"), .type = ParamType::kString};
  CHECK(check_query(spec, "p=%C3%28") == "rest_invalid_param");
  CHECK(check_query(spec, "p=%C3%A9") == "");
}
