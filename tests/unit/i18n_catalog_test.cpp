// The shipped catalogs (po/*.po, compiled by `make build` into <build>/locale): every English
// text the code uses, extracted afresh by po/catalogs.sh, is translated in every language, and
// lookups, formatting and language discovery behave as cal/core/i18n/i18n.h promises.
#include "cal/api/pipeline/routes.h"
#include "cal/core/i18n/i18n.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

// Texts that may read the same in a translation (proper nouns and the like).
const std::set<std::string> kSameInTranslation = {};

// The repository: the parent of the build directory holding this binary, else the working
// directory (scripts/run-tests.sh runs from the repository).
fs::path repo_root() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && fs::exists(exe.parent_path().parent_path() / "po" / "catalogs.sh"))
    return exe.parent_path().parent_path();
  return fs::current_path();
}

// Undoes the C escapes of a PO string.
std::string unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
  }
  return out;
}

// The languages of po/*.po, sorted: each is shipped, and all but en_US are translations.
std::vector<std::string> po_languages() {
  std::vector<std::string> langs;
  for (const auto& entry : fs::directory_iterator(repo_root() / "po"))
    if (entry.path().extension() == ".po") langs.push_back(entry.path().stem().string());
  std::sort(langs.begin(), langs.end());
  return langs;
}

std::vector<std::string> translations() {
  std::vector<std::string> langs = po_languages();
  langs.erase(std::remove(langs.begin(), langs.end(), "en_US"), langs.end());
  return langs;
}

// Every msgid of a fresh template written by `po/catalogs.sh pot` (one line each: --no-wrap).
std::vector<std::string> extracted_msgids() {
  const fs::path root = repo_root();
  const fs::path pot = fs::temp_directory_path() / ("calendar-test-" + std::to_string(::getpid()) + ".pot");
  const std::string command =
      "'" + (root / "po" / "catalogs.sh").string() + "' pot '" + pot.string() + "' 2>&1";
  std::string output;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
  const int status = ::pclose(pipe);
  REQUIRE_MESSAGE(status == 0, command << " failed: " << output);
  std::vector<std::string> ids;
  std::ifstream in(pot);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("msgid \"", 0) == 0 && line.size() > 8)
      ids.push_back(unescape(line.substr(7, line.size() - 8)));
  }
  fs::remove(pot);
  return ids;
}

size_t placeholders(const std::string& s) {
  size_t n = 0;
  for (size_t i = 0; i + 1 < s.size(); ++i)
    if (s[i] == '%' && s[i + 1] != '%')
      ++n;
    else if (s[i] == '%')
      ++i;
  return n;
}

void check_translated(const std::string& msgid) {
  CAPTURE(msgid);
  CHECK(cal::has_translation(cal::Locale{"en_US"}, msgid));
  for (const std::string& lang : translations()) {
    CAPTURE(lang);
    const cal::Locale locale{lang};
    if (!cal::has_translation(locale, msgid)) {
      FAIL_CHECK("po/" << lang << ".po lacks a translation (po/catalogs.sh update, translate, make build)");
      continue;
    }
    const std::string text = cal::translate(locale, msgid);
    if (!kSameInTranslation.count(msgid)) CHECK_MESSAGE(text != msgid, "left in English");
    CHECK(placeholders(text) == placeholders(msgid));
  }
}

}  // namespace

TEST_CASE("every po/*.po ships, found as a compiled catalog beside the binary") {
  std::vector<std::string> expected = {"en_US"};
  for (const std::string& lang : translations()) expected.push_back(lang);
  CHECK(cal::shipped_locales() == expected);
  for (const char* lang : {"en_US", "de_DE", "fr_FR", "es_ES"}) CHECK(cal::is_shipped_locale(lang));
  CHECK(cal::default_catalog_dir() == (fs::read_symlink("/proc/self/exe").parent_path() / "locale").string());
}

TEST_CASE("every text the code uses has a translation in every catalog") {
  const std::vector<std::string> ids = extracted_msgids();
  CHECK(ids.size() > 150);  // the extraction found the texts at all
  for (const std::string& msgid : ids) check_translated(msgid);
}

TEST_CASE("every description and summary of the route table has a translation in every catalog") {
  std::set<std::string> texts;
  for (const cal::Route& route : cal::route_table()) {
    for (const cal::Endpoint& e : route.endpoints) {
      texts.emplace(e.summary);
      for (const cal::ParamSpec& p : e.params) texts.emplace(p.description);
    }
  }
  CHECK(texts.count("") == 0);  // every parameter is described
  for (const std::string& text : texts) check_translated(text);
}

TEST_CASE("translate and format_message look up the request's language") {
  const struct {
    const char* locale;
    const char* msgid;
    std::vector<std::string> args;
    const char* expected;
  } cases[] = {
      {"de_DE", "The city.", {}, "Der Ort."},
      {"fr_FR", "%s must not be empty.", {"title"}, "title ne doit pas être vide."},
      {"es_ES",
       "%s must be between %s and %s.",
       {"geoloc_lat", "-90", "90"},
       "geoloc_lat debe estar entre -90 y 90."},
      // The message as formatted wins where a catalog has it (word kinds with gender).
      {"de_DE",
       "The requested %s was not found.",
       {"event"},
       "Die angeforderte Veranstaltung wurde nicht gefunden."},
      {"de_DE",
       "The requested %s was not found.",
       {"venue"},
       "Der angeforderte Veranstaltungsort wurde nicht gefunden."},
      {"fr_FR",
       "The %s has already been trashed.",
       {"organizer"},
       "L’organisateur est déjà dans la corbeille."},
      // Else the pattern's translation.
      {"de_DE",
       "The requested %s was not found.",
       {"thing"},
       "Der angeforderte Datensatz (thing) wurde nicht gefunden."},
      {"en_US", "The requested %s was not found.", {"event"}, "The requested event was not found."},
      // No translation: the English text itself.
      {"de_DE", "Not a message of the service.", {}, "Not a message of the service."},
      {"xx_XX", "The city.", {}, "The city."},
  };
  for (const auto& c : cases) {
    CAPTURE(c.locale);
    CAPTURE(c.msgid);
    CHECK(cal::format_message(cal::Locale{c.locale}, c.msgid, c.args) == c.expected);
  }
  CHECK(cal::translate(cal::Locale{"es_ES"}, "The city.") == "La ciudad.");
}

TEST_CASE("format_message fills %s in order, %N$s by position and %% as a percent sign") {
  const struct {
    const char* pattern;
    std::vector<std::string> args;
    const char* expected;
  } cases[] = {
      {"%s and %s", {"a", "b"}, "a and b"},
      {"%2$s before %1$s", {"a", "b"}, "b before a"},
      {"100%% of %s", {"x"}, "100% of x"},
      {"%s and %s", {"a"}, "a and "},
      {"%3$s", {"a"}, ""},
      {"50% off", {}, "50% off"},
      {"trailing %", {"a"}, "trailing %"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.pattern);
    CHECK(cal::format_message(cal::Locale{}, c.pattern, c.args) == c.expected);
  }
}

TEST_CASE("a catalog dropped into the locale directory is a new language") {
  const fs::path dir = fs::temp_directory_path() / ("calendar-locale-" + std::to_string(::getpid()));
  fs::create_directories(dir / "it_IT" / "LC_MESSAGES");
  fs::create_directories(dir / "nl_NL" / "LC_MESSAGES");
  fs::copy_file(fs::path(cal::default_catalog_dir()) / "de_DE" / "LC_MESSAGES" / "calendar.mo",
                dir / "it_IT" / "LC_MESSAGES" / "calendar.mo");
  std::ofstream(dir / "nl_NL" / "LC_MESSAGES" / "calendar.mo") << "not a catalog";  // skipped
  const std::vector<std::string> shipped = cal::load_catalogs(dir.string());
  CHECK(shipped == std::vector<std::string>{"en_US", "it_IT"});
  CHECK(cal::choose_locale("", "", "it, de;q=0.5", "en_US").name == "it_IT");
  CHECK(cal::choose_locale("", "de_DE", "", "en_US").name == "en_US");  // not shipped from there
  CHECK(cal::translate(cal::Locale{"it_IT"}, "The city.") == "Der Ort.");
  // Back to the catalogs beside the binary for the other tests.
  CHECK(cal::load_catalogs("").size() == po_languages().size());
  fs::remove_all(dir);
  CHECK(cal::is_shipped_locale("de_DE"));
}

TEST_CASE("catalogs read on use: all found ship; an unreadable one answers English, named beforehand") {
  const fs::path dir = fs::temp_directory_path() / ("calendar-catalogs-" + std::to_string(::getpid()));
  fs::copy(cal::default_catalog_dir(), dir, fs::copy_options::recursive);
  std::ofstream(dir / "fr_FR" / "LC_MESSAGES" / "calendar.mo") << "not a catalog";
  const std::vector<std::string> all = {"en_US", "de_DE", "es_ES", "fr_FR"};
  CHECK(cal::load_catalogs(dir.string(), cal::CatalogLoading::kOnUse) == all);
  CHECK(cal::translate(cal::Locale{"de_DE"}, "The city.") == "Der Ort.");
  CHECK(cal::translate(cal::Locale{"fr_FR"}, "The city.") == "The city.");
  const std::vector<std::string> unreadable = cal::unreadable_catalogs(dir.string());
  REQUIRE(unreadable.size() == 1);
  CHECK(unreadable[0].rfind("fr_FR: ", 0) == 0);
  // Read at start, the unreadable one is not shipped.
  CHECK(cal::load_catalogs(dir.string()) == std::vector<std::string>{"en_US", "de_DE", "es_ES"});
  CHECK(cal::unreadable_catalogs(cal::default_catalog_dir()).empty());
  cal::load_catalogs("");
  fs::remove_all(dir);
  CHECK(cal::translate(cal::Locale{"fr_FR"}, "The city.") != "The city.");
}
