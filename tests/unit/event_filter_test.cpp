// Unit tests for cal/api/events/event_filter.h: how a `search` value splits into words.
#include "cal/api/events/event_filter.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : "|") + w;
  return out;
}

}  // namespace

TEST_CASE("parse_search_words splits on white space and reads -word as exclusion") {
  struct Case {
    const char* text;
    const char* required;
    const char* excluded;
  };
  static const Case kCases[] = {
      {"jazz", "jazz", ""},
      {"jazz night", "jazz|night", ""},
      {"  jazz   night  ", "jazz|night", ""},
      {"jazz\tnight\n", "jazz|night", ""},
      {"jazz -rock", "jazz", "rock"},
      {"-rock", "", "rock"},
      {"-rock -pop", "", "rock|pop"},
      {"jazz - rock", "jazz|rock", ""},
      {"--rock", "", "-rock"},
      {"rock-n-roll", "rock-n-roll", ""},
      {"Jazz JAZZ", "Jazz|JAZZ", ""},
      {"100%", "100%", ""},
      {"", "", ""},
      {"   ", "", ""},
      {"caf\xc3\xa9 -th\xc3\xa9", "caf\xc3\xa9", "th\xc3\xa9"},
  };
  for (const Case& c : kCases) {
    CAPTURE(c.text);
    const cal::SearchWords w = cal::parse_search_words(c.text);
    CHECK(joined(w.required) == c.required);
    CHECK(joined(w.excluded) == c.excluded);
  }
}
