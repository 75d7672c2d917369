// libFuzzer target: a Content-Type line, then a multipart/form-data body → multipart_boundary()
// and parse_multipart() → validate_params() of every write endpoint. An error leaves no fields.
#include "params_driver.h"
#include "cal/http/multipart.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::size_t line = text.find('\n');
  const std::string_view content_type = text.substr(0, line);
  const std::string_view body = line == std::string_view::npos ? std::string_view{} : text.substr(line + 1);
  const auto boundary = cal::multipart_boundary(content_type);
  if (boundary) caltest_fuzz::require(!boundary->empty() && boundary->size() <= 70, "boundary out of bounds");
  std::vector<std::string> invalid;
  rapidjson::Document body_doc;
  const cal::MultipartResult result = cal::parse_multipart(body, boundary.value_or("b"), body_doc, invalid);
  caltest_fuzz::check_form_shape(body_doc);
  if (result.error != cal::MultipartError::kNone) {
    caltest_fuzz::require(body_doc.ObjectEmpty(), "fields kept after a multipart error");
    return 0;
  }
  rapidjson::Document query;
  query.SetObject();
  caltest_fuzz::validate_everywhere(&body_doc, &query, invalid, true);
  return 0;
}
