// libFuzzer target: slugify(), slug_with_suffix() and is_valid_utf8(). A slug is only
// [a-z0-9-], at most kMaxSlugBytes, without leading/trailing '-' or "--"; slugify is idempotent;
// a suffixed slug stays within kMaxSuffixedSlugBytes and valid UTF-8 when its base is.
#include "fuzz_support.h"
#include "cal/core/text/slug.h"

#include <cstddef>
#include <cstdint>

using caltest_fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string slug = cal::slugify(text);
  require(slug.size() <= cal::kMaxSlugBytes, "slug too long");
  for (char c : slug)
    require((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-', "slug byte outside [a-z0-9-]");
  if (!slug.empty()) {
    require(slug.front() != '-' && slug.back() != '-', "slug starts or ends with '-'");
    require(slug.find("--") == std::string::npos, "slug has '--'");
    require(cal::slugify(slug) == slug, "slugify is not idempotent");
  }
  const int n = size > 0 ? static_cast<int>(data[0]) * 1000 + 2 : 2;
  const std::string suffixed = cal::slug_with_suffix(text, n);
  require(suffixed.size() <= cal::kMaxSuffixedSlugBytes, "suffixed slug too long");
  if (cal::is_valid_utf8(text)) require(cal::is_valid_utf8(suffixed), "suffixing broke UTF-8");
  require(cal::slug_with_suffix(text, 1) == text || text.size() > cal::kMaxSuffixedSlugBytes,
          "slug_with_suffix(base, 1) changed a short base");
  return 0;
}
