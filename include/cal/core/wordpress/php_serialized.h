// A strict reader of PHP's serialize() format, as WordPress stores options and user meta
// (docs/importing-wordpress.md): arrays, strings, integers, floats, booleans and null. Objects
// (`O:`, `C:`) are refused, never instantiated: the text comes from another system's database.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cal {

struct PhpItem;

struct PhpValue {
  enum class Kind { kNull, kBool, kInt, kFloat, kString, kArray };
  Kind kind = Kind::kNull;
  bool boolean = false;
  long long integer = 0;
  double number = 0;
  std::string text;  // kString: the bytes; kInt/kFloat: as written
  // kArray: (key, value) in stored order. A struct of its own, not std::pair: a pair of an
  // incomplete type does not compile with clang and libstdc++.
  std::vector<PhpItem> items;

  // The value of the array item whose key (string or integer) reads `key`; nullptr when this is
  // no array or has no such key.
  const PhpValue* find(std::string_view key) const;
  // The value as text: a string's bytes, a number as written, "1"/"" for booleans (PHP's
  // string conversion), "" for null and arrays.
  std::string as_text() const;
  // PHP's (bool) cast: false for null, false, 0, 0.0, "", "0" and an empty array.
  bool truthy() const;
};

struct PhpItem {
  PhpValue key;
  PhpValue value;
};

// Reads one serialized value that spans all of `text`. A string whose text is itself a serialized
// array or string ("double-serialized", as some plugins store options) is returned as stored;
// callers that expect an array read it again. nullopt for anything malformed: a length that
// does not match the bytes (a dump converted to another character set breaks `s:LEN`), an
// object, trailing bytes, nesting deeper than 32 levels.
std::optional<PhpValue> parse_php_serialized(std::string_view text);

}  // namespace cal
