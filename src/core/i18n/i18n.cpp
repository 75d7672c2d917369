// Language choice and message lookup (see cal/core/i18n/i18n.h). The loaded catalogs form one
// immutable registry published through an atomic pointer: lookups take no lock.
#include "cal/core/i18n/i18n.h"

#include "cal/core/i18n/message_catalog.h"
#include "cal/core/text/ascii.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <unistd.h>
#include <utility>

namespace cal {
namespace {

constexpr std::string_view kSourceLocale = "en_US";
constexpr std::string_view kDomain = "calendar";

// One shipped language's catalog, read at most once: when loaded, or at its first lookup.
struct Slot {
  std::string name;  // "de_DE"
  std::string path;
  std::once_flag read_once;
  std::optional<MessageCatalog> catalog;  // empty when unreadable
  // Said on stderr when the catalog cannot be read: what then happens to the language.
  std::string_view consequence;

  // The catalog, read now if it has not been; null (and reported once) if unreadable.
  const MessageCatalog* get() {
    std::call_once(read_once, [this] {
      std::string error;
      catalog = MessageCatalog::read(path, &error);
      if (!catalog) std::cerr << "calendar: language " << name << " " << consequence << ": " << error << "\n";
    });
    return catalog ? &*catalog : nullptr;
  }
};

// Every shipped language's catalog, by name. Never changed once published, but for the slots'
// first reads.
struct Registry {
  std::vector<std::string> names;  // kSourceLocale first, then the catalogs' names, sorted
  std::vector<std::unique_ptr<Slot>> slots;

  const MessageCatalog* find(std::string_view name) const {
    for (const auto& slot : slots)
      if (slot->name == name) return slot->get();
    return nullptr;
  }
};

// A catalog directory name: "de_DE" (two lower-case letters, '_', two upper-case letters).
bool is_locale_name(std::string_view s) {
  return s.size() == 5 && ascii::is_lower(s[0]) && ascii::is_lower(s[1]) && s[2] == '_' &&
         ascii::is_upper(s[3]) && ascii::is_upper(s[4]);
}

// The catalog files under `dir`, as (language, path), sorted by language.
std::vector<std::pair<std::string, std::string>> catalog_files(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::pair<std::string, std::string>> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const fs::path file = it->path() / "LC_MESSAGES" / (std::string(kDomain) + ".mo");
    if (is_locale_name(name) && fs::exists(file, ec)) found.emplace_back(name, file.string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

Registry read_registry(const std::string& dir, CatalogLoading loading) {
  Registry r;
  r.names.emplace_back(kSourceLocale);
  for (auto& [name, path] : catalog_files(dir)) {
    auto slot = std::make_unique<Slot>();
    slot->name = name;
    slot->path = std::move(path);
    slot->consequence = loading == CatalogLoading::kAtStart ? "skipped" : "answered in English";
    if (loading == CatalogLoading::kAtStart && !slot->get()) continue;  // not shipped
    if (name != kSourceLocale) r.names.push_back(name);
    r.slots.push_back(std::move(slot));
  }
  return r;
}

std::mutex g_load_mutex;
std::atomic<const Registry*> g_registry{nullptr};

// Publishes `r`. Registries are never freed: a reader may still hold an earlier one (the vector
// is itself never destroyed, so no worker thread meets a destructed registry at exit).
const Registry* publish(Registry r) {
  static auto* const kept = new std::vector<std::unique_ptr<Registry>>();
  kept->push_back(std::make_unique<Registry>(std::move(r)));
  g_registry.store(kept->back().get(), std::memory_order_release);
  return kept->back().get();
}

const Registry& registry() {
  if (const Registry* r = g_registry.load(std::memory_order_acquire)) return *r;
  std::lock_guard<std::mutex> lock(g_load_mutex);
  if (const Registry* r = g_registry.load(std::memory_order_acquire)) return *r;
  return *publish(read_registry(default_catalog_dir(), CatalogLoading::kAtStart));
}

// Maps "de", "de-DE", "de_de", "DE-de" to a shipped language name, or "" when none fits.
std::string normalize(std::string_view tag) {
  std::string lang, region;
  size_t i = 0;
  while (i < tag.size() && ascii::is_alpha(tag[i])) lang += ascii::to_lower(tag[i++]);
  if (i < tag.size() && (tag[i] == '-' || tag[i] == '_')) {
    ++i;
    while (i < tag.size() && ascii::is_alpha(tag[i])) region += ascii::to_upper(tag[i++]);
  }
  if (i != tag.size() || lang.size() != 2) return "";
  for (const std::string& shipped : registry().names) {
    if (std::string_view(shipped).substr(0, 2) != lang) continue;
    if (region.empty() || std::string_view(shipped).substr(3) == region) return shipped;
  }
  return "";
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
    const std::string_view tag = ascii::trim(item.substr(0, semi));
    double q = 1.0;
    if (semi != std::string_view::npos) {
      const std::string param(ascii::trim(item.substr(semi + 1)));
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

const std::string* lookup(const Locale& locale, std::string_view msgid) {
  const MessageCatalog* catalog = registry().find(locale.name);
  return catalog ? catalog->find(msgid) : nullptr;
}

// Fills "%s" (in order), "%N$s" (by position) and "%%" of `pattern` from `args`; a
// placeholder without an argument becomes "".
std::string substitute(std::string_view pattern, const std::vector<std::string>& args) {
  std::string out;
  out.reserve(pattern.size() + 32);
  size_t next_arg = 0;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    if (pattern[i + 1] == 's') {
      if (next_arg < args.size()) out += args[next_arg];
      ++next_arg;
      ++i;
    } else if (pattern[i + 1] == '%') {
      out += '%';
      ++i;
    } else if (ascii::is_digit(pattern[i + 1])) {
      size_t j = i + 1, n = 0;
      while (j < pattern.size() && ascii::is_digit(pattern[j]))
        n = n * 10 + static_cast<size_t>(pattern[j++] - '0');
      if (j + 1 < pattern.size() && pattern[j] == '$' && pattern[j + 1] == 's') {
        if (n >= 1 && n <= args.size()) out += args[n - 1];
        i = j + 1;
      } else {
        out += pattern[i];
      }
    } else {
      out += pattern[i];
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> load_catalogs(const std::string& dir, CatalogLoading loading) {
  Registry r = read_registry(dir.empty() ? default_catalog_dir() : dir, loading);
  std::lock_guard<std::mutex> lock(g_load_mutex);
  return publish(std::move(r))->names;
}

std::vector<std::string> unreadable_catalogs(const std::string& dir) {
  std::vector<std::string> problems;
  for (const auto& [name, path] : catalog_files(dir.empty() ? default_catalog_dir() : dir)) {
    std::string error;
    if (!MessageCatalog::read(path, &error)) problems.push_back(name + ": " + error);
  }
  return problems;
}

std::string default_catalog_dir() {
  std::string exe(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", exe.data(), exe.size());
  if (n <= 0) return "locale";
  exe.resize(static_cast<size_t>(n));
  return std::filesystem::path(exe).parent_path().string() + "/locale";
}

std::vector<std::string> shipped_locales() { return registry().names; }

std::string Locale::bcp47() const {
  std::string tag = name;
  std::replace(tag.begin(), tag.end(), '_', '-');
  return tag;
}

bool is_shipped_locale(std::string_view name) {
  const auto& names = registry().names;
  return std::find(names.begin(), names.end(), name) != names.end();
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

std::string translate(const Locale& locale, std::string_view msgid) {
  const std::string* t = lookup(locale, msgid);
  return t ? *t : std::string(msgid);
}

bool has_translation(const Locale& locale, std::string_view msgid) {
  return lookup(locale, msgid) != nullptr;
}

std::string format_message(const Locale& locale, std::string_view msgid,
                           const std::vector<std::string>& args) {
  if (!args.empty()) {
    if (const std::string* whole = lookup(locale, substitute(msgid, args))) return *whole;
  }
  return substitute(translate(locale, msgid), args);
}

}  // namespace cal
