// Path matching of the route table (see cal/api/pipeline/routes.h).
#include "cal/api/pipeline/routes.h"

#include "cal/core/text/ascii.h"
#include "cal/core/text/url.h"

namespace cal {
namespace {

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t pos = 0;
  while (pos < path.size()) {
    if (path[pos] == '/') {
      ++pos;
      continue;
    }
    size_t end = path.find('/', pos);
    if (end == std::string_view::npos) end = path.size();
    parts.push_back(path.substr(pos, end - pos));
    pos = end;
  }
  return parts;
}

using ascii::all_digits;

// Matches one segment; adds a path parameter for `{name}` segments.
bool match_segment(std::string_view pattern, std::string_view actual,
                   std::vector<std::pair<std::string, std::string>>& params) {
  if (pattern.size() > 2 && pattern.front() == '{' && pattern.back() == '}') {
    const std::string_view name = pattern.substr(1, pattern.size() - 2);
    if (name == "id") {
      if (!all_digits(actual)) return false;
      params.emplace_back("id", std::string(actual));
      return true;
    }
    auto decoded = url_decode(actual, false);
    if (!decoded || decoded->empty()) return false;
    params.emplace_back(std::string(name), std::move(*decoded));
    return true;
  }
  return pattern == actual;
}

}  // namespace

std::vector<std::string> Route::allowed_methods() const {
  std::vector<std::string> methods;
  for (const Endpoint& e : endpoints)
    for (std::string_view m : e.methods) methods.emplace_back(m);
  return methods;
}

const Endpoint* Route::endpoint_for(std::string_view method) const {
  if (method == "HEAD") method = "GET";
  for (const Endpoint& e : endpoints)
    for (std::string_view m : e.methods)
      if (m == method) return &e;
  return nullptr;
}

std::optional<RouteMatch> match_route(const std::vector<Route>& routes, std::string_view path) {
  constexpr std::string_view kPrefix = "/cal/events/v1";
  if (path.find("//") != std::string_view::npos) return std::nullopt;
  if (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  const auto whole = split_path(path);
  std::optional<std::vector<std::string_view>> below;  // the segments below the namespace
  if (path.substr(0, kPrefix.size()) == kPrefix) {
    const std::string_view rest = path.substr(kPrefix.size());
    if (rest.empty() || rest.front() == '/') below = split_path(rest);
  }
  for (const Route& route : routes) {
    if (!route.at_rest_root && !below) continue;
    const auto& actual = route.at_rest_root ? whole : *below;
    const auto expected = split_path(route.pattern);
    if (expected.size() != actual.size()) continue;
    RouteMatch match{&route, {}};
    bool ok = true;
    for (size_t i = 0; ok && i < expected.size(); ++i)
      ok = match_segment(expected[i], actual[i], match.path_params);
    if (ok) return match;
  }
  return std::nullopt;
}

std::string route_regex(std::string_view pattern) {
  std::string out = "/cal/events/v1";
  for (std::string_view seg : split_path(pattern)) {
    out += '/';
    if (seg == "{id}")
      out += "(?P<id>\\d+)";
    else if (seg.size() > 2 && seg.front() == '{')
      out += "(?P<" + std::string(seg.substr(1, seg.size() - 2)) + ">[^/]+)";
    else
      out += seg;
  }
  return out;
}

std::string route_key(const Route& route) {
  if (!route.at_rest_root) return route_regex(route.pattern);
  return route.pattern.empty() ? "/" : std::string(route.pattern);
}

bool route_is_static(std::string_view pattern) { return pattern.find('{') == std::string_view::npos; }

}  // namespace cal
