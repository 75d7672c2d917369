// Checks shared by every way a term is written (the term routes and the `categories`/`tags`
// inputs of events): names, generated slugs, descriptions, and the errors they raise.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/error.h"
#include "cal/api/terms/term_resource.h"

#include <rapidjson/document.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cal {

// One item of an event's `categories`/`tags` input: an id (digits, or a JSON integer) or a name.
struct TermInputItem {
  long long id = 0;  // > 0: an id; 0: `name` is a name
  std::string name;  // trimmed, never empty

  bool operator==(const TermInputItem&) const = default;
};

// The items of an input value: null, "" and [] give none; a string is a comma list; a positive
// integer is an id; an array (or a form body's one-level object) holds ids and names, each name
// whole (not split at commas). Blank items are skipped. nullopt for any other shape.
std::optional<std::vector<TermInputItem>> split_terms_input(const rapidjson::Value& raw);

// A name as stored: surrounding white space removed; nullopt when nothing is left or it is
// longer than 200 characters (terms.name is VARCHAR(200)).
std::optional<std::string> normalized_term_name(std::string_view name);

// 409 term_exists naming the term in the way (data.term_id).
ApiError term_exists_error(const RequestContext& ctx, long long term_id);

// A name as stored: surrounding white space removed. Empty afterwards, or longer than 200
// characters → 400 rest_invalid_param naming `param`.
std::string checked_term_name(const RequestContext& ctx, std::string_view name, std::string_view param);

// The slug generated from `text` (lower-case ASCII words joined by `-`); the kind's word
// ("category", "tag") when nothing of it survives.
std::string term_slug_from(const TermKind& kind, std::string_view text);

// A description as stored: HTML reduced to the safe allow-list unless the caller may post any
// HTML (docs/api.md §7); over 65535 bytes → 400 rest_invalid_param.
std::string checked_term_description(const RequestContext& ctx, const std::string& description);

// Whether the caller may create, edit and delete terms of this kind (docs/api.md §7).
bool can_manage_terms(const RequestContext& ctx, const TermKind& kind);

}  // namespace cal
