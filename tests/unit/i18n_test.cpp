// Language choice per request (docs/api.md §9).
#include "cal/core/i18n/i18n.h"

#include <doctest/doctest.h>

#include <string>

namespace {

struct LocaleCase {
  const char* site;
  const char* query;
  const char* accept;
  const char* fallback;
  const char* expected;
};

const LocaleCase kLocaleCases[] = {
    {"de_DE", "fr_FR", "es", "en_US", "de_DE"},        // the web server's variant wins
    {"", "fr_FR", "es", "en_US", "fr_FR"},             // then _locale
    {"xx_XX", "fr-fr", "", "en_US", "fr_FR"},          // unknown variant falls through; case folded
    {"", "", "es-ES,de;q=0.5", "en_US", "es_ES"},      // then Accept-Language
    {"", "", "de;q=0.5, fr;q=0.9", "en_US", "fr_FR"},  // q-values honoured
    {"", "", "ja, it", "en_US", "en_US"},              // nothing shipped: the default
    {"", "pt_BR", "", "de_DE", "de_DE"},               // configured default
    {"", "", "", "", "en_US"},                         // nothing at all
    {"", "", "de-AT", "en_US", "en_US"},               // region not shipped
    {"", "", "de", "en_US", "de_DE"},                  // bare language picks the shipped region
};

}  // namespace

TEST_CASE("the request language follows CAL_LOCALE, _locale, Accept-Language, default") {
  for (const auto& c : kLocaleCases) {
    CAPTURE(std::string(c.site) + "|" + c.query + "|" + c.accept + "|" + c.fallback);
    CHECK(cal::choose_locale(c.site, c.query, c.accept, c.fallback).name == c.expected);
  }
}

TEST_CASE("Content-Language uses BCP 47 tags and messages fill %s in order") {
  CHECK(cal::Locale{"de_DE"}.bcp47() == "de-DE");
  CHECK(cal::format_message(cal::Locale{}, "Missing parameter(s): %s", {"title, start_date"}) ==
        "Missing parameter(s): title, start_date");
  CHECK(cal::format_message(cal::Locale{}, "%s and %s", {"a"}) == "a and ");
}
