// Internal to src/store/: how a term is selected and read, and the order of an event's terms,
// shared by terms.cpp and the relations of events (event_relations.cpp).
#pragma once

#include "cal/store/terms.h"

#include <string>
#include <utility>
#include <vector>

namespace cal {

// The select list read by read_term(), for queries on `terms t`; without `with_count` the count
// reads 0 (its subqueries are a large share of the relations of a 1,000-event feed, which shows
// no count).
std::string term_columns(bool with_count = true);
inline constexpr int kTermColumnCount = 7;
Term read_term(const Rows& rows, int first);

// `terms` (event id, term) ordered by event id, then name as the column's collation sorts it
// (`sort_keys[i]` is WEIGHT_STRING(t.name_lower) of terms[i]), then term id.
std::vector<std::pair<long long, Term>> sort_event_terms(std::vector<std::pair<long long, Term>> terms,
                                                         const std::vector<std::string>& sort_keys);

}  // namespace cal
