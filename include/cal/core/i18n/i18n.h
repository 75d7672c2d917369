// Localized texts (docs/api.md §9): error messages and parameter descriptions are looked up by their
// English source text (the gettext msgid) in the compiled catalog of the request's language.
// Catalogs are `<dir>/<lang>/LC_MESSAGES/calendar.mo`, compiled by `make build` from po/<lang>.po;
// every catalog found there is a shipped language, and en_US (the source language) always is.
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

// When load_catalogs() reads the catalogs it finds.
enum class CatalogLoading {
  // All of them now: an unreadable one is reported on stderr and its language not shipped.
  kAtStart,
  // Each at the first lookup in its language (a CGI process answers one request, mostly in one
  // language or none): every catalog found is shipped; an unreadable one is reported on stderr
  // then, and that language's lookups answer the English text. unreadable_catalogs() finds it
  // beforehand (calendar-fcgi --check).
  kOnUse,
};

// Finds every catalog under `dir` (empty: default_catalog_dir()) and makes them the ones all
// lookups use. Meant to be called once at start-up, before worker threads run; without a call, the
// first lookup reads the default directory (kAtStart). Returns the languages now shipped.
std::vector<std::string> load_catalogs(const std::string& dir,
                                       CatalogLoading loading = CatalogLoading::kAtStart);

// Reads every catalog under `dir` (empty: default_catalog_dir()) and returns one line per
// catalog that cannot be read ("fr_FR: <why>"); none when all can.
std::vector<std::string> unreadable_catalogs(const std::string& dir);

// `<directory of the running binary>/locale`, where `make build` puts the catalogs.
std::string default_catalog_dir();

// The shipped languages: "en_US" first, then every loaded catalog's name, sorted.
std::vector<std::string> shipped_locales();

// Picks the request's language (docs/api.md §9): the web server's CAL_LOCALE, then `_locale`, then
// Accept-Language (q-values honoured), then the configured default. Unshipped names fall through.
Locale choose_locale(std::string_view site_locale, std::string_view query_locale,
                     std::string_view accept_language, std::string_view default_locale);

// Whether a catalog for `name` ships with the service (e.g. "de_DE"; "de" alone is not a name).
bool is_shipped_locale(std::string_view name);

// The translation of `msgid` in `locale`, or `msgid` itself when none exists. Lock-free.
std::string translate(const Locale& locale, std::string_view msgid);

// Whether `locale`'s catalog has its own translation of `msgid` (en_US included), for tests and
// tools that must tell a translation from the English fallback.
bool has_translation(const Locale& locale, std::string_view msgid);

// Translates `msgid`, then replaces each "%s" in order with the next argument ("%1$s", "%2$s"
// name an argument by position, so translations may reorder them; "%%" is a percent sign).
// A catalog may also translate the message as formatted with its arguments (msgid "The
// requested event was not found." for "The requested %s was not found." with "event"); that
// translation wins, so languages with grammatical gender can word each case on its own.
std::string format_message(const Locale& locale, std::string_view msgid,
                           const std::vector<std::string>& args = {});

}  // namespace cal
