// Categories and tags (tables terms, term_relationships): one implementation parametrised by
// taxonomy. `count` is computed in SQL from published events, so it can never drift.
#pragma once

#include "cal/store/db.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cal {

enum class Taxonomy { kCategory, kTag };

// "cal_events_cat" or "post_tag": the `terms.taxonomy` value and the record's `taxonomy` key.
const char* taxonomy_name(Taxonomy taxonomy);

struct Term {
  long long id = 0;
  Taxonomy taxonomy = Taxonomy::kCategory;
  std::string name;
  std::string slug;
  std::string description;
  long long parent = 0;  // 0 = top level; tags always 0
  long long count = 0;   // published events carrying the term
};

// The terms (both taxonomies) of each event, as (event id, term) pairs ordered by event then
// term name. One statement whatever the number of events.
std::vector<std::pair<long long, Term>> find_event_terms(Db& db, const std::vector<long long>& event_ids);

// Replaces the event's terms of one taxonomy with `term_ids` (call inside a transaction).
void set_event_terms(Db& db, long long event_id, Taxonomy taxonomy, const std::vector<long long>& term_ids);

}  // namespace cal
