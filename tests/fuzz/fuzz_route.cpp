// libFuzzer target: match_route() on arbitrary PATH_INFO values. A match must name a route of
// the table whose variables all got values: an all-digit `id`, a non-empty decoded `slug`.
#include "fuzz_support.h"
#include "cal/api/pipeline/routes.h"

#include <cctype>
#include <cstddef>
#include <cstdint>

using caltest_fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view path(reinterpret_cast<const char*>(data), size);
  const auto& routes = cal::route_table();
  const auto match = cal::match_route(routes, path);
  if (!match) return 0;
  require(match->route >= routes.data() && match->route < routes.data() + routes.size(),
          "match outside the table");
  const std::string_view pattern = match->route->pattern;
  std::size_t variables = 0;
  for (std::size_t i = pattern.find('{'); i != std::string_view::npos; i = pattern.find('{', i + 1))
    ++variables;
  require(match->path_params.size() == variables, "not every path variable got a value");
  for (const auto& [name, value] : match->path_params) {
    require(!value.empty(), "empty path value");
    if (name == "id")
      for (char c : value) require(std::isdigit(static_cast<unsigned char>(c)) != 0, "non-digit id");
  }
  // Every method lookup must be answerable without crashing.
  for (const char* method : {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", ""})
    match->route->endpoint_for(method);
  require(!cal::route_regex(pattern).empty(), "empty route regex");
  return 0;
}
