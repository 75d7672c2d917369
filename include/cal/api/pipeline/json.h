// JSON output helpers on RapidJSON's streaming Writer: responses are written once into one
// buffer, never assembled as a DOM and never by hand.
#pragma once

#include "cal/api/pipeline/error.h"
#include "cal/http/request.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string_view>

namespace cal {

using JsonBuffer = rapidjson::StringBuffer;
using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

inline void write_key(JsonWriter& w, std::string_view key) {
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
}
inline void write_string(JsonWriter& w, std::string_view value) {
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}
inline void write_member(JsonWriter& w, std::string_view key, std::string_view value) {
  write_key(w, key);
  write_string(w, value);
}

// A JSON response with the given status and body; sets Content-Type.
Response json_response(int status, const JsonBuffer& body);
// The same with a body written earlier (a kept record).
Response json_response(int status, std::string body);

// The docs/api.md §2 error body for `error`, as a complete response (status, body, Retry-After, Allow).
Response error_response(const ApiError& error);

}  // namespace cal
