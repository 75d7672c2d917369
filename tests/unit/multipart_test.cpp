// multipart/form-data bodies: boundaries, fields, files and malformed bodies.
#include "cal/http/multipart.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

std::string to_json(const rapidjson::Value& v) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  v.Accept(w);
  return buffer.GetString();
}

std::string part(const std::string& disposition, const std::string& value, const std::string& extra = "") {
  return "--XB\r\nContent-Disposition: " + disposition + "\r\n" + extra + "\r\n" + value + "\r\n";
}

struct Parsed {
  cal::MultipartError error;
  std::string field;
  std::string json;
  std::string invalid;
};

Parsed parse(const std::string& body, const std::string& boundary = "XB") {
  rapidjson::Document doc;
  std::vector<std::string> invalid;
  const cal::MultipartResult r = cal::parse_multipart(body, boundary, doc, invalid);
  std::string joined;
  for (const auto& n : invalid) joined += (joined.empty() ? "" : ",") + n;
  return {r.error, r.field, to_json(doc), joined};
}

}  // namespace

TEST_CASE("multipart boundaries come from the Content-Type, quoted or not") {
  CHECK(cal::multipart_boundary("multipart/form-data; boundary=abc").value_or("?") == "abc");
  CHECK(cal::multipart_boundary("multipart/form-data;boundary=\"a b;c\"").value_or("?") == "a b;c");
  CHECK(cal::multipart_boundary("multipart/form-data; charset=utf-8; BOUNDARY=x").value_or("?") == "x");
  CHECK_FALSE(cal::multipart_boundary("multipart/form-data"));
  CHECK_FALSE(cal::multipart_boundary("multipart/form-data; boundary="));
  CHECK_FALSE(cal::multipart_boundary("multipart/form-data; boundary=" + std::string(71, 'a')));
}

TEST_CASE("multipart fields become a form: brackets, indices, escaped names, values as sent") {
  const Parsed p = parse("preamble\r\n" + part("form-data; name=\"title\"", "Jazz\r\nNight") +
                         part("form-data; name=\"tags[1]\"", "b") +
                         part("form-data; name=tags[0]", "a", "Content-Type: text/plain; charset=UTF-8\r\n") +
                         part("form-data; name=\"venue[city]\"", "Lyon") +
                         part("form-data; name=\"q%22x\\\"y\"", "") + "--XB--\r\nepilogue");
  CHECK(p.error == cal::MultipartError::kNone);
  CHECK(p.json == R"({"title":"Jazz\r\nNight","tags":["a","b"],"venue":{"city":"Lyon"},"q\"x\"y":""})");
  CHECK(parse("--XB--").json == "{}");
  const Parsed bad_utf8 = parse(part("form-data; name=\"title\"", "\xff") + "--XB--");
  CHECK(bad_utf8.error == cal::MultipartError::kNone);
  CHECK(bad_utf8.json == R"({"title":""})");
  CHECK(bad_utf8.invalid == "title");
}

TEST_CASE("a multipart file part names its field; malformed bodies are told apart") {
  const Parsed file = parse(part("form-data; name=\"title\"", "x") +
                            part("form-data; name=\"image\"; filename=\"a.png\"", "\x89PNG") + "--XB--");
  CHECK(file.error == cal::MultipartError::kFile);
  CHECK(file.field == "image");
  CHECK(file.json == "{}");
  for (const std::string& body : std::vector<std::string>{
           "", "no delimiter", part("form-data; name=\"a\"", "1"),               // no close delimiter
           "--XB\r\nContent-Disposition: form-data; name=\"a\"\r\n1\r\n--XB--",  // no blank line
           part("attachment; name=\"a\"", "1") + "--XB--",                       // not form-data
           part("form-data", "1") + "--XB--",                                    // no name
           "--XB\r\nbroken header\r\n\r\n1\r\n--XB--",                           // header without colon
           "--XBjunk\r\n--XB--", "--XB"}) {
    CAPTURE(body);
    const Parsed p = parse(body);
    CHECK(p.error == cal::MultipartError::kMalformed);
    CHECK(p.json == "{}");
  }
}
