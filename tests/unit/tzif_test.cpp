// Unit tests for core/dates/tzif.h: the TZif parser on files built here (every field, every
// malformed shape, every truncation) and the zone reader's refusal of names that are not zone ids.
// The zones' offsets and abbreviations through TimeZone are in dates_test.cpp.
#include "core/dates/tzif.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using cal::detail::load_tzif;
using cal::detail::parse_tzif;

struct Type {
  std::int32_t offset;
  std::uint8_t dst;  // 0 or 1 in a valid file
  std::uint8_t abbrev_index;
};

void put(std::string& out, std::uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out += static_cast<char>((value >> (8 * i)) & 0xff);
}

// A TZif file of `version` ('\0' or '2'..) with the same data in its 32- and 64-bit blocks.
struct File {
  char version = '2';
  std::vector<std::int64_t> transitions;
  std::vector<std::uint8_t> type_after;
  std::vector<Type> types;
  std::string chars;
  int leaps = 0;
  bool indicators = false;
  std::string footer = "\nCET-1CEST,M3.5.0,M10.5.0/3\n";

  std::string block(int time_bytes) const {
    std::string out = "TZif";
    out += version;
    out += std::string(15, '\0');
    const std::size_t indicator_count = indicators ? types.size() : 0;
    for (std::size_t n : {indicator_count, indicator_count, static_cast<std::size_t>(leaps),
                          transitions.size(), types.size(), chars.size()})
      put(out, n, 4);
    for (std::int64_t t : transitions) put(out, static_cast<std::uint64_t>(t), time_bytes);
    for (std::uint8_t i : type_after) out += static_cast<char>(i);
    for (const Type& t : types) {
      put(out, static_cast<std::uint32_t>(t.offset), 4);
      out += static_cast<char>(t.dst);
      out += static_cast<char>(t.abbrev_index);
    }
    out += chars;
    for (int i = 0; i < leaps; ++i) {
      put(out, 78796800 + i, time_bytes);
      put(out, i + 1, 4);
    }
    out += std::string(2 * indicator_count, '\0');
    return out;
  }

  std::string bytes() const { return version == '\0' ? block(4) : block(4) + block(8) + footer; }
};

File berlin() {
  File f;
  f.transitions = {-2422054408, 1711846800, 1729990800};
  f.type_after = {1, 2, 1};
  f.types = {{3208, 0, 0}, {3600, 0, 4}, {7200, 1, 8}};
  f.chars = std::string("LMT\0CET\0CEST\0", 13);
  return f;
}

TEST_CASE("parse_tzif reads transitions, types, abbreviations and the footer") {
  for (const bool extras : {false, true}) {
    CAPTURE(extras);
    File f = berlin();
    if (extras) {
      f.leaps = 2;
      f.indicators = true;
    }
    const auto zone = parse_tzif(f.bytes());
    REQUIRE(zone.has_value());
    CHECK(zone->transitions == f.transitions);
    CHECK(zone->type_after == f.type_after);
    REQUIRE(zone->types.size() == 3);
    CHECK(zone->types[0].abbrev == "LMT");
    CHECK(zone->types[0].offset == 3208);
    CHECK(zone->types[2].abbrev == "CEST");
    CHECK(zone->types[2].offset == 7200);
    CHECK(zone->types[2].dst);
    CHECK_FALSE(zone->types[1].dst);
    CHECK(zone->initial_type == 0);
    CHECK(zone->footer == "CET-1CEST,M3.5.0,M10.5.0/3");
  }
}

TEST_CASE("parse_tzif reads version 1 files and empty footers") {
  File v1 = berlin();
  v1.version = '\0';
  v1.transitions = {-2147483648LL, 1711846800};  // 32-bit times, the first one as small as they go
  v1.type_after = {1, 2};
  const auto zone = parse_tzif(v1.bytes());
  REQUIRE(zone.has_value());
  CHECK(zone->transitions == v1.transitions);
  CHECK(zone->footer.empty());

  File no_rule = berlin();
  no_rule.footer = "\n\n";
  const auto without = parse_tzif(no_rule.bytes());
  REQUIRE(without.has_value());
  CHECK(without->footer.empty());
}

struct BadCase {
  const char* what;
  void (*spoil)(File&);
};

const BadCase kBadCases[] = {
    {"no types", [](File& f) { f.types.clear(); }},
    {"no abbreviation bytes", [](File& f) { f.chars.clear(); }},
    {"type index past the types", [](File& f) { f.type_after[1] = 3; }},
    {"transitions out of order", [](File& f) { f.transitions[2] = f.transitions[1]; }},
    {"abbreviation index past the bytes", [](File& f) { f.types[2].abbrev_index = 13; }},
    {"abbreviation without its NUL", [](File& f) { f.chars = std::string("LMT\0CET\0CEST", 12); }},
    {"DST flag other than 0 or 1", [](File& f) { f.types[1].dst = 2; }},
    {"offset beyond a day", [](File& f) { f.types[1].offset = 100000; }},
    {"unknown version", [](File& f) { f.version = '1'; }},
    {"footer without its newlines", [](File& f) { f.footer = "CET-1"; }},
    {"footer not ended", [](File& f) { f.footer = "\nCET-1"; }},
};

TEST_CASE("parse_tzif refuses malformed files") {
  for (const BadCase& c : kBadCases) {
    CAPTURE(c.what);
    File f = berlin();
    c.spoil(f);
    CHECK_FALSE(parse_tzif(f.bytes()).has_value());
  }
  // A header announcing more transitions than the file holds (the fuzzer's find: it reserved
  // memory for two billion of them).
  std::string too_many = berlin().bytes();
  too_many[44 + 3 * 4 + 3 + 3 * 6 + 13 + 20 + 12] = '\x7f';  // the 64-bit header's timecnt
  CHECK_FALSE(parse_tzif(too_many).has_value());
  std::string bad_magic = berlin().bytes();
  bad_magic[0] = 'X';
  CHECK_FALSE(parse_tzif(bad_magic).has_value());
}

TEST_CASE("parse_tzif refuses every truncation of a valid file") {
  const std::string full = berlin().bytes();
  REQUIRE(parse_tzif(full).has_value());
  for (std::size_t n = 0; n < full.size(); ++n) {
    CAPTURE(n);
    CHECK_FALSE(parse_tzif(std::string_view(full).substr(0, n)).has_value());
  }
}

TEST_CASE("load_tzif reads a system zone and refuses names that are not zone ids") {
  const auto berlin_zone = load_tzif("Europe/Berlin");
  REQUIRE(berlin_zone.has_value());
  CHECK_FALSE(berlin_zone->transitions.empty());
  CHECK(berlin_zone->footer == "CET-1CEST,M3.5.0,M10.5.0/3");
  CHECK(load_tzif("UTC").has_value());
  for (const char* name :
       {"", "/etc/passwd", "../etc/passwd", "Europe/../Europe/Berlin", "Europe/./Berlin", "Europe//Berlin",
        "Europe/Berlin/", ".hidden", "posix/Europe/Berlin", "right/Europe/Berlin", "posixrules", "localtime",
        "Factory", "Europe/Berlin\n", "Europe/Berl in", "America", "zone.tab", "Mars/Base"}) {
    const std::string shown = name;
    CAPTURE(shown);
    CHECK_FALSE(load_tzif(name).has_value());
  }
}

}  // namespace
