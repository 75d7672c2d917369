#include <doctest/doctest.h>

#include "cal/store/built_in_libraries.h"

TEST_CASE("versions compare part by part, as numbers") {
  CHECK(cal::compare_versions("3.0.17", "3.0.9") == 1);
  CHECK(cal::compare_versions("3.0.9", "3.0.17") == -1);
  CHECK(cal::compare_versions("3.3.14", "3.3.14") == 0);
  CHECK(cal::compare_versions("3.1", "3.0.99") == 1);
  CHECK(cal::compare_versions("3.0", "3.0.0") == 0);
  CHECK(cal::compare_versions("3.0", "3.0.1") == -1);
}

TEST_CASE("the libraries built in are named with their versions") {
  const cal::BuiltInLibraries libraries = cal::check_built_in_libraries();
  CHECK(libraries.detail.rfind("OpenSSL 3.", 0) == 0);
  CHECK(libraries.detail.find("; MariaDB Connector/C 3.") != std::string::npos);
}
