// Localized texts: error messages and parameter descriptions are looked up by their English
// source text (the gettext msgid) in the catalog of the request's language.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cal {

// A shipped language, chosen per request.
struct Locale {
  std::string name = "en_US";  // catalog name, e.g. "de_DE"
  std::string bcp47() const;   // "de-DE", for Content-Language
};

// Picks the request's language (SPEC §9): the web server's CAL_LOCALE, then `_locale`, then
// Accept-Language (q-values honoured), then the configured default. Unshipped names fall through.
Locale choose_locale(std::string_view site_locale, std::string_view query_locale,
                     std::string_view accept_language, std::string_view default_locale);

// Whether a catalog for `name` ships with the service (e.g. "de_DE"; "de" alone is not a name).
bool is_shipped_locale(std::string_view name);

// The translation of `msgid` in `locale`, or `msgid` itself when none exists.
std::string translate(const Locale& locale, std::string_view msgid);

// Translates `msgid`, then replaces each "%s" in order with the next argument.
std::string format_message(const Locale& locale, std::string_view msgid,
                           const std::vector<std::string>& args = {});

}  // namespace cal
