// TEC's readings of stored meta (see cal/core/wordpress/tec_fields.h).
#include "cal/core/wordpress/tec_fields.h"

#include "cal/core/dates/dates.h"
#include "cal/core/text/ascii.h"
#include "cal/core/text/cost.h"

#include <cmath>
#include <cstdlib>

namespace cal {
namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && ascii::is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && ascii::is_space(text.back())) text.remove_suffix(1);
  return text;
}

// "5.5" → 19800 seconds; nullopt unless a plain decimal number of hours within ±14.
std::optional<int> offset_seconds(std::string_view hours) {
  if (hours.empty() || hours.size() > 12) return std::nullopt;
  for (char c : hours)
    if (!ascii::is_digit(c) && c != '.' && c != '-' && c != '+') return std::nullopt;
  const std::string copy(hours);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || std::fabs(value) > 14) return std::nullopt;
  return static_cast<int>(std::lround(value * 3600));
}

}  // namespace

std::string tec_site_timezone(std::string_view timezone_string, std::string_view gmt_offset) {
  if (!trimmed(timezone_string).empty()) return std::string(trimmed(timezone_string));
  std::string_view offset = trimmed(gmt_offset);
  if (offset.empty() || offset == "0" || !offset_seconds(offset) || *offset_seconds(offset) == 0)
    return "UTC+0";
  if (offset.front() == '-') return "UTC" + std::string(offset);
  if (offset.front() == '+') offset.remove_prefix(1);
  return "UTC+" + std::string(offset);
}

std::optional<std::string> our_timezone(std::string_view tec_zone) {
  const std::string_view zone = trimmed(tec_zone);
  if (zone.empty()) return std::nullopt;
  if (zone.size() > 4 && ascii::lower(zone.substr(0, 3)) == "utc" && (zone[3] == '+' || zone[3] == '-') &&
      zone.find('.') != std::string_view::npos) {
    const auto seconds = offset_seconds(zone.substr(3));
    if (!seconds) return std::nullopt;
    const int magnitude = std::abs(*seconds);
    std::string name = "UTC";
    if (magnitude != 0) {
      name += *seconds < 0 ? "-" : "+";
      name += std::to_string(magnitude / 3600);
      if (const int minutes = magnitude % 3600 / 60; minutes != 0)
        name += (minutes < 10 ? ":0" : ":") + std::to_string(minutes);
    }
    const auto found = TimeZone::find(name);
    if (!found) return std::nullopt;
    return found->name();
  }
  const auto found = TimeZone::find(zone);
  if (!found) return std::nullopt;
  return found->name();
}

bool php_bool(std::string_view value) { return !value.empty() && value != "0"; }

bool tribe_is_truthy(std::string_view value) {
  const std::string v = ascii::lower(trimmed(value));
  return v == "1" || v == "yes" || v == "true" || v == "on" || v == "y" || v == "enable" || v == "enabled";
}

std::string tec_cost_text(const std::vector<std::string>& cost_rows, std::string_view symbol,
                          bool symbol_after) {
  std::vector<std::string> values;
  std::string row_symbol;
  std::string first_text;
  for (const auto& row : cost_rows) {
    const std::string_view text = trimmed(row);
    if (text.empty()) continue;
    if (first_text.empty()) first_text = std::string(text);
    const CostDetails details = parse_cost(text);
    if (row_symbol.empty()) row_symbol = details.currency_symbol;
    for (const auto& v : details.values) values.push_back(v);
  }
  if (values.empty()) return first_text;
  const auto number = [](const std::string& v) { return std::strtod(v.c_str(), nullptr); };
  std::string low = values.front(), high = values.front();
  for (const auto& v : values) {
    if (number(v) < number(low)) low = v;
    if (number(v) > number(high)) high = v;
  }
  const std::string sign = !symbol.empty() ? std::string(symbol) : row_symbol;
  const auto decorated = [&](const std::string& v) { return symbol_after ? v + sign : sign + v; };
  if (number(low) == number(high)) return decorated(low);
  return join_cost_values({decorated(low), decorated(high)});
}

std::string untrashed_slug(std::string_view slug) {
  const auto at = slug.rfind("__trashed");
  if (at == std::string_view::npos) return std::string(slug);
  const std::string_view rest = slug.substr(at + 9);
  if (!rest.empty()) {
    if (rest.front() != '-' || rest.size() == 1) return std::string(slug);
    for (char c : rest.substr(1))
      if (!ascii::is_digit(c)) return std::string(slug);
  }
  return std::string(slug.substr(0, at));
}

}  // namespace cal
