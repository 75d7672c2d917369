// libFuzzer target: a query string → parse_form() → validate_params() of every endpoint, with
// the query as the only source (as on GET requests).
#include "params_driver.h"
#include "cal/http/input.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  rapidjson::Document query;
  query.SetObject();
  std::vector<std::string> invalid;
  cal::parse_form(text, query, invalid);
  caltest_fuzz::check_form_shape(query);
  caltest_fuzz::validate_everywhere(nullptr, &query, invalid, false);
  return 0;
}
