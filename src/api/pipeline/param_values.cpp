// The Params container: lookups and typed accessors of validated parameter values
// (see cal/api/pipeline/params.h; validation itself lives in params.cpp).
#include "cal/api/pipeline/params.h"

namespace cal {

const ParamValue* Params::find(std::string_view name) const {
  for (const auto& [n, v] : values_)
    if (n == name) return &v;
  return nullptr;
}

bool Params::given(std::string_view name) const {
  const ParamValue* v = find(name);
  return v && v->given;
}

long long Params::integer(std::string_view name, long long fallback) const {
  const ParamValue* v = find(name);
  return v ? v->integer : fallback;
}

bool Params::boolean(std::string_view name, bool fallback) const {
  const ParamValue* v = find(name);
  return v ? v->boolean : fallback;
}

const std::string& Params::text(std::string_view name) const {
  static const std::string kEmpty;
  const ParamValue* v = find(name);
  return v ? v->text : kEmpty;
}

const std::vector<long long>& Params::integers(std::string_view name) const {
  static const std::vector<long long> kEmpty;
  const ParamValue* v = find(name);
  return v ? v->integers : kEmpty;
}

const std::vector<std::string>& Params::texts(std::string_view name) const {
  static const std::vector<std::string> kEmpty;
  const ParamValue* v = find(name);
  return v ? v->texts : kEmpty;
}

rapidjson::Document& Params::storage() {
  if (!storage_) storage_ = std::make_shared<rapidjson::Document>();
  return *storage_;
}

void Params::set(std::string_view name, ParamValue value) {
  for (auto& [n, v] : values_) {
    if (n == name) {
      v = std::move(value);
      return;
    }
  }
  values_.emplace_back(std::string(name), std::move(value));
}

}  // namespace cal
