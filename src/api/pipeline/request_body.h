// The request's query string and body as the pipeline reads them: the query parsed as a form, the
// body by its Content-Type (JSON, a form, multipart/form-data, or an iCalendar import left to the
// route's own handler). Every malformed or unsupported body is an ApiError.
#pragma once

#include "cal/api/pipeline/error.h"
#include "cal/core/i18n/i18n.h"
#include "cal/http/request.h"

#include <rapidjson/document.h>

#include <string>
#include <string_view>
#include <vector>

namespace cal {

struct ParsedInput {
  rapidjson::Document query;
  rapidjson::Document body;
  std::vector<std::string> invalid_utf8;  // fields whose text was not UTF-8
  bool calendar = false;                  // a text/calendar body, left to the route's calendar_handler
};

// The member `name` of a JSON object, or nullptr.
const rapidjson::Value* member(const rapidjson::Value& obj, const char* name);

// Methods whose request may carry a body.
bool is_body_method(std::string_view method);

// 415 rest_unsupported_media_type for a body type no route reads.
ApiError unsupported_media_type(const Locale& locale);

// Parses the query string into input.query (and notes its non-UTF-8 fields).
void parse_query(const Request& request, ParsedInput& input);

// Parses the body by content type into `input`; throws ApiError for malformed or unsupported bodies.
void parse_body(const Request& request, ParsedInput& input, const Locale& locale);

}  // namespace cal
