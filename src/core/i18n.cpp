// Language choice and message lookup (see cal/core/i18n.h). Catalogs are added by the
// localization work; until then every shipped language falls back to the English source text.
#include "cal/core/i18n.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>

namespace cal {
namespace {

constexpr std::array<std::string_view, 4> kShipped = {"en_US", "de_DE", "fr_FR", "es_ES"};

// Maps "de", "de-DE", "de_de", "DE-de" to a shipped catalog name, or "" when none fits.
std::string normalize(std::string_view tag) {
  std::string lang, region;
  size_t i = 0;
  while (i < tag.size() && std::isalpha(static_cast<unsigned char>(tag[i])))
    lang += static_cast<char>(std::tolower(static_cast<unsigned char>(tag[i++])));
  if (i < tag.size() && (tag[i] == '-' || tag[i] == '_')) {
    ++i;
    while (i < tag.size() && std::isalpha(static_cast<unsigned char>(tag[i])))
      region += static_cast<char>(std::toupper(static_cast<unsigned char>(tag[i++])));
  }
  if (i != tag.size() || lang.size() != 2) return "";
  for (std::string_view shipped : kShipped) {
    if (shipped.substr(0, 2) != lang) continue;
    if (region.empty() || shipped.substr(3) == region) return std::string(shipped);
  }
  return "";
}

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

// Best shipped language of an Accept-Language header by q-value (first wins on ties).
std::string from_accept_language(std::string_view header) {
  std::string best;
  double best_q = 0;
  size_t pos = 0;
  while (pos < header.size()) {
    size_t comma = header.find(',', pos);
    if (comma == std::string_view::npos) comma = header.size();
    const std::string_view item = header.substr(pos, comma - pos);
    pos = comma + 1;
    const size_t semi = item.find(';');
    const std::string tag = trim(item.substr(0, semi));
    double q = 1.0;
    if (semi != std::string_view::npos) {
      const std::string param = trim(item.substr(semi + 1));
      if (param.rfind("q=", 0) == 0) q = std::strtod(param.c_str() + 2, nullptr);
    }
    const std::string name = normalize(tag);
    if (!name.empty() && q > best_q) {
      best = name;
      best_q = q;
    }
  }
  return best;
}

}  // namespace

std::string Locale::bcp47() const {
  std::string tag = name;
  std::replace(tag.begin(), tag.end(), '_', '-');
  return tag;
}

bool is_shipped_locale(std::string_view name) {
  return std::find(kShipped.begin(), kShipped.end(), name) != kShipped.end();
}

Locale choose_locale(std::string_view site_locale, std::string_view query_locale,
                     std::string_view accept_language, std::string_view default_locale) {
  for (std::string_view candidate : {site_locale, query_locale}) {
    if (std::string n = normalize(candidate); !n.empty()) return Locale{n};
  }
  if (std::string n = from_accept_language(accept_language); !n.empty()) return Locale{n};
  if (std::string n = normalize(default_locale); !n.empty()) return Locale{n};
  return Locale{};
}

std::string translate(const Locale&, std::string_view msgid) { return std::string(msgid); }

std::string format_message(const Locale& locale, std::string_view msgid,
                           const std::vector<std::string>& args) {
  const std::string pattern = translate(locale, msgid);
  std::string out;
  size_t next_arg = 0;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == 's') {
      if (next_arg < args.size()) out += args[next_arg++];
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

}  // namespace cal
