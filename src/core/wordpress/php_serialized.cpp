// PHP serialize() reader (see cal/core/wordpress/php_serialized.h).
#include "cal/core/wordpress/php_serialized.h"

#include "cal/core/text/numbers.h"

#include <cstdlib>

namespace cal {
namespace {

constexpr int kMaxDepth = 32;

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool at_end() const { return pos_ == text_.size(); }

  std::optional<PhpValue> value(int depth) {
    if (depth > kMaxDepth || pos_ + 1 >= text_.size()) return std::nullopt;
    const char tag = text_[pos_];
    PhpValue out;
    if (tag == 'N') {
      if (text_[pos_ + 1] != ';') return std::nullopt;
      pos_ += 2;
      return out;
    }
    if (text_[pos_ + 1] != ':') return std::nullopt;
    pos_ += 2;
    switch (tag) {
      case 'b': {
        const auto digits = until(';');
        if (!digits || (*digits != "0" && *digits != "1")) return std::nullopt;
        out.kind = PhpValue::Kind::kBool;
        out.boolean = *digits == "1";
        return out;
      }
      case 'i': {
        const auto digits = until(';');
        const auto n = digits ? parse_integer(*digits) : std::nullopt;
        if (!n) return std::nullopt;
        out.kind = PhpValue::Kind::kInt;
        out.integer = *n;
        out.text = std::string(*digits);
        return out;
      }
      case 'd': {
        const auto digits = until(';');
        if (!digits || digits->empty()) return std::nullopt;
        const std::string copy(*digits);
        char* end = nullptr;
        out.number = std::strtod(copy.c_str(), &end);
        if (end != copy.c_str() + copy.size() && copy != "INF" && copy != "-INF" && copy != "NAN")
          return std::nullopt;
        out.kind = PhpValue::Kind::kFloat;
        out.text = copy;
        return out;
      }
      case 's': {
        const auto length = until(':');
        const auto n = length ? parse_id(*length) : std::nullopt;
        if (!n || pos_ >= text_.size() || text_[pos_] != '"') return std::nullopt;
        const auto bytes = static_cast<std::size_t>(*n);
        if (bytes > text_.size() - pos_ - 1 || text_.size() - pos_ - 1 - bytes < 2) return std::nullopt;
        out.text = std::string(text_.substr(pos_ + 1, bytes));
        pos_ += 1 + bytes;
        if (text_[pos_] != '"' || text_[pos_ + 1] != ';') return std::nullopt;
        pos_ += 2;
        out.kind = PhpValue::Kind::kString;
        return out;
      }
      case 'a': {
        const auto count = until(':');
        const auto n = count ? parse_id(*count) : std::nullopt;
        if (!n || pos_ >= text_.size() || text_[pos_] != '{') return std::nullopt;
        ++pos_;
        out.kind = PhpValue::Kind::kArray;
        for (long long i = 0; i < *n; ++i) {
          auto key = value(depth + 1);
          if (!key || (key->kind != PhpValue::Kind::kInt && key->kind != PhpValue::Kind::kString))
            return std::nullopt;
          auto item = value(depth + 1);
          if (!item) return std::nullopt;
          out.items.push_back(PhpItem{std::move(*key), std::move(*item)});
        }
        if (pos_ >= text_.size() || text_[pos_] != '}') return std::nullopt;
        ++pos_;
        return out;
      }
      default:
        return std::nullopt;  // objects, references and anything unknown
    }
  }

 private:
  // The bytes up to `stop`, which is consumed.
  std::optional<std::string_view> until(char stop) {
    const auto end = text_.find(stop, pos_);
    if (end == std::string_view::npos) return std::nullopt;
    const auto out = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return out;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

const PhpValue* PhpValue::find(std::string_view key) const {
  if (kind != Kind::kArray) return nullptr;
  for (const auto& [k, v] : items)
    if (k.text == key) return &v;
  return nullptr;
}

std::string PhpValue::as_text() const {
  switch (kind) {
    case Kind::kBool:
      return boolean ? "1" : "";
    case Kind::kInt:
    case Kind::kFloat:
    case Kind::kString:
      return text;
    default:
      return "";
  }
}

bool PhpValue::truthy() const {
  switch (kind) {
    case Kind::kBool:
      return boolean;
    case Kind::kInt:
      return integer != 0;
    case Kind::kFloat:
      return number != 0;
    case Kind::kString:
      return !text.empty() && text != "0";
    case Kind::kArray:
      return !items.empty();
    default:
      return false;
  }
}

std::optional<PhpValue> parse_php_serialized(std::string_view text) {
  Reader reader(text);
  auto out = reader.value(0);
  if (!out || !reader.at_end()) return std::nullopt;
  return out;
}

}  // namespace cal
