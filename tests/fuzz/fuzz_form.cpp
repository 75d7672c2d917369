// libFuzzer target: an application/x-www-form-urlencoded body → parse_form() →
// validate_params() of every write endpoint, the body first and a fixed query behind it.
#include "params_driver.h"
#include "cal/http/input.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> invalid;
  rapidjson::Document query;
  query.SetObject();
  cal::parse_form("_method=PUT&title=from+query&page=2", query, invalid);
  rapidjson::Document body;
  body.SetObject();
  cal::parse_form(text, body, invalid);
  caltest_fuzz::check_form_shape(body);
  caltest_fuzz::validate_everywhere(&body, &query, invalid, true);
  return 0;
}
