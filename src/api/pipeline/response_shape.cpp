// _fields and _envelope (see cal/api/pipeline/response_shape.h).
#include "cal/api/pipeline/response_shape.h"

#include "cal/core/text/ascii.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <map>

namespace cal {
namespace {

using rapidjson::Value;

// The requested paths as a tree: a node that is `whole` keeps its value entire.
struct FieldTree {
  bool whole = false;
  std::map<std::string, FieldTree, std::less<>> children;
};

FieldTree field_tree(const std::vector<std::string>& fields) {
  FieldTree root;
  for (const std::string& f : fields) {
    FieldTree* node = &root;
    std::size_t start = 0;
    while (true) {
      const std::size_t dot = f.find('.', start);
      node = &node->children[f.substr(start, dot == std::string::npos ? std::string::npos : dot - start)];
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    node->whole = true;
  }
  return root;
}

void filter(Value& v, const FieldTree& tree, rapidjson::Document::AllocatorType& alloc) {
  if (v.IsArray()) {
    for (auto& e : v.GetArray()) filter(e, tree, alloc);
    return;
  }
  if (!v.IsObject()) return;  // a path past a scalar keeps the scalar, as in WordPress
  Value kept(rapidjson::kObjectType);
  for (auto& m : v.GetObject()) {
    const auto it = tree.children.find(std::string_view(m.name.GetString(), m.name.GetStringLength()));
    if (it == tree.children.end()) continue;
    if (!it->second.whole) filter(m.value, it->second, alloc);
    kept.AddMember(std::move(m.name), std::move(m.value), alloc);
  }
  v = std::move(kept);
}

std::string to_text(const Value& v) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  v.Accept(w);
  return std::string(buffer.GetString(), buffer.GetSize());
}

void add_text(std::vector<std::string>& out, std::string_view list) {
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string_view item = ascii::trim(list.substr(start, comma - start));
    if (!item.empty()) out.emplace_back(item);
    start = comma + 1;
  }
}

}  // namespace

std::vector<std::string> field_list(const Value& value) {
  std::vector<std::string> out;
  if (value.IsString()) add_text(out, {value.GetString(), value.GetStringLength()});
  if (value.IsArray())
    for (const auto& e : value.GetArray())
      if (e.IsString()) add_text(out, {e.GetString(), e.GetStringLength()});
  return out;
}

void filter_fields(std::string& body, const std::vector<std::string>& fields, std::string_view list_key) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseIterativeFlag>(body.data(), body.size());
  if (doc.HasParseError()) return;
  const FieldTree tree = field_tree(fields);
  Value* records = nullptr;
  if (doc.IsObject() && !list_key.empty())
    if (auto it = doc.FindMember(Value(rapidjson::StringRef(list_key.data(), list_key.size())));
        it != doc.MemberEnd() && it->value.IsArray())
      records = &it->value;
  filter(records ? *records : static_cast<Value&>(doc), tree, doc.GetAllocator());
  body = to_text(doc);
}

void envelope(Response& response) {
  rapidjson::Document doc;
  doc.SetObject();
  auto& alloc = doc.GetAllocator();
  rapidjson::Document inner;
  if (!response.body.empty())
    inner.Parse<rapidjson::kParseIterativeFlag>(response.body.data(), response.body.size());
  Value body;  // null when empty (204, HEAD) or not JSON; an iCalendar feed's text as a string
  if (!response.body.empty() && !inner.HasParseError()) {
    body.CopyFrom(inner, alloc);
  } else if (!response.body.empty()) {
    for (const auto& [name, value] : response.headers)
      if (ascii::iequals(name, "Content-Type") && ascii::lower(value).rfind("text/calendar", 0) == 0)
        body.SetString(response.body.data(), static_cast<rapidjson::SizeType>(response.body.size()), alloc);
  }
  doc.AddMember("body", body, alloc);
  doc.AddMember("status", response.status, alloc);
  Value headers(rapidjson::kObjectType);
  std::vector<std::pair<std::string, std::string>> kept;
  for (const auto& [name, value] : response.headers) {
    if (ascii::iequals(name, "Content-Type")) {
      kept.emplace_back(name, value);
      continue;
    }
    headers.AddMember(Value(name.c_str(), alloc), Value(value.c_str(), alloc), alloc);
  }
  doc.AddMember("headers", headers, alloc);
  response.status = 200;
  response.body = to_text(doc);
  response.headers = std::move(kept);
  response.set_header("Content-Type", "application/json; charset=UTF-8");
}

}  // namespace cal
