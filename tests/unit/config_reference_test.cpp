// docs/configuration.md as `--config-reference` prints it (cal/core/config.h): every option of the
// table is on the page with a meaning, and the page's "every option at its default" file is one
// the service reads back to the defaults.
#include "cal/core/config.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

// The text between "```ini\n" and the next "```".
std::string ini_block(const std::string& page) {
  const std::size_t start = page.find("```ini\n");
  if (start == std::string::npos) return "";
  const std::size_t from = start + 7;
  const std::size_t end = page.find("```", from);
  return end == std::string::npos ? "" : page.substr(from, end - from);
}

cal::ConfigResult load(const std::vector<const char*>& args) {
  return cal::load_config(static_cast<int>(args.size()), args.data(), "", false);
}

}  // namespace

TEST_CASE("--config-reference prints the page, and only the page") {
  const cal::ConfigResult r = load({"calendar-fcgi", "--config-reference", "--config", "/nonexistent"});
  CHECK(!r.config);
  CHECK(r.exit_code == 0);
  CHECK(r.message == cal::config_reference_markdown());
  CHECK(r.message.rfind("# Configuration\n", 0) == 0);
}

TEST_CASE("the reference lists every section with an introduction and every option with a meaning") {
  const std::string page = cal::config_reference_markdown();
  for (const char* section : {"database", "site", "server", "geoloc", "ical", "sync", "cors"}) {
    CAPTURE(section);
    const std::size_t at = page.find(std::string("## [") + section + "]\n\n");
    REQUIRE(at != std::string::npos);
    // The introduction: a sentence before the table, not the table's header at once.
    CHECK(page.compare(at + std::string(section).size() + 7, 9, "| Option ") != 0);
  }
  for (const char* row : {"| `host` | text | `127.0.0.1` |", "| `per_page` | integer | `10` |",
                          "| `response_cache` | true/false | `true` |", "| `geofence_km` | number | `40` |",
                          "| `origins` | text | (unset) |", "| `threads` | integer | (unset) |"}) {
    CAPTURE(row);
    CHECK(page.find(row) != std::string::npos);
  }
  // No empty Meaning cell.
  CHECK(page.find("|  |") == std::string::npos);
  CHECK(page.find("| |\n") == std::string::npos);
}

TEST_CASE("the reference's file of defaults reads back to the defaults") {
  const std::string ini = ini_block(cal::config_reference_markdown());
  REQUIRE(!ini.empty());
  char path[] = "/tmp/config-reference-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  std::ofstream(path) << ini;
  const cal::ConfigResult r = load({"calendar-fcgi", "--config", path});
  std::remove(path);
  CAPTURE(r.message);
  REQUIRE(r.config);
  const cal::Config defaults;
  CHECK(r.config->database.host == defaults.database.host);
  CHECK(r.config->database.read_timeout == defaults.database.read_timeout);
  CHECK(r.config->site.per_page_max == defaults.site.per_page_max);
  CHECK(r.config->server.max_body == defaults.server.max_body);
  CHECK(r.config->server.response_cache == defaults.server.response_cache);
  CHECK(r.config->geoloc.geofence_km == defaults.geoloc.geofence_km);
  CHECK(r.config->sync.retention_days == defaults.sync.retention_days);
  CHECK(r.config->cors.origins.empty());
}
