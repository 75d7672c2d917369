// kSchemaVersion is the highest migration schema.sql records: a migration added to the file
// without raising the constant would leave the health check content with an old database.
#include "cal/store/schema_version.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <string>

// Plain string scanning: std::regex trips GCC 12's maybe-uninitialized warning in the sanitizer
// build, which -Werror turns into an error.
TEST_CASE("kSchemaVersion is the highest version schema.sql inserts into schema_migrations") {
  std::ifstream in("schema.sql");  // the unit tests run in the checkout (scripts/run-tests.sh)
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string sql = text.str();
  // "INSERT [IGNORE] INTO schema_migrations (version) VALUES (1), (2), ...;"
  const std::string insert = "INTO schema_migrations (version) VALUES ";
  long long highest = 0;
  int inserts = 0;
  for (std::size_t at = sql.find(insert); at != std::string::npos; at = sql.find(insert, at + 1)) {
    ++inserts;
    std::size_t i = at + insert.size();
    // The list of "(N)" items, up to the first character that is not part of one.
    while (i < sql.size() && (sql[i] == '(' || sql[i] == ')' || sql[i] == ',' || sql[i] == ' ' ||
                              std::isdigit(static_cast<unsigned char>(sql[i])))) {
      if (std::isdigit(static_cast<unsigned char>(sql[i]))) {
        std::size_t end = i;
        while (end < sql.size() && std::isdigit(static_cast<unsigned char>(sql[end]))) ++end;
        highest = std::max(highest, std::stoll(sql.substr(i, end - i)));
        i = end;
      } else {
        ++i;
      }
    }
  }
  CHECK(inserts > 0);
  CHECK(highest == cal::kSchemaVersion);
}
