// JSON response helpers and the one renderer of docs/api.md §2 error bodies.
#include "cal/api/pipeline/json.h"

namespace cal {

Response json_response(int status, const JsonBuffer& body) {
  return json_response(status, std::string(body.GetString(), body.GetSize()));
}

Response json_response(int status, std::string body) {
  Response r;
  r.status = status;
  r.body = std::move(body);
  r.set_header("Content-Type", "application/json; charset=UTF-8");
  return r;
}

Response error_response(const ApiError& error) {
  JsonBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  write_member(w, "code", error.code);
  write_member(w, "message", error.message);
  write_key(w, "data");
  w.StartObject();
  write_key(w, "status");
  w.Int(error.status);
  if (!error.param_messages.empty()) {
    write_key(w, "params");
    w.StartObject();
    for (const auto& [name, message] : error.param_messages) write_member(w, name, message);
    w.EndObject();
  } else if (!error.param_names.empty()) {
    write_key(w, "params");
    w.StartArray();
    for (const auto& name : error.param_names) write_string(w, name);
    w.EndArray();
  }
  if (error.term_id) {
    write_key(w, "term_id");
    w.Int64(*error.term_id);
  }
  if (error.line) {
    write_key(w, "line");
    w.Int64(*error.line);
  }
  if (error.vevent) {
    write_key(w, "vevent");
    w.Int64(*error.vevent);
  }
  if (error.uid) write_member(w, "uid", *error.uid);
  w.EndObject();
  w.EndObject();
  Response r = json_response(error.status, buffer);
  if (error.retry_after > 0) r.set_header("Retry-After", std::to_string(error.retry_after));
  if (!error.allow.empty()) {
    std::string allow;
    for (const auto& m : error.allow) allow += (allow.empty() ? "" : ", ") + m;
    r.set_header("Allow", allow);
  }
  return r;
}

}  // namespace cal
