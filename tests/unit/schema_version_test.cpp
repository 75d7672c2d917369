// kSchemaVersion is the highest migration schema.sql records: a migration added to the file
// without raising the constant would leave the health check content with an old database.
#include "cal/store/schema_version.h"

#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

TEST_CASE("kSchemaVersion is the highest version schema.sql inserts into schema_migrations") {
  std::ifstream in("schema.sql");  // the unit tests run in the checkout (scripts/run-tests.sh)
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string sql = text.str();
  // "INSERT [IGNORE] INTO schema_migrations (version) VALUES (1), (2), ..."
  const std::regex insert(R"(INTO schema_migrations \(version\) VALUES ((\(\d+\)(, )?)+))");
  const std::regex number(R"(\d+)");
  long long highest = 0;
  int inserts = 0;
  for (auto it = std::sregex_iterator(sql.begin(), sql.end(), insert); it != std::sregex_iterator(); ++it) {
    ++inserts;
    const std::string values = (*it)[1];
    for (auto n = std::sregex_iterator(values.begin(), values.end(), number); n != std::sregex_iterator();
         ++n)
      highest = std::max(highest, std::stoll(n->str()));
  }
  CHECK(inserts > 0);
  CHECK(highest == cal::kSchemaVersion);
}
