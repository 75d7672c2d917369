// Query-string, form-body and JSON-body parsing (see cal/http/input.h).
#include "cal/http/input.h"

#include "cal/core/text/slug.h"
#include "cal/core/text/url.h"

#include <rapidjson/error/en.h>

namespace cal {
namespace {

using rapidjson::Value;

Value* find_member(Value& obj, std::string_view name) {
  auto it = obj.FindMember(Value(rapidjson::StringRef(name.data(), name.size())));
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

Value make_string(std::string_view s, rapidjson::Document::AllocatorType& alloc) {
  return Value(s.data(), static_cast<rapidjson::SizeType>(s.size()), alloc);
}

// Splits "name[key]" into name and key; `bracket` tells whether brackets were present.
struct FormKey {
  std::string name;
  std::string key;
  bool bracket = false;
};

FormKey split_key(const std::string& raw) {
  FormKey k;
  const auto open = raw.find('[');
  if (open == std::string::npos || open == 0 || raw.back() != ']') {
    k.name = raw;
    return k;
  }
  k.name = raw.substr(0, open);
  k.key = raw.substr(open + 1, raw.size() - open - 2);
  k.bracket = true;
  return k;
}

void store_pair(const FormKey& key, std::string_view value, rapidjson::Document& out) {
  auto& alloc = out.GetAllocator();
  Value* existing = find_member(out, key.name);
  if (!key.bracket) {
    if (existing)
      *existing = make_string(value, alloc);
    else
      out.AddMember(make_string(key.name, alloc), make_string(value, alloc), alloc);
    return;
  }
  const bool append = key.key.empty();
  if (!existing || (append && !existing->IsArray()) || (!append && !existing->IsObject())) {
    Value fresh = append ? Value(rapidjson::kArrayType) : Value(rapidjson::kObjectType);
    if (existing)
      *existing = std::move(fresh);
    else
      out.AddMember(make_string(key.name, alloc), std::move(fresh), alloc);
    existing = find_member(out, key.name);
  }
  if (append) {
    existing->PushBack(make_string(value, alloc), alloc);
  } else if (Value* slot = find_member(*existing, key.key)) {
    *slot = make_string(value, alloc);
  } else {
    existing->AddMember(make_string(key.key, alloc), make_string(value, alloc), alloc);
  }
}

}  // namespace

void parse_form(std::string_view text, rapidjson::Document& out, std::vector<std::string>& invalid_names) {
  if (!out.IsObject()) out.SetObject();
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t amp = text.find('&', pos);
    if (amp == std::string_view::npos) amp = text.size();
    const std::string_view pair = text.substr(pos, amp - pos);
    pos = amp + 1;
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    const std::string_view raw_name = pair.substr(0, eq);
    const std::string_view raw_value =
        eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1);
    const auto name = url_decode(raw_name, true);
    if (!name || name->empty() || !is_valid_utf8(*name)) continue;
    const FormKey key = split_key(*name);
    if (key.name.empty()) continue;
    auto value = url_decode(raw_value, true);
    if (!value || !is_valid_utf8(*value)) {
      invalid_names.push_back(key.name);
      store_pair(key, "", out);
      continue;
    }
    store_pair(key, *value, out);
  }
}

JsonBodyError parse_json_body(std::string_view text, rapidjson::Document& out) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    out.SetObject();
    return JsonBodyError::kNone;
  }
  constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag;
  out.Parse<kFlags>(text.data(), text.size());
  if (out.HasParseError()) {
    const bool encoding = out.GetParseError() == rapidjson::kParseErrorStringInvalidEncoding;
    out.SetObject();
    return encoding ? JsonBodyError::kInvalidUtf8 : JsonBodyError::kMalformed;
  }
  if (!out.IsObject()) {
    out.SetObject();
    return JsonBodyError::kNotAnObject;
  }
  return JsonBodyError::kNone;
}

}  // namespace cal
