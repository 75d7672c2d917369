// Categories and tags (tables terms, term_relationships): one implementation parametrised by
// taxonomy. `count` is computed in SQL from published events, so it can never drift.
#pragma once

#include "cal/store/db.h"
#include "cal/store/modified_bounds.h"

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

// Thrown by term writes when the same name (case-insensitive) already exists at the same level,
// or an explicit slug is taken: `term_id` names the term in the way.
struct TermExists {
  long long term_id = 0;
};

// The terms (both taxonomies) of each event, as (event id, term) pairs ordered by event then
// term name. One statement whatever the number of events.
std::vector<std::pair<long long, Term>> find_event_terms(Db& db, const std::vector<long long>& event_ids);

// Replaces the event's terms of one taxonomy with `term_ids` (call inside a transaction). Ids of
// another taxonomy or of no term are skipped; duplicates count once. `fresh`: the event was created
// in this transaction and has no terms yet, so there is nothing to remove (one statement less).
void set_event_terms(Db& db, long long event_id, Taxonomy taxonomy, const std::vector<long long>& term_ids,
                     bool fresh = false);

// The term of this taxonomy with this id, with its count; nullopt when there is none.
std::optional<Term> find_term(Db& db, Taxonomy taxonomy, long long id);

// Which of `ids` name a term of this taxonomy (each once, any order). One statement.
std::vector<long long> existing_term_ids(Db& db, Taxonomy taxonomy, const std::vector<long long>& ids);

// The terms of this taxonomy whose id is one of `ids` or whose slug is one of `slugs`, as
// (id, slug) pairs. One statement.
std::vector<std::pair<long long, std::string>> find_term_ids_and_slugs(Db& db, Taxonomy taxonomy,
                                                                       const std::vector<long long>& ids,
                                                                       const std::vector<std::string>& slugs);

// The terms a list filter's items name, each item an id or a slug (a numeric item may be either:
// the id wins), in the items' order without repeats; `unknown`: the first item naming no term of
// this taxonomy ("" when every one does). One statement, none when every item is the id of a term
// of this taxonomy that `kept` keeps (cal/store/event_relations.h: a kept term is dropped by any
// logged change of it, so it exists as kept).
struct TermRefs {
  std::vector<long long> ids;
  std::string unknown;
};
class LinkedRowKeeper;
TermRefs resolve_term_refs(Db& db, Taxonomy taxonomy, const std::vector<std::string>& items,
                           LinkedRowKeeper* kept = nullptr);

// The id of a term of this taxonomy named `name` (case-insensitive), preferring the top level,
// then the lowest id; nullopt when none.
std::optional<long long> find_term_id_by_name(Db& db, Taxonomy taxonomy, std::string_view name);

// Whether `term_id` is `ancestor_candidate` itself or lies below it (so making
// `ancestor_candidate`'s parent `term_id` would close a cycle).
bool is_same_or_descendant(Db& db, long long term_id, long long ancestor_candidate);

// Inserts the term and sets term.id. term.slug is the wanted slug: when `slug_generated`, a
// taken slug becomes slug-2, slug-3, ...; otherwise a taken slug throws TermExists. The same
// name at the same level throws TermExists. Call inside a transaction.
void insert_term_row(Db& db, Term& term, bool slug_generated);

// Writes name, slug, description and parent of the term by id, with the rules of insert_term_row.
void update_term_row(Db& db, Term& term, bool slug_generated);

// Locks the term's row for the rest of the current transaction (SELECT ... FOR UPDATE), as
// lock_post() does for posts: a term write (every one updates or deletes that row) waits for it.
void lock_term(Db& db, long long id);

// Deletes the term permanently: its children move to its parent, events lose it. Throws
// TermExists (changing nothing, once the caller rolls back) when a child would land next to a
// term of the same name. Call inside a transaction.
void delete_term_row(Db& db, const Term& term);

// How a term list is sorted (docs/api.md §4.4 `orderby`); ties by id in the same direction.
enum class TermOrder { kId, kName, kSlug, kCount, kParent, kDescription };

// One page of a term list: the filters of docs/api.md §4.4 already validated.
struct TermQuery {
  Taxonomy taxonomy = Taxonomy::kCategory;
  bool hide_empty = true;             // leave out terms whose count is 0
  std::vector<long long> include;     // only these ids (when non-empty)
  std::vector<long long> exclude;     // never these ids
  std::optional<long long> parent;    // only children of this id (0: top level)
  std::optional<long long> event_id;  // only terms this event carries
  std::string search;                 // substring of name or slug ("" = none)
  std::string slug;                   // exact slug ("" = none)
  ModifiedBounds modified;            // on terms.modified_utc
  TermOrder order_by = TermOrder::kName;
  bool descending = false;
  long long limit = 10;
  long long offset = 0;
};

struct TermPage {
  std::vector<Term> terms;
  long long total = 0;  // matching terms on all pages
};

// The page and the total, in one statement.
TermPage find_term_page(Db& db, const TermQuery& query);

}  // namespace cal
