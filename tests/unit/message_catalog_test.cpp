// The .mo reader (cal/core/i18n/message_catalog.h): both byte orders, skipped entries, malformed files.
#include "cal/core/i18n/message_catalog.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace {

using Entries = std::vector<std::pair<std::string, std::string>>;

void put_word(std::string& out, std::uint32_t v, bool big_endian) {
  for (int i = 0; i < 4; ++i) {
    const int shift = big_endian ? 8 * (3 - i) : 8 * i;
    out += static_cast<char>((v >> shift) & 0xff);
  }
}

// A .mo file as msgfmt writes it (without the optional hash table), entries in the given order.
std::string make_mo(const Entries& entries, bool big_endian = false, std::uint32_t revision = 0) {
  const auto n = static_cast<std::uint32_t>(entries.size());
  const std::uint32_t originals = 28, translations = originals + 8 * n;
  std::uint32_t offset = translations + 8 * n;
  std::string tables, strings;
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& e : entries) {
      const std::string& s = pass == 0 ? e.first : e.second;
      put_word(tables, static_cast<std::uint32_t>(s.size()), big_endian);
      put_word(tables, offset, big_endian);
      strings += s;
      strings += '\0';
      offset += static_cast<std::uint32_t>(s.size() + 1);
    }
  }
  std::string out;
  for (std::uint32_t w : {0x950412deu, revision, n, originals, translations, 0u, offset})
    put_word(out, w, big_endian);
  return out + tables + strings;
}

const Entries kEntries = {
    {"", "Content-Type: text/plain; charset=UTF-8\n"},  // header: skipped
    {"The city.", "Der Ort."},
    {"%s must not be empty.", "%s darf nicht leer sein."},
    {"Untranslated.", ""},                      // empty msgstr: skipped
    {std::string("menu\x04Open."), "Öffnen."},  // with msgctxt: skipped
    {std::string("One file.\0%s files.", 19), std::string("Eine Datei.\0%s Dateien.", 23)},
};

}  // namespace

TEST_CASE("a .mo file is read in either byte order") {
  for (const bool big_endian : {false, true}) {
    CAPTURE(big_endian);
    std::string error;
    const auto catalog = cal::MessageCatalog::parse(make_mo(kEntries, big_endian), &error);
    REQUIRE_MESSAGE(catalog.has_value(), error);
    CHECK(catalog->size() == 3);
    REQUIRE(catalog->find("The city.") != nullptr);
    CHECK(*catalog->find("The city.") == "Der Ort.");
    CHECK(*catalog->find("%s must not be empty.") == "%s darf nicht leer sein.");
    CHECK(*catalog->find("One file.") == "Eine Datei.");  // plural: the singular forms
    CHECK(catalog->find("") == nullptr);
    CHECK(catalog->find("Untranslated.") == nullptr);
    CHECK(catalog->find("Open.") == nullptr);
    CHECK(catalog->find("The city") == nullptr);
  }
}

TEST_CASE("a malformed .mo file is refused with a reason") {
  const std::string good = make_mo(kEntries);
  const struct {
    const char* what;
    std::string bytes;
  } cases[] = {
      {"empty", ""},
      {"bad magic", "\x01\x02\x03\x04" + good.substr(4)},
      {"header cut short", good.substr(0, 10)},
      {"string table cut short", good.substr(0, 40)},
      {"strings cut short", good.substr(0, good.size() - 20)},
      {"unknown major revision", make_mo(kEntries, false, 0x20000)},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    std::string error;
    CHECK_FALSE(cal::MessageCatalog::parse(c.bytes, &error).has_value());
    CHECK_FALSE(error.empty());
  }
  std::string error;
  CHECK_FALSE(cal::MessageCatalog::read("/nonexistent/calendar.mo", &error).has_value());
  CHECK(error.find("/nonexistent/calendar.mo") != std::string::npos);
}
