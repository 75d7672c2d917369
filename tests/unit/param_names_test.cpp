// Unit tests for cal/api/pipeline/param_names.h: the constants and the route table are one list
// (each constant is declared by some route, each route parameter is a constant), and reading a
// parameter an endpoint does not declare fails loudly instead of reading as absent.
#include "cal/api/pipeline/param_names.h"

#include "cal/api/pipeline/params.h"
#include "cal/api/pipeline/routes.h"

#include <doctest/doctest.h>

#include <set>
#include <stdexcept>
#include <string>

TEST_CASE("every parameter name constant is declared by a route, and only constants are") {
  std::set<std::string> declared;
  for (const cal::Route& route : cal::route_table())
    for (const cal::Endpoint& endpoint : route.endpoints)
      for (const cal::ParamSpec& spec : endpoint.params) declared.insert(std::string(spec.name.text()));
  std::set<std::string> constants;
  for (const cal::ParamName name : cal::param::kAll) constants.insert(std::string(name.text()));
  for (const std::string& name : constants) {
    CAPTURE(name);
    CHECK(declared.count(name) == 1);
  }
  CHECK(declared == constants);
}

TEST_CASE("reading the value of a parameter the endpoint does not declare throws; asking does not") {
  const std::vector<cal::ParamSpec> specs = {
      {.name = cal::param::kPage, .type = cal::ParamType::kInteger, .default_value = "1"}};
  const cal::Params params = cal::validate_params(specs, cal::ParamSources{}, cal::Locale{});
  CHECK(params.integer(cal::param::kPage) == 1);
  CHECK_THROWS_AS(params.text(cal::param::kSearch), std::logic_error);
  CHECK_THROWS_AS(params.integer(cal::param::kPerPage), std::logic_error);
  CHECK_FALSE(params.given(cal::param::kSearch));
  CHECK_FALSE(params.has(cal::param::kSearch));
}
