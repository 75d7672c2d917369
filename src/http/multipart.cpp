// multipart/form-data bodies (see cal/http/multipart.h).
#include "cal/http/multipart.h"

#include "cal/core/text/ascii.h"
#include "cal/http/input.h"

#include <map>
#include <utility>

namespace cal {
namespace {

using ascii::iequals;
using ascii::trim;

// A header value's parameters (`form-data; name="a"; filename=b`): the first token, and each
// `key=value` with the key lower-cased and a quoted value unquoted (backslash escapes).
struct HeaderValue {
  std::string token;
  std::map<std::string, std::string> params;
};

HeaderValue parse_header_value(std::string_view v) {
  HeaderValue out;
  size_t pos = v.find(';');
  out.token = ascii::lower(trim(v.substr(0, pos)));
  while (pos != std::string_view::npos && pos < v.size()) {
    ++pos;  // past ';'
    while (pos < v.size() && (v[pos] == ' ' || v[pos] == '\t')) ++pos;
    const size_t eq = v.find_first_of("=;", pos);
    if (eq == std::string_view::npos || v[eq] == ';') {
      pos = eq;
      continue;
    }
    const std::string key = ascii::lower(trim(v.substr(pos, eq - pos)));
    std::string value;
    pos = eq + 1;
    while (pos < v.size() && (v[pos] == ' ' || v[pos] == '\t')) ++pos;
    if (pos < v.size() && v[pos] == '"') {
      ++pos;
      while (pos < v.size() && v[pos] != '"') {
        if (v[pos] == '\\' && pos + 1 < v.size()) ++pos;
        value += v[pos++];
      }
      pos = v.find(';', pos);
    } else {
      const size_t end = v.find(';', pos);
      value = std::string(
          trim(v.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos)));
      pos = end;
    }
    out.params.emplace(key, std::move(value));  // the first of a repeated key counts
  }
  return out;
}

// A part name as browsers escape it (HTML's multipart/form-data encoding algorithm).
std::string unescape_name(std::string_view name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '%' && i + 2 < name.size()) {
      const std::string_view code = name.substr(i + 1, 2);
      if (iequals(code, "22") || iequals(code, "0D") || iequals(code, "0A")) {
        out += iequals(code, "22") ? '"' : iequals(code, "0D") ? '\r' : '\n';
        i += 2;
        continue;
      }
    }
    out += name[i];
  }
  return out;
}

}  // namespace

std::optional<std::string> multipart_boundary(std::string_view content_type) {
  const HeaderValue v = parse_header_value(content_type);
  const auto it = v.params.find("boundary");
  if (it == v.params.end() || it->second.empty() || it->second.size() > 70) return std::nullopt;
  return it->second;
}

MultipartResult parse_multipart(std::string_view body, std::string_view boundary, rapidjson::Document& out,
                                std::vector<std::string>& invalid_names) {
  out.SetObject();
  MultipartResult result;
  auto malformed = [&] {
    out.SetObject();
    result.error = MultipartError::kMalformed;
    return result;
  };
  if (boundary.empty()) return malformed();
  const std::string delimiter = "--" + std::string(boundary);
  const std::string inner = "\r\n" + delimiter;
  // The first delimiter opens the body or follows a preamble's line break.
  size_t pos = 0;
  if (body.substr(0, delimiter.size()) != delimiter) {
    pos = body.find(inner);
    if (pos == std::string_view::npos) return malformed();
    pos += 2;
  }
  std::vector<std::pair<std::string, std::string>> pairs;
  while (true) {
    pos += delimiter.size();
    if (body.substr(pos, 2) == "--") break;  // the close delimiter; an epilogue is ignored
    while (pos < body.size() && (body[pos] == ' ' || body[pos] == '\t')) ++pos;  // padding
    if (body.substr(pos, 2) != "\r\n") return malformed();
    pos += 2;
    // Headers up to an empty line (none at all: the empty line comes at once).
    size_t content = 0;
    std::string_view headers;
    if (body.substr(pos, 2) == "\r\n") {
      content = pos + 2;
    } else {
      const size_t end = body.find("\r\n\r\n", pos);
      if (end == std::string_view::npos) return malformed();
      headers = body.substr(pos, end - pos);
      content = end + 4;
    }
    const size_t next = body.find(inner, content);
    if (next == std::string_view::npos) return malformed();
    const std::string_view value = body.substr(content, next - content);
    pos = next + 2;
    std::optional<HeaderValue> disposition;
    size_t line_start = 0;
    while (line_start <= headers.size() && !headers.empty()) {
      size_t line_end = headers.find("\r\n", line_start);
      if (line_end == std::string_view::npos) line_end = headers.size();
      const std::string_view line = headers.substr(line_start, line_end - line_start);
      line_start = line_end + 2;
      const size_t colon = line.find(':');
      if (colon == std::string_view::npos) return malformed();
      if (iequals(trim(line.substr(0, colon)), "content-disposition") && !disposition)
        disposition = parse_header_value(line.substr(colon + 1));
    }
    if (!disposition || disposition->token != "form-data") return malformed();
    const auto name = disposition->params.find("name");
    if (name == disposition->params.end()) return malformed();
    if (disposition->params.count("filename") || disposition->params.count("filename*")) {
      out.SetObject();
      result.error = MultipartError::kFile;
      result.field = unescape_name(name->second);
      return result;
    }
    pairs.emplace_back(unescape_name(name->second), std::string(value));
  }
  build_form(pairs, out, invalid_names);
  return result;
}

}  // namespace cal
