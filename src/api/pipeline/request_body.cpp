// Reading the query string and body (see request_body.h).
#include "api/pipeline/request_body.h"

#include "cal/core/text/ascii.h"
#include "cal/http/input.h"
#include "cal/http/multipart.h"

#include <algorithm>

namespace cal {
namespace {

// text/calendar is UTF-8 unless a charset says otherwise (RFC 5545 §3.1.4); only UTF-8 is read.
bool is_utf8_content_type(const std::string& content_type) {
  const std::string lowered = ascii::lower(content_type);
  const std::size_t at = lowered.find("charset=");
  if (at == std::string::npos) return true;
  std::string charset = lowered.substr(at + 8);
  charset = charset.substr(0, charset.find(';'));
  charset.erase(
      std::remove_if(charset.begin(), charset.end(), [](char c) { return ascii::is_space(c) || c == '"'; }),
      charset.end());
  return charset == "utf-8" || charset == "utf8";
}

}  // namespace

const rapidjson::Value* member(const rapidjson::Value& obj, const char* name) {
  auto it = obj.FindMember(name);
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

bool is_body_method(std::string_view method) {
  return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

ApiError unsupported_media_type(const Locale& locale) {
  return ApiError{415, "rest_unsupported_media_type",
                  translate(locale,
                            "Send the body as application/json, application/x-www-form-urlencoded or "
                            "multipart/form-data.")};
}

void parse_query(const Request& request, ParsedInput& input) {
  input.query.SetObject();
  parse_form(request.query_string, input.query, input.invalid_utf8);
}

void parse_body(const Request& request, ParsedInput& input, const Locale& locale) {
  input.body.SetObject();
  std::string type = request.content_type.substr(0, request.content_type.find(';'));
  type.erase(std::remove_if(type.begin(), type.end(), ascii::is_space), type.end());
  type = ascii::lower(type);
  // An iCalendar import (docs/feeds.md): read by the route's own handler, even when empty.
  if (type == "text/calendar") {
    if (!is_utf8_content_type(request.content_type))
      throw ApiError{415, "rest_unsupported_media_type",
                     translate(locale, "Send text/calendar bodies in UTF-8 (charset=utf-8).")};
    input.calendar = true;
    return;
  }
  // JSON's own white space (RFC 8259), not ascii::kWhiteSpace: a body of "\f" is not empty.
  if (request.body.find_first_not_of(" \t\r\n") == std::string::npos) return;
  if (type == "application/json" || (type.size() > 5 && type.compare(type.size() - 5, 5, "+json") == 0)) {
    switch (parse_json_body(request.body, input.body)) {
      case JsonBodyError::kNone:
        return;
      case JsonBodyError::kInvalidUtf8:
        throw ApiError{400, "rest_invalid_json", translate(locale, "The JSON body is not valid UTF-8.")};
      case JsonBodyError::kNotAnObject:
        throw ApiError{400, "rest_invalid_json", translate(locale, "The JSON body must be an object.")};
      case JsonBodyError::kMalformed:
        throw ApiError{400, "rest_invalid_json", translate(locale, "Invalid JSON body passed.")};
    }
  }
  if (type == "application/x-www-form-urlencoded") {
    parse_form(request.body, input.body, input.invalid_utf8);
    return;
  }
  if (type == "multipart/form-data") {  // a browser's FormData: fields like a form, no files
    const auto boundary = multipart_boundary(request.content_type);
    const MultipartResult parsed =
        boundary ? parse_multipart(request.body, *boundary, input.body, input.invalid_utf8)
                 : MultipartResult{MultipartError::kMalformed, ""};
    if (parsed.error == MultipartError::kMalformed)
      throw ApiError{400, "rest_invalid_multipart",
                     translate(locale, "The multipart/form-data body is malformed.")};
    if (parsed.error == MultipartError::kFile)
      throw invalid_params(
          locale, {{parsed.field,
                    format_message(locale, "%s is a file, and no route takes files.", {parsed.field})}});
    return;
  }
  throw unsupported_media_type(locale);
}

}  // namespace cal
