// libFuzzer target: search_words_of(), search_pieces() and utf8_length(). Words are distinct,
// non-empty, hold no separator, and each occurs in the text; the pieces of a text are its words in
// order (repeats kept), so each piece is one of its words; cutting a word again changes nothing.
#include "fuzz_support.h"
#include "cal/core/text/search_words.h"

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

using caltest_fuzz::require;

namespace {

// Whether `s` holds a separator, read as UTF-8 (an invalid byte is never one).
bool has_separator(const std::string& s) {
  for (const std::string& piece : cal::search_pieces(s))
    if (piece != s) return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string> words = cal::search_words_of(text);
  const std::vector<std::string> pieces = cal::search_pieces(text);
  const std::set<std::string> distinct(words.begin(), words.end());
  require(distinct.size() == words.size(), "a word comes twice");
  require(std::set<std::string>(pieces.begin(), pieces.end()) == distinct, "pieces and words differ");
  std::size_t bytes = 0;
  for (const std::string& p : pieces) bytes += p.size();
  require(bytes <= text.size(), "pieces longer than the text");
  for (const std::string& w : words) {
    require(!w.empty(), "an empty word");
    require(text.find(w) != std::string_view::npos, "a word that is not in the text");
    require(!has_separator(w), "a word holds a separator");
    require(cal::utf8_length(w) <= w.size() && cal::utf8_length(w) >= (w.size() + 3) / 4,
            "character count out of range");
  }
  return 0;
}
