// Unit tests for cal/core/wordpress/: PHP's serialized values as WordPress stores them, and TEC's
// readings of its meta (docs/importing-wordpress.md), each case with the stored text.
#include "cal/core/wordpress/php_serialized.h"
#include "cal/core/wordpress/tec_fields.h"

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

TEST_CASE("parse_php_serialized reads what WordPress stores and refuses the rest") {
  // A user's capabilities, as in TEC's Event Tickets dump.
  const auto caps = cal::parse_php_serialized("a:1:{s:13:\"administrator\";b:1;}");
  REQUIRE(caps);
  REQUIRE(caps->find("administrator"));
  CHECK(caps->find("administrator")->truthy());
  CHECK(caps->find("editor") == nullptr);
  // TEC's options: nested arrays, integers, strings with multi-byte characters (bytes counted).
  const auto options = cal::parse_php_serialized(
      "a:3:{s:21:\"defaultCurrencySymbol\";s:3:\"\xe2\x82\xac\";s:23:\"reverseCurrencyPosition\";b:1;"
      "s:14:\"multiDayCutoff\";s:5:\"06:00\";}");
  REQUIRE(options);
  CHECK(options->find("defaultCurrencySymbol")->as_text() == "\xe2\x82\xac");
  CHECK(options->find("reverseCurrencyPosition")->truthy());
  CHECK(options->find("multiDayCutoff")->as_text() == "06:00");
  // Pro's recurrence: empty rules are falsy, integer keys are read as text.
  const auto empty = cal::parse_php_serialized(
      "a:3:{s:5:\"rules\";a:0:{}s:10:\"exclusions\";a:0:{}s:11:\"description\";N;}");
  REQUIRE(empty);
  CHECK_FALSE(empty->find("rules")->truthy());
  const auto list = cal::parse_php_serialized("a:2:{i:0;i:-5;i:1;d:0.5;}");
  REQUIRE(list);
  CHECK(list->find("0")->integer == -5);
  CHECK(list->find("1")->number == 0.5);

  static const std::string_view kRefused[] = {
      "",
      "s:5:\"abc\";",                           // length does not match (a dump converted to another charset)
      "s:3:\"abc\"",                            // no ';'
      "O:8:\"stdClass\":0:{}",                  // objects are never read
      "a:1:{s:1:\"a\";O:8:\"stdClass\":0:{}}",  // not even inside an array
      "a:2:{i:0;b:1;}",                         // fewer items than said
      "b:2;",
      "i:12x;",
      "a:1:{a:0:{}b:1;}",  // an array as a key
      "s:1:\"a\";trailing",
  };
  for (std::string_view text : kRefused) {
    CAPTURE(text);
    CHECK_FALSE(cal::parse_php_serialized(text));
  }
}

TEST_CASE("tec_site_timezone and our_timezone: TEC's zone names as ours") {
  struct Case {
    std::string_view timezone_string, gmt_offset, tec;
  };
  static const Case kSites[] = {
      {"America/Los_Angeles", "", "America/Los_Angeles"},  // TEC's restv1 dump: gmt_offset ''
      {"", "0", "UTC+0"},
      {"", "5.5", "UTC+5.5"},
      {"", "-5", "UTC-5"},
      {"", "", "UTC+0"},
      {"", "+2", "UTC+2"},
  };
  for (const Case& c : kSites) {
    CAPTURE(c.gmt_offset);
    CHECK(cal::tec_site_timezone(c.timezone_string, c.gmt_offset) == c.tec);
  }
  struct Zone {
    std::string_view tec, ours;
  };
  static const Zone kZones[] = {
      {"Europe/Paris", "Europe/Paris"},
      {"UTC", "UTC"},
      {"UTC+0", "UTC"},
      {"UTC+5.5", "UTC+5:30"},
      {"UTC+5.75", "UTC+5:45"},
      {"UTC-9.5", "UTC-9:30"},
      {"UTC-5", "UTC-5"},
      {"UTC+2", "UTC+2"},
      {" Asia/Kolkata ", "Asia/Kolkata"},
  };
  for (const Zone& z : kZones) {
    CAPTURE(z.tec);
    const auto ours = cal::our_timezone(z.tec);
    REQUIRE(ours);
    CHECK(*ours == z.ours);
  }
  for (std::string_view unknown : {"", "Mars/Base", "UTC+15.5", "UTC+x.5", "CEST"}) {
    CAPTURE(unknown);
    CHECK_FALSE(cal::our_timezone(unknown));
  }
}

TEST_CASE("php_bool and tribe_is_truthy: the two readings of TEC's flags") {
  struct Case {
    std::string_view stored;
    bool php, tribe;
  };
  static const Case kCases[] = {
      {"1", true, true},       {"0", false, false},    {"", false, false},  {"yes", true, true},
      {"FALSE", true, false},  // a legacy event flag reads true, a venue's false
      {"TRUE", true, true},    {"false", true, false}, {"on", true, true},  {"no", true, false},
      {"enabled", true, true}, {" Y ", true, true},    {"00", true, false},
  };
  for (const Case& c : kCases) {
    CAPTURE(c.stored);
    CHECK(cal::php_bool(c.stored) == c.php);
    CHECK(cal::tribe_is_truthy(c.stored) == c.tribe);
  }
}

TEST_CASE("tec_cost_text: what TEC's formatted cost shows, as our cost text") {
  struct Case {
    std::vector<std::string> rows;
    std::string_view symbol;
    bool after;
    std::string_view text;
  };
  static const Case kCases[] = {
      {{"23"}, "$", false, "$23"},
      {{"0"}, "$", false, "$0"},  // shown as Free
      {{"25", "10"}, "\xe2\x82\xac", true, "10\xe2\x82\xac, 25\xe2\x82\xac"},
      {{"10", "10"}, "$", false, "$10"},
      {{"", "  "}, "$", false, ""},
      {{"Donation"}, "$", false, "Donation"},
      {{"5 - 15"}, "$", false, "$5, $15"},
      {{"20$"}, "", false, "$20"},  // the row's own symbol when none is stored
  };
  for (const Case& c : kCases) {
    CAPTURE(c.text);
    CHECK(cal::tec_cost_text(c.rows, c.symbol, c.after) == c.text);
  }
}

TEST_CASE("untrashed_slug: WordPress's trash suffix taken off") {
  struct Case {
    std::string_view slug, untrashed;
  };
  static const Case kCases[] = {
      {"concert__trashed", "concert"},
      {"concert__trashed-2", "concert"},
      {"concert", "concert"},
      {"a__trashed-x", "a__trashed-x"},
      {"__trashed", ""},
  };
  for (const Case& c : kCases) {
    CAPTURE(c.slug);
    CHECK(cal::untrashed_slug(c.slug) == c.untrashed);
  }
}
