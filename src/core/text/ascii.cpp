// ASCII helpers that are not constexpr (see cal/core/text/ascii.h).
#include "cal/core/text/ascii.h"

namespace cal::ascii {

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_space(text[i])) ++i;
    std::size_t end = i;
    while (end < text.size() && !is_space(text[end])) ++end;
    if (end > i) out.emplace_back(text.substr(i, end - i));
    i = end;
  }
  return out;
}

}  // namespace cal::ascii
