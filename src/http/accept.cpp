// Accept header negotiation (see cal/http/accept.h).
#include "cal/http/accept.h"

#include "cal/core/text/ascii.h"

#include <cstdlib>
#include <string>

namespace cal {
namespace {

// The quality of one media range "type/sub;q=0.5;x=y": 1 without a q parameter.
double quality(std::string_view params) {
  while (!params.empty()) {
    const std::size_t semi = params.find(';');
    std::string_view p = ascii::trim(params.substr(0, semi));
    params = semi == std::string_view::npos ? std::string_view{} : params.substr(semi + 1);
    const std::size_t eq = p.find('=');
    if (eq == std::string_view::npos || ascii::lower(std::string(ascii::trim(p.substr(0, eq)))) != "q")
      continue;
    const std::string value(ascii::trim(p.substr(eq + 1)));
    char* end = nullptr;
    const double q = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !(q >= 0 && q <= 1)) return 1;
    return q;
  }
  return 1;
}

}  // namespace

bool prefers_calendar(std::string_view accept) {
  double calendar = -1, json = -1;
  while (!accept.empty()) {
    const std::size_t comma = accept.find(',');
    const std::string_view range = accept.substr(0, comma);
    accept = comma == std::string_view::npos ? std::string_view{} : accept.substr(comma + 1);
    const std::size_t semi = range.find(';');
    const std::string type = ascii::lower(std::string(ascii::trim(range.substr(0, semi))));
    const double q = quality(semi == std::string_view::npos ? std::string_view{} : range.substr(semi + 1));
    if (type == "text/calendar" && q > calendar) calendar = q;
    if (type == "application/json" && q > json) json = q;
  }
  return calendar > 0 && calendar >= json;
}

}  // namespace cal
