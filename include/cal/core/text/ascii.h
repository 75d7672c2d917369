// ASCII character classes and case helpers: the one definition of each, so every parser agrees
// on what white space, a digit or a letter is. Locale-free on purpose: std::isspace & co. follow
// the C locale of the process, and bytes >= 0x80 (UTF-8) must never count as letters or space.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace cal::ascii {

// White space as SPEC treats it: space, tab, line feed, carriage return, form feed, vertical tab.
inline constexpr std::string_view kWhiteSpace = " \t\n\r\f\v";

constexpr bool is_space(char c) { return kWhiteSpace.find(c) != std::string_view::npos; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
constexpr bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
constexpr bool is_alpha(char c) { return is_upper(c) || is_lower(c); }
constexpr bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }

constexpr char to_lower(char c) { return is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }
constexpr char to_upper(char c) { return is_lower(c) ? static_cast<char>(c - 'a' + 'A') : c; }

// A copy with ASCII letters lower-cased (upper-cased); other bytes, UTF-8 included, unchanged.
inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = to_lower(c);
  return out;
}
inline std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = to_upper(c);
  return out;
}

// `s` without leading and trailing white space (kWhiteSpace).
constexpr std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Non-empty and decimal digits only (no sign, no space). Says nothing about the value's size:
// parse_id() in cal/core/text/numbers.h is the check for an id that fits.
constexpr bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

// Equal when ASCII letters are compared without case.
constexpr bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (to_lower(a[i]) != to_lower(b[i])) return false;
  return true;
}

// `text` starts with `prefix`, ASCII letters compared without case.
constexpr bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && iequals(text.substr(0, prefix.size()), prefix);
}

// The words of `text`: the runs between white space (kWhiteSpace), in order.
std::vector<std::string> words(std::string_view text);

}  // namespace cal::ascii
