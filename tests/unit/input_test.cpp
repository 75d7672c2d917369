// Query/form and JSON body parsing.
#include "cal/http/input.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <doctest/doctest.h>

#include <string>

namespace {

std::string to_json(const rapidjson::Value& v) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  v.Accept(w);
  return buffer.GetString();
}

struct FormCase {
  const char* input;
  const char* json;
  const char* invalid;  // comma-joined names with bad UTF-8
};

const FormCase kFormCases[] = {
    {"", "{}", ""},
    {"a=1", R"({"a":"1"})", ""},
    {"a=1&a=2", R"({"a":"2"})", ""},
    {"a=hello+world", R"({"a":"hello world"})", ""},
    {"a=%41%42", R"({"a":"AB"})", ""},
    {"a[]=1&a[]=2", R"({"a":["1","2"]})", ""},
    {"a[k]=v&a[j]=w", R"({"a":{"k":"v","j":"w"}})", ""},
    {"a[k]=v&a[k]=x", R"({"a":{"k":"x"}})", ""},
    {"a=1&a[]=2", R"({"a":["2"]})", ""},
    {"flag", R"({"flag":""})", ""},
    {"=x&&b=2", R"({"b":"2"})", ""},
    {"a=%zz", R"({"a":""})", "a"},
    {"a=%ff", R"({"a":""})", "a"},
    {"%ff=1", "{}", ""},
    {"a=%E2%82%AC", "{\"a\":\"\xE2\x82\xAC\"}", ""},
    {"a[=1", R"({"a[":"1"})", ""},
    // Indexed lists (qs, @wordpress/url): ordered by index, gaps closed, last value per index.
    {"a[0]=5&a[1]=7", R"({"a":["5","7"]})", ""},
    {"a[1]=7&a[0]=5", R"({"a":["5","7"]})", ""},
    {"a%5B0%5D=5&a%5B1%5D=7", R"({"a":["5","7"]})", ""},
    {"a[0]=5&a[7]=9&a[3]=8", R"({"a":["5","8","9"]})", ""},
    {"a[0]=5&a[0]=6", R"({"a":["6"]})", ""},
    {"a[3]=1&a[]=2", R"({"a":["1","2"]})", ""},
    {"a[]=1&a[0]=2", R"({"a":["2"]})", ""},
    {"a[]=1&a[]=2&a[1]=3", R"({"a":["1","3"]})", ""},
    {"a[0]=1&a=2", R"({"a":"2"})", ""},
    {"a=2&a[0]=1", R"({"a":["1"]})", ""},
    {"a[0]=1&b=2&a[1]=3", R"({"a":["1","3"],"b":"2"})", ""},
    {"a[999999999999999999]=1&a[0]=2", R"({"a":["2","1"]})", ""},
    // Not indices: leading zeros, signs, too long; such keys make an object.
    {"a[01]=1", R"({"a":{"01":"1"}})", ""},
    {"a[-1]=1", R"({"a":{"-1":"1"}})", ""},
    {"a[0]=1&a[x]=2&a[]=3", R"({"a":{"0":"1","x":"2","1":"3"}})", ""},
    {"a[1000000000000000000]=1", R"({"a":{"1000000000000000000":"1"}})", ""},
    {"a[0]=%ff", R"({"a":[""]})", "a"},
};

}  // namespace

TEST_CASE("form and query strings follow PHP conventions") {
  for (const auto& c : kFormCases) {
    CAPTURE(std::string(c.input));
    rapidjson::Document doc;
    doc.SetObject();
    std::vector<std::string> invalid;
    cal::parse_form(c.input, doc, invalid);
    CHECK(to_json(doc) == c.json);
    std::string joined;
    for (const auto& n : invalid) joined += (joined.empty() ? "" : ",") + n;
    CHECK(joined == c.invalid);
  }
}

TEST_CASE("JSON bodies: objects only, malformed and bad UTF-8 told apart") {
  rapidjson::Document doc;
  CHECK(cal::parse_json_body(R"({"a": [1, {"b": null}]})", doc) == cal::JsonBodyError::kNone);
  CHECK(cal::parse_json_body("", doc) == cal::JsonBodyError::kNone);
  CHECK(doc.IsObject());
  CHECK(cal::parse_json_body("  \n", doc) == cal::JsonBodyError::kNone);
  CHECK(cal::parse_json_body("{", doc) == cal::JsonBodyError::kMalformed);
  CHECK(cal::parse_json_body("{\"a\":1,}", doc) == cal::JsonBodyError::kMalformed);
  CHECK(cal::parse_json_body("[1,2]", doc) == cal::JsonBodyError::kNotAnObject);
  CHECK(cal::parse_json_body("\"x\"", doc) == cal::JsonBodyError::kNotAnObject);
  CHECK(cal::parse_json_body("{\"a\":\"\xC3\x28\"}", doc) == cal::JsonBodyError::kInvalidUtf8);
}

TEST_CASE("deep JSON nesting does not exhaust the stack") {
  std::string deep = "{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  rapidjson::Document doc;
  CHECK(cal::parse_json_body(deep, doc) == cal::JsonBodyError::kNone);
}
