// Query-string, form-body and JSON-body parsing (see cal/http/input.h).
#include "cal/http/input.h"

#include "cal/core/text/slug.h"
#include "cal/core/text/url.h"

#include <rapidjson/error/en.h>

#include <map>
#include <optional>
#include <unordered_map>

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

// One field as sent: a plain value, or the bracketed pairs in order (key "" for `a[]`). The
// shape is decided once every pair is in, so `a[1]=x&a[0]=y` can be ordered by index.
struct FormField {
  std::string name;
  bool bracket = false;
  std::string plain;
  std::vector<std::pair<std::string, std::string>> keyed;
};

// A list index as PHP and the `qs` library write it: "0", or digits without a leading zero
// (at most 18, so any index fits); anything else is an object key.
std::optional<unsigned long long> index_of(std::string_view key) {
  if (key.empty() || key.size() > 18 || (key.size() > 1 && key[0] == '0')) return std::nullopt;
  unsigned long long i = 0;
  for (char c : key) {
    if (c < '0' || c > '9') return std::nullopt;
    i = i * 10 + static_cast<unsigned long long>(c - '0');
  }
  return i;
}

Value materialize(const FormField& f, rapidjson::Document::AllocatorType& alloc) {
  if (!f.bracket) return make_string(f.plain, alloc);
  // `a[]` takes the index after the highest so far (PHP); a repeated index keeps the last value.
  bool indexed = true;
  for (const auto& [key, value] : f.keyed)
    if (!key.empty() && !index_of(key)) indexed = false;
  unsigned long long next = 0;
  if (indexed) {
    std::map<unsigned long long, std::string_view> slots;
    for (const auto& [key, value] : f.keyed) {
      const unsigned long long i = key.empty() ? next : *index_of(key);
      slots[i] = value;
      if (i >= next) next = i + 1;
    }
    Value array(rapidjson::kArrayType);  // gaps close up: the order of the indices is kept
    for (const auto& [i, value] : slots) array.PushBack(make_string(value, alloc), alloc);
    return array;
  }
  // Some key is a name: an object (venue[city]=...), whose `[]` and index keys stay keys.
  Value object(rapidjson::kObjectType);
  for (const auto& [key, value] : f.keyed) {
    std::string name = key;
    if (name.empty()) name = std::to_string(next);
    if (const auto i = index_of(name); i && *i >= next) next = *i + 1;
    if (Value* slot = find_member(object, name))
      *slot = make_string(value, alloc);
    else
      object.AddMember(make_string(name, alloc), make_string(value, alloc), alloc);
  }
  return object;
}

// The fields in the order of their first appearance, and where each name is.
struct FormFields {
  std::vector<FormField> list;
  std::unordered_map<std::string, std::size_t> at;
};

void store_pair(const FormKey& key, std::string_view value, FormFields& fields) {
  const auto [where, fresh] = fields.at.emplace(key.name, fields.list.size());
  if (fresh) fields.list.push_back({key.name, false, {}, {}});
  FormField* it = &fields.list[where->second];
  if (!key.bracket) {  // a plain name replaces whatever came before
    it->bracket = false;
    it->keyed.clear();
    it->plain = std::string(value);
    return;
  }
  if (!it->bracket) {
    it->bracket = true;
    it->plain.clear();
  }
  it->keyed.emplace_back(key.key, std::string(value));
}

}  // namespace

namespace {

// One decoded pair into `fields`; a value that failed to decode is stored as "" and reported.
void add_pair(const std::string& name, const std::optional<std::string>& value, FormFields& fields,
              std::vector<std::string>& invalid_names) {
  if (name.empty() || !is_valid_utf8(name)) return;
  const FormKey key = split_key(name);
  if (key.name.empty()) return;
  if (!value || !is_valid_utf8(*value)) {
    invalid_names.push_back(key.name);
    store_pair(key, "", fields);
    return;
  }
  store_pair(key, *value, fields);
}

void finish(const FormFields& fields, rapidjson::Document& out) {
  auto& alloc = out.GetAllocator();
  for (const FormField& f : fields.list) {
    Value v = materialize(f, alloc);
    if (Value* existing = find_member(out, f.name))
      *existing = std::move(v);
    else
      out.AddMember(make_string(f.name, alloc), std::move(v), alloc);
  }
}

}  // namespace

void parse_form(std::string_view text, rapidjson::Document& out, std::vector<std::string>& invalid_names) {
  if (!out.IsObject()) out.SetObject();
  FormFields fields;
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
    if (!name) continue;
    add_pair(*name, url_decode(raw_value, true), fields, invalid_names);
  }
  finish(fields, out);
}

void build_form(const std::vector<std::pair<std::string, std::string>>& pairs, rapidjson::Document& out,
                std::vector<std::string>& invalid_names) {
  if (!out.IsObject()) out.SetObject();
  FormFields fields;
  for (const auto& [name, value] : pairs) add_pair(name, value, fields, invalid_names);
  finish(fields, out);
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
