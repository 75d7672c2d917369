// What the other resources use of categories and tags: the one term writer (docs/api.md §3.3, also
// inside events), and the resolution of `categories`/`tags` inputs and filters.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/json.h"
#include "cal/store/terms.h"

#include <rapidjson/document.h>

#include <string_view>
#include <vector>

namespace cal {

// Writes a term record: id, name, slug, taxonomy, description, parent, count, url, urls.
void write_term(JsonWriter& w, const RequestContext& ctx, const Term& term);

// Event write input for `categories`/`tags`: ids or names, as a JSON array, a comma list, or a
// single id; "" (or an empty array) means none. Missing names are created (as the caller, in
// the current transaction). The validator checked the input (check_event_terms).
std::vector<long long> resolve_terms_input(RequestContext& ctx, Taxonomy taxonomy,
                                           const rapidjson::Value& raw, std::string_view param);

// List filter for events: the term ids of these ids or slugs (each known: resolve_term_filter), when
// the validator did not resolve them already (ParamValue::resolved).
std::vector<long long> resolve_terms_filter(RequestContext& ctx, Taxonomy taxonomy,
                                            const std::vector<std::string>& items);

}  // namespace cal
