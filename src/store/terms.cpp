// SQL of categories and tags (see cal/store/terms.h). Every count is kCountSql: the published
// events carrying the term as kept in term_counts by triggers (schema.sql), so it follows
// publishing, trashing, deleting and re-tagging whoever writes, plus the scheduled events whose
// date has passed, which read as published.
#include "cal/store/terms.h"

#include "store/sql_where.h"
#include "store/term_rows.h"
#include "cal/core/text/ascii.h"
#include "cal/core/text/numbers.h"
#include "cal/core/text/slug.h"
#include "cal/store/event_relations.h"
#include "cal/store/read_set.h"

#include <algorithm>
#include <set>

namespace cal {
namespace {

// Published events carrying term `t`: status publish, or future whose date has passed (the
// effective status of kPostColumns in posts.cpp). The first part sums the term's term_counts shards; the
// second walks the due scheduled posts (index posts_status_date, usually none), never the
// term's events: counting those on every read cost a scan per term that grew with the site.
// The scheduled events' part runs per term only when some scheduled event is due at all: the
// uncorrelated EXISTS is evaluated once per statement, the correlated count (a subquery per term
// of every event of a list page) almost never.
const char* const kCountSql =
    "(COALESCE((SELECT SUM(tc.published) FROM term_counts tc WHERE tc.term_id = t.id), 0) + "
    "IF(EXISTS(SELECT 1 FROM posts de WHERE de.status = 'future' AND de.date_utc <= UTC_TIMESTAMP() AND "
    "de.type = 'event'), "
    "(SELECT COUNT(*) FROM posts ce STRAIGHT_JOIN term_relationships cr ON cr.event_id = ce.id AND "
    "cr.term_id = t.id "
    "WHERE ce.status = 'future' AND ce.date_utc <= UTC_TIMESTAMP() AND ce.type = 'event'), 0))";

std::optional<long long> single_id(Rows rows) {
  if (!rows.next()) return std::nullopt;
  return rows.integer(0);
}

// Another term of the taxonomy with this name at this level (collation-equal, like the key).
// Holder lookups are locking reads: they see the row a concurrent writer just committed, which a
// snapshot read inside the transaction would miss.
std::optional<long long> name_holder(Db& db, const Term& term) {
  return single_id(db.query(
      "SELECT id FROM terms WHERE taxonomy = ? AND parent = ? AND name_lower = LOWER(?) AND id <> ? LIMIT 1 "
      "LOCK IN SHARE MODE",
      {std::string(taxonomy_name(term.taxonomy)), term.parent, term.name, term.id}));
}

std::optional<long long> slug_holder(Db& db, const Term& term) {
  return single_id(
      db.query("SELECT id FROM terms WHERE taxonomy = ? AND slug = ? AND id <> ? LIMIT 1 LOCK IN SHARE MODE",
               {std::string(taxonomy_name(term.taxonomy)), term.slug, term.id}));
}

// Runs `write` until the unique keys accept it: a name taken at the level, or an explicit slug
// taken, throws TermExists; a generated slug moves on to the next candidate. The keys decide,
// so concurrent writers never both win.
template <typename Write>
void with_unique_term(Db& db, Term& term, bool slug_generated, Write write) {
  const std::string wanted = term.slug;
  int n = 1;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    term.slug = slug_with_suffix(wanted, n);  // within terms.slug's 200 bytes
    try {
      write();
      return;
    } catch (const DuplicateKey&) {
      if (const auto holder = name_holder(db, term)) throw TermExists{*holder};
      const auto holder = slug_holder(db, term);
      if (holder && !slug_generated) throw TermExists{*holder};
      if (holder && attempt == 0) {
        // Jump past the suffixes already taken, so a busy slug costs one retry.
        Rows rows = db.query("SELECT COUNT(*) FROM terms WHERE taxonomy = ? AND slug LIKE CONCAT(?, '%')",
                             {std::string(taxonomy_name(term.taxonomy)), wanted});
        n = static_cast<int>(std::max<long long>(n + 1, rows.next() ? rows.integer(0) + 1 : 2));
      } else if (holder) {
        ++n;
      }
      // No holder: a concurrent writer's row went away again; retry the same candidate.
    }
  }
  throw DuplicateKey{"no free term slug for " + wanted};
}

std::vector<SqlValue> id_args(std::vector<SqlValue> args, const std::vector<long long>& ids) {
  for (long long id : ids) args.emplace_back(id);
  return args;
}

const char* order_column(TermOrder order) {
  switch (order) {
    case TermOrder::kId:
      return "x.id";
    case TermOrder::kName:
      return "x.name_lower";
    case TermOrder::kSlug:
      return "x.slug";
    case TermOrder::kCount:
      return "x.cnt";
    case TermOrder::kParent:
      return "x.parent";
    case TermOrder::kDescription:
      return "x.description";
  }
  return "x.name_lower";
}

}  // namespace

std::string term_columns(bool with_count) {
  return std::string("t.id, t.taxonomy, t.name, t.slug, t.description, t.parent, ") +
         (with_count ? kCountSql : "0");
}

Term read_term(const Rows& rows, int first) {
  Term term;
  term.id = rows.integer(first);
  note_term_read(term.id);
  term.taxonomy =
      rows.text(first + 1) == taxonomy_name(Taxonomy::kTag) ? Taxonomy::kTag : Taxonomy::kCategory;
  term.name = rows.text(first + 2);
  term.slug = rows.text(first + 3);
  term.description = rows.text(first + 4);
  term.parent = rows.integer(first + 5);
  term.count = rows.integer(first + 6);
  return term;
}

std::vector<std::pair<long long, Term>> sort_event_terms(std::vector<std::pair<long long, Term>> out,
                                                         const std::vector<std::string>& sort_keys) {
  std::vector<std::size_t> order(out.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (out[a].first != out[b].first) return out[a].first < out[b].first;
    if (sort_keys[a] != sort_keys[b]) return sort_keys[a] < sort_keys[b];
    return out[a].second.id < out[b].second.id;
  });
  std::vector<std::pair<long long, Term>> sorted;
  sorted.reserve(out.size());
  for (std::size_t i : order) sorted.push_back(std::move(out[i]));
  return sorted;
}

const char* taxonomy_name(Taxonomy taxonomy) {
  return taxonomy == Taxonomy::kTag ? "post_tag" : "cal_events_cat";
}

std::vector<std::pair<long long, Term>> find_event_terms(Db& db, const std::vector<long long>& event_ids) {
  std::vector<std::pair<long long, Term>> out;
  if (event_ids.empty()) return out;
  // Sorted here, not by ORDER BY: sorting on columns of the joined table made MariaDB build a
  // temporary table, on disk because of the TEXT description, for every event read, even for no
  // rows. WEIGHT_STRING is the name's sort key in its column's collation, so
  // comparing it bytewise gives exactly the order ORDER BY t.name_lower would.
  Rows rows =
      db.query("SELECT r.event_id, " + term_columns() +
                   ", WEIGHT_STRING(t.name_lower) FROM term_relationships r JOIN terms t ON t.id = r.term_id "
                   "WHERE r.event_id IN (" +
                   placeholders(event_ids.size()) + ")",
               id_args({}, event_ids));
  std::vector<std::string> sort_keys;
  while (rows.next()) {
    out.emplace_back(rows.integer(0), read_term(rows, 1));
    sort_keys.push_back(rows.text(8));
  }
  return sort_event_terms(std::move(out), sort_keys);
}

void set_event_terms(Db& db, long long event_id, Taxonomy taxonomy, const std::vector<long long>& term_ids,
                     bool fresh) {
  const std::string tax = taxonomy_name(taxonomy);
  if (!fresh)
    db.execute(
        "DELETE r FROM term_relationships r JOIN terms t ON t.id = r.term_id WHERE r.event_id = ? AND "
        "t.taxonomy = ?",
        {event_id, tax});
  const std::set<long long> unique(term_ids.begin(), term_ids.end());
  if (unique.empty()) return;
  const std::vector<long long> ids(unique.begin(), unique.end());
  db.execute(
      "INSERT INTO term_relationships (event_id, term_id) SELECT ?, id FROM terms WHERE taxonomy = ? AND id "
      "IN (" +
          placeholders(ids.size()) + ")",
      id_args({event_id, tax}, ids));
}

std::optional<Term> find_term(Db& db, Taxonomy taxonomy, long long id) {
  Rows rows = db.query("SELECT " + term_columns() + " FROM terms t WHERE t.id = ? AND t.taxonomy = ?",
                       {id, std::string(taxonomy_name(taxonomy))});
  if (!rows.next()) return std::nullopt;
  return read_term(rows, 0);
}

std::vector<long long> existing_term_ids(Db& db, Taxonomy taxonomy, const std::vector<long long>& ids) {
  std::vector<long long> out;
  if (ids.empty()) return out;
  Rows rows = db.query("SELECT id FROM terms WHERE taxonomy = ? AND id IN (" + placeholders(ids.size()) + ")",
                       id_args({std::string(taxonomy_name(taxonomy))}, ids));
  while (rows.next()) out.push_back(rows.integer(0));
  return out;
}

std::vector<std::pair<long long, std::string>> find_term_ids_and_slugs(
    Db& db, Taxonomy taxonomy, const std::vector<long long>& ids, const std::vector<std::string>& slugs) {
  std::vector<std::pair<long long, std::string>> out;
  if (ids.empty() && slugs.empty()) return out;
  std::string sql = "SELECT id, slug FROM terms WHERE taxonomy = ? AND (";
  std::vector<SqlValue> args = id_args({std::string(taxonomy_name(taxonomy))}, ids);
  sql += ids.empty() ? "FALSE" : "id IN (" + placeholders(ids.size()) + ")";
  sql += slugs.empty() ? " OR FALSE)" : " OR slug IN (" + placeholders(slugs.size()) + "))";
  for (const auto& s : slugs) args.emplace_back(s);
  Rows rows = db.query(sql, args);
  while (rows.next()) out.emplace_back(rows.integer(0), rows.text(1));
  return out;
}

namespace {

// The term `item` names by id when `kept` keeps it as a term of `taxonomy`: by the rule of
// resolve_term_refs() the id wins over a slug, so nothing else needs looking up. 0 otherwise.
long long kept_term_id(LinkedRowKeeper* kept, Taxonomy taxonomy, const std::string& item) {
  const auto id = parse_id(item);
  if (!kept || !id) return 0;
  const std::shared_ptr<const KeptTerm> row = kept->term(*id);
  if (!row || row->term.taxonomy != taxonomy) return 0;
  note_term_read(*id);
  return *id;
}

}  // namespace

TermRefs resolve_term_refs(Db& db, Taxonomy taxonomy, const std::vector<std::string>& items,
                           LinkedRowKeeper* kept) {
  std::vector<long long> ids;
  std::vector<std::string> slugs;
  std::vector<std::pair<std::string, long long>> wanted;  // each item, with its kept term's id or 0
  for (const auto& raw : items) {
    const std::string item(ascii::trim(raw));
    if (item.empty()) continue;
    const long long kept_id = kept_term_id(kept, taxonomy, item);
    wanted.emplace_back(item, kept_id);
    if (kept_id != 0) continue;
    if (const auto id = parse_id(item)) ids.push_back(*id);
    slugs.push_back(item);  // a numeric item may also be a slug ("2024")
  }
  const auto found = find_term_ids_and_slugs(db, taxonomy, ids, slugs);
  TermRefs out;
  for (const auto& [item, kept_id] : wanted) {
    long long match = kept_id;
    if (const auto id = parse_id(item); match == 0 && id)
      for (const auto& [term_id, slug] : found)
        if (term_id == *id) match = *id;
    if (match == 0) {
      const std::string lower = ascii::lower(item);
      for (const auto& [term_id, slug] : found)
        if (ascii::lower(slug) == lower) match = term_id;
    }
    if (match == 0) {
      if (out.unknown.empty()) out.unknown = item;
    } else if (std::find(out.ids.begin(), out.ids.end(), match) == out.ids.end()) {
      out.ids.push_back(match);
    }
  }
  return out;
}

std::optional<long long> find_term_id_by_name(Db& db, Taxonomy taxonomy, std::string_view name) {
  return single_id(db.query(
      "SELECT id FROM terms WHERE taxonomy = ? AND name_lower = LOWER(?) ORDER BY parent <> 0, id LIMIT 1",
      {std::string(taxonomy_name(taxonomy)), std::string(name)}));
}

bool is_same_or_descendant(Db& db, long long term_id, long long ancestor_candidate) {
  // Walk up from term_id; the depth bound keeps a corrupt cycle from looping forever.
  Rows rows = db.query(
      "WITH RECURSIVE up (id, parent, depth) AS ("
      " SELECT id, parent, 0 FROM terms WHERE id = ?"
      " UNION ALL SELECT t.id, t.parent, up.depth + 1 FROM terms t JOIN up ON t.id = up.parent WHERE "
      "up.depth < 1000)"
      " SELECT 1 FROM up WHERE id = ? LIMIT 1",
      {term_id, ancestor_candidate});
  return rows.next();
}

void insert_term_row(Db& db, Term& term, bool slug_generated) {
  if (term.taxonomy == Taxonomy::kTag) term.parent = 0;
  term.id = 0;
  with_unique_term(db, term, slug_generated, [&] {
    db.execute(
        "INSERT INTO terms (taxonomy, name, slug, description, parent) VALUES (?, ?, ?, ?, ?)",
        {std::string(taxonomy_name(term.taxonomy)), term.name, term.slug, term.description, term.parent});
  });
  term.id = db.last_insert_id();
}

void update_term_row(Db& db, Term& term, bool slug_generated) {
  if (term.taxonomy == Taxonomy::kTag) term.parent = 0;
  with_unique_term(db, term, slug_generated, [&] {
    db.execute("UPDATE terms SET name = ?, slug = ?, description = ?, parent = ? WHERE id = ?",
               {term.name, term.slug, term.description, term.parent, term.id});
  });
}

void lock_term(Db& db, long long id) {
  Rows rows = db.query("SELECT id FROM terms WHERE id = ? FOR UPDATE", {id});
  while (rows.next()) {
  }
}

void delete_term_row(Db& db, const Term& term) {
  const std::string tax = taxonomy_name(term.taxonomy);
  db.execute("DELETE FROM terms WHERE id = ?", {term.id});  // relationships go by foreign key
  try {
    db.execute("UPDATE terms SET parent = ? WHERE taxonomy = ? AND parent = ?", {term.parent, tax, term.id});
  } catch (const DuplicateKey&) {
    const auto holder =
        single_id(db.query("SELECT s.id FROM terms c JOIN terms s ON s.taxonomy = c.taxonomy AND s.parent = "
                           "? AND s.name_lower = c.name_lower "
                           "WHERE c.taxonomy = ? AND c.parent = ? LIMIT 1 LOCK IN SHARE MODE",
                           {term.parent, tax, term.id}));
    throw TermExists{holder.value_or(0)};
  }
}

TermPage find_term_page(Db& db, const TermQuery& q) {
  note_list_read(ListFamily::kTerms);
  std::string where = "t.taxonomy = ?";
  std::vector<SqlValue> args{std::string(taxonomy_name(q.taxonomy))};
  if (!q.include.empty()) {
    where += " AND t.id IN (" + placeholders(q.include.size()) + ")";
    args = id_args(std::move(args), q.include);
  }
  if (!q.exclude.empty()) {
    where += " AND t.id NOT IN (" + placeholders(q.exclude.size()) + ")";
    args = id_args(std::move(args), q.exclude);
  }
  if (q.parent) {
    where += " AND t.parent = ?";
    args.emplace_back(*q.parent);
  }
  if (q.event_id) {
    where += " AND t.id IN (SELECT term_id FROM term_relationships WHERE event_id = ?)";
    args.emplace_back(*q.event_id);
  }
  if (!q.slug.empty()) {
    where += " AND t.slug = ?";
    args.emplace_back(q.slug);
  }
  if (q.modified.after) {
    where += " AND t.modified_utc > ?";
    args.emplace_back(format_date_time(to_utc_date_time(*q.modified.after)));
  }
  if (q.modified.before) {
    where += " AND t.modified_utc < ?";
    args.emplace_back(format_date_time(to_utc_date_time(*q.modified.before)));
  }
  if (!q.search.empty()) {
    where += " AND (t.name LIKE ? ESCAPE '!' OR t.slug LIKE ? ESCAPE '!')";
    const std::string pattern = like_contains(q.search);
    args.emplace_back(pattern);
    args.emplace_back(pattern);
  }
  const std::string filtered =
      "(SELECT t.id, t.taxonomy, t.name, t.name_lower, t.slug, t.description, t.parent, " +
      std::string(kCountSql) + " AS cnt FROM terms t WHERE " + where + ") x" +
      (q.hide_empty ? " WHERE x.cnt > 0" : "");
  const char* dir = q.descending ? " DESC" : " ASC";

  TermPage page;
  std::vector<SqlValue> page_args = args;
  page_args.emplace_back(q.limit);
  page_args.emplace_back(q.offset);
  Rows rows = db.query(
      "SELECT x.id, x.taxonomy, x.name, x.slug, x.description, x.parent, x.cnt, COUNT(*) OVER () FROM " +
          filtered + " ORDER BY " + order_column(q.order_by) + dir + ", x.id" + dir + " LIMIT ? OFFSET ?",
      page_args);
  while (rows.next()) {
    page.terms.push_back(read_term(rows, 0));
    page.total = rows.integer(7);
  }
  if (page.terms.empty() && q.offset > 0) {
    // Past the end: the window count had no row to ride on.
    Rows count = db.query("SELECT COUNT(*) FROM " + filtered, args);
    page.total = count.next() ? count.integer(0) : 0;
  }
  return page;
}

}  // namespace cal
