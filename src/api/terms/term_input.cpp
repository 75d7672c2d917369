// Term input parsing, name, slug and description checks (see cal/api/terms/term_input.h).
#include "cal/api/terms/term_input.h"

#include "cal/core/text/ascii.h"
#include "cal/core/text/html_sanitizer.h"
#include "cal/core/text/numbers.h"
#include "cal/core/text/slug.h"

namespace cal {
namespace {

constexpr std::size_t kNameMaxChars = 200;           // terms.name is VARCHAR(200)
constexpr std::size_t kDescriptionMaxBytes = 65535;  // terms.description is TEXT

using ascii::trim;

std::size_t utf8_chars(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

void add_text_item(std::vector<TermInputItem>& items, std::string_view text) {
  const std::string_view t = trim(text);
  if (t.empty()) return;
  if (const auto id = parse_id(t))
    items.push_back({*id, {}});
  else
    items.push_back({0, std::string(t)});
}

// Adds one value; false when it is neither a string nor a positive integer.
bool add_value(std::vector<TermInputItem>& items, const rapidjson::Value& v, bool split) {
  if (v.IsInt64()) {
    if (v.GetInt64() <= 0) return false;
    items.push_back({v.GetInt64(), {}});
    return true;
  }
  if (!v.IsString()) return false;
  const std::string_view s(v.GetString(), v.GetStringLength());
  if (!split) {
    add_text_item(items, s);
    return true;
  }
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t comma = std::min(s.find(',', start), s.size());
    add_text_item(items, s.substr(start, comma - start));
    start = comma + 1;
  }
  return true;
}

}  // namespace

std::optional<std::vector<TermInputItem>> split_terms_input(const rapidjson::Value& raw) {
  std::vector<TermInputItem> items;
  if (raw.IsNull()) return items;
  if (raw.IsArray()) {
    for (const auto& v : raw.GetArray())
      if (!add_value(items, v, false)) return std::nullopt;
  } else if (raw.IsObject()) {
    for (const auto& m : raw.GetObject())
      if (!add_value(items, m.value, false)) return std::nullopt;
  } else if (!add_value(items, raw, true)) {
    return std::nullopt;
  }
  return items;
}

std::optional<std::string> normalized_term_name(std::string_view name) {
  const std::string_view trimmed = trim(name);
  if (trimmed.empty() || utf8_chars(trimmed) > kNameMaxChars) return std::nullopt;
  return std::string(trimmed);
}

ApiError term_exists_error(const RequestContext& ctx, long long term_id) {
  ApiError e{409, "term_exists",
             translate(ctx.locale, "A term with the name provided already exists with this parent.")};
  e.term_id = term_id;
  return e;
}

std::string checked_term_name(const RequestContext& ctx, std::string_view name, std::string_view param) {
  if (auto normalized = normalized_term_name(name)) return *normalized;
  throw invalid_param(ctx, std::string(param),
                      format_message(ctx.locale, "%s must be a non-blank text of at most 200 characters.",
                                     {std::string(param)}));
}

std::string term_slug_from(const TermKind& kind, std::string_view text) {
  std::string slug = slugify(text);
  return slug.empty() ? std::string(kind.archive_kind) : slug;
}

std::string checked_term_description(const RequestContext& ctx, const std::string& description) {
  std::string out = can_post_unfiltered_html(ctx.caller) ? description : sanitize_html(description);
  if (out.size() > kDescriptionMaxBytes)
    throw invalid_param(ctx, "description", translate(ctx.locale, "description is too long."));
  return out;
}

bool can_manage_terms(const RequestContext& ctx, const TermKind& kind) {
  return has_capability(ctx.caller,
                        kind.hierarchical ? Capability::kManageCategories : Capability::kManageTags);
}

}  // namespace cal
