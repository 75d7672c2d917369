// libFuzzer target: parse_tzif() (core/dates/tzif.h). Whatever the bytes, a parsed zone has
// ascending transitions, one type index per transition and every index naming a type, and a
// footer of one line.
#include "core/dates/tzif.h"
#include "fuzz_support.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

using caltest_fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto zone = cal::detail::parse_tzif(bytes);
  if (!zone) return 0;
  require(!zone->types.empty(), "a zone without types");
  require(zone->initial_type < zone->types.size(), "initial type past the types");
  require(zone->type_after.size() == zone->transitions.size(), "not one type per transition");
  require(
      std::adjacent_find(zone->transitions.begin(), zone->transitions.end(),
                         [](std::int64_t a, std::int64_t b) { return a >= b; }) == zone->transitions.end(),
      "transitions not ascending");
  for (const std::uint8_t index : zone->type_after)
    require(index < zone->types.size(), "type index past the types");
  require(zone->footer.find('\n') == std::string_view::npos, "footer of more than one line");
  return 0;
}
