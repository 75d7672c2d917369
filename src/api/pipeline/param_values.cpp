// The Params container: lookups and typed accessors of validated parameter values
// (see cal/api/pipeline/params.h; validation itself lives in params.cpp).
#include "cal/api/pipeline/params.h"

#include <algorithm>
#include <stdexcept>

namespace cal {

const ParamValue* Params::lookup(ParamName name) const {
  for (const auto& [n, v] : values_)
    if (n == name.text()) return &v;
  return nullptr;
}

const ParamValue* Params::find(ParamName name) const {
  if (!declared_.empty() && std::find(declared_.begin(), declared_.end(), name.text()) == declared_.end())
    throw std::logic_error("parameter " + std::string(name.text()) + " is not declared for this endpoint");
  return lookup(name);
}

bool Params::given(ParamName name) const {
  const ParamValue* v = lookup(name);
  return v && v->given;
}

long long Params::integer(ParamName name, long long fallback) const {
  const ParamValue* v = find(name);
  return v ? v->integer : fallback;
}

bool Params::boolean(ParamName name, bool fallback) const {
  const ParamValue* v = find(name);
  return v ? v->boolean : fallback;
}

const std::string& Params::text(ParamName name) const {
  static const std::string kEmpty;
  const ParamValue* v = find(name);
  return v ? v->text : kEmpty;
}

const std::vector<long long>& Params::integers(ParamName name) const {
  static const std::vector<long long> kEmpty;
  const ParamValue* v = find(name);
  return v ? v->integers : kEmpty;
}

const std::vector<std::string>& Params::texts(ParamName name) const {
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
