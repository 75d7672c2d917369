// The statements behind the relations of events (see cal/store/event_relations.h). Each kind of
// row is a part: its own select list, FROM and WHERE (with the events' IN list), and reader.
#include "cal/store/event_relations.h"

#include "store/event_rows.h"
#include "store/linked_rows.h"
#include "store/term_rows.h"
#include "cal/store/read_set.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

namespace cal {
namespace {

struct Part {
  std::string kind;     // the value of the kind column
  std::string columns;  // the select list
  int width;            // its number of columns
  std::string from;     // FROM ... WHERE ..., each "@IN" standing for the events' IN list
  std::function<void(const Rows&, int first)> read;
  // In narrow statements, when set: the ids the rows are read by instead (known before the part
  // runs), with `by_ids`'s "@IN" standing for their IN list; none, no statement.
  std::function<std::vector<long long>()> ids = nullptr;
  std::string by_ids = {};
  // Read by `ids` in the one statement too: they are known before it runs (a write's answer).
  bool known = false;
  int first = 0;  // where its columns start in the one statement's rows
};

template <typename T, typename Key>
std::vector<long long> distinct_ids(const std::vector<T>& rows, Key key) {
  std::set<long long> ids;
  for (const T& row : rows)
    if (const long long id = key(row); id > 0) ids.insert(id);
  return {ids.begin(), ids.end()};
}

// ", NULL" n times.
std::string nulls(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += ", NULL";
  return out;
}

// `from` with each "@IN" replaced by `in`, and the number of replacements.
std::pair<std::string, int> with_in_lists(const std::string& from, const std::string& in) {
  std::string out;
  int count = 0;
  std::size_t at = 0;
  for (std::size_t next; (next = from.find("@IN", at)) != std::string::npos; at = next + 3, ++count)
    out += from.substr(at, next - at) + in;
  return {out + from.substr(at), count};
}

// Appends the SELECT of `p` with `columns` over `from`, its IN lists of `ids`.
void append_select(const Part& p, const std::string& columns, const std::string& from,
                   const std::vector<long long>& ids, std::string& sql, std::vector<SqlValue>& args) {
  const auto [text, lists] = with_in_lists(from, "IN (" + placeholders(ids.size()) + ")");
  sql += "SELECT '" + p.kind + "', " + columns + text;
  for (int i = 0; i < lists; ++i) args.insert(args.end(), ids.begin(), ids.end());
}

// By default the parts go out as ONE statement (so a list page costs count + page + this), a
// UNION ALL in a common column layout: a kind column, then every part's columns side by side,
// each part filling its own range and NULLs the others' (so no column mixes types). With
// RelationParts::per_part (feeds, sync pages: hundreds of events), each part is a statement of
// its own columns only: MariaDB builds wide rows for the client slowly (ANALYZE: r_other_time),
// which for hundreds of events costs more than a few more round trips (docs/performance.md).
// The narrow statements run in turn, so the organizers and terms are read by the ids their links
// just gave, the venues and images by the events' own ids when the events are known: primary-key
// lookups instead of semi-joins that walk the events' links again.
//
// Links come once per event; the venues, organizers and terms they name once each, so a venue
// shared by many events is read and sent once.
class RelationReader {
 public:
  // `events`, when given, are the events of the ids read (their venue and image ids are then
  // known); `written`, when given, the links the write in progress set on them, so that what they
  // name is read by id and the links themselves not at all. The reader's parts refer to it: it is
  // neither copied nor moved.
  RelationReader(const std::vector<Event>* events, const RelationParts& wanted,
                 const WrittenLinks* written = nullptr);
  RelationReader(const RelationReader&) = delete;
  RelationReader& operator=(const RelationReader&) = delete;

  EventRelationRows read(Db& db, const std::vector<long long>& event_ids);

 private:
  struct Link {
    long long event_id, position, organizer_id;
  };
  struct TermLink {
    long long event_id, term_id;
    std::optional<Taxonomy> as;  // a written link: only to a term of this taxonomy
  };

  void add_written_links();
  void add_event_parts();
  void add_organizer_part();
  void add_venue_part();
  void add_term_parts();
  void add_image_part();
  // The image in the two columns at `column` (none when NULL), added to the answer once.
  std::optional<Image> add_image(const Rows& rows, int column);
  void add_image(const Image& image);
  using Running = std::vector<std::pair<Part*, std::vector<long long>>>;
  void read_as_one_statement(Db& db, const std::vector<long long>& event_ids);
  void run_as_one_statement(Db& db, Running& running, bool by_ids);
  void read_with_kept(Db& db, const std::vector<long long>& event_ids);
  bool use_kept_venue(long long id);
  bool use_kept_organizer(long long id);
  // A kept venue or organizer (its `record`) into `into`, with its image; false for none.
  template <typename Kept, typename Record>
  bool use_kept_post(const std::shared_ptr<const Kept>& row, Record Kept::*record, std::vector<Record>& into);
  bool use_kept_term(long long id);
  bool use_kept_image(long long id);
  void use_kept_image(const Image& image);
  void read_part_by_part(Db& db, const std::vector<long long>& event_ids);
  void order_links_and_terms();

  const std::vector<Event>* events_;
  const RelationParts& wanted_;
  const WrittenLinks* written_;
  LinkedRowKeeper* kept_;  // null: every linked row is read
  bool organizers_written_ = false, terms_written_ = false;
  const std::string image_columns_;
  const std::string image_join_;
  std::vector<Part> parts_;
  EventRelationRows out_;
  std::vector<Link> links_;
  std::vector<TermLink> term_links_;
  std::unordered_map<long long, std::pair<Term, std::string>> terms_;  // by id, with the sort key
  std::set<long long> images_seen_;
};

RelationReader::RelationReader(const std::vector<Event>* events, const RelationParts& wanted,
                               const WrittenLinks* written)
    : events_(events),
      wanted_(wanted),
      written_(written),
      kept_(wanted.kept && !wanted.per_part && wanted.images && wanted.tags && wanted.term_counts &&
                    !written && (events || wanted.events)
                ? wanted.kept
                : nullptr),
      image_columns_(wanted.images ? kImageColumns : "NULL, NULL"),
      image_join_(wanted.images ? kImageJoin : "") {
  add_written_links();
  add_event_parts();
  add_organizer_part();
  add_venue_part();
  add_term_parts();
  if (wanted_.images) add_image_part();
}

EventRelationRows RelationReader::read(Db& db, const std::vector<long long>& event_ids) {
  if (event_ids.empty()) return {};
  if (wanted_.per_part)
    read_part_by_part(db, event_ids);
  else if (kept_)
    read_with_kept(db, event_ids);
  else
    read_as_one_statement(db, event_ids);
  order_links_and_terms();
  return std::move(out_);
}

std::optional<Image> RelationReader::add_image(const Rows& rows, int column) {
  if (rows.is_null(column)) return std::nullopt;
  Image image = read_image(rows, column);
  add_image(image);
  return image;
}

void RelationReader::add_image(const Image& image) {
  if (images_seen_.insert(image.id).second) out_.images.push_back(image);
}

// The links a write set on its one event, as set_event_organizers() and set_event_terms() store
// them: each organizer once, in the given order; each term once per taxonomy. Terms count as
// written only when both taxonomies were: one link statement reads both.
void RelationReader::add_written_links() {
  if (!written_ || !events_ || events_->size() != 1) return;
  const long long event_id = events_->front().post.id;
  if (written_->organizer_ids) {
    organizers_written_ = true;
    std::set<long long> seen;
    for (long long id : *written_->organizer_ids)
      if (seen.insert(id).second) links_.push_back(Link{event_id, static_cast<long long>(links_.size()), id});
  }
  if (written_->category_ids && written_->tag_ids) {
    terms_written_ = true;
    for (const auto& [ids, taxonomy] : {std::pair{&*written_->category_ids, Taxonomy::kCategory},
                                        std::pair{&*written_->tag_ids, Taxonomy::kTag}}) {
      const std::set<long long> unique(ids->begin(), ids->end());
      for (long long id : unique) term_links_.push_back(TermLink{event_id, id, taxonomy});
    }
  }
}

// The events themselves (when wanted) and their organizer links.
void RelationReader::add_event_parts() {
  if (wanted_.events)
    parts_.push_back(
        {"e", event_columns(), kEventColumnCount,
         std::string(kEventFrom) + " WHERE p.type = 'event' AND p.id @IN",
         [this](const Rows& rows, int first) { out_.events.push_back(read_event(rows, first)); }});
  if (organizers_written_) return;
  // A link to a post that is no organizer is kept, as the links are (the record leaves it out).
  parts_.push_back(
      {"l", "eo.event_id, eo.position, eo.organizer_id", 3, " FROM event_organizers eo WHERE eo.event_id @IN",
       [this](const Rows& rows, int first) {
         links_.push_back(Link{rows.integer(first), rows.integer(first + 1), rows.integer(first + 2)});
       }});
}

// Venues, organizers and terms are read by the events' links (a semi-join), or by ids known already.
void RelationReader::add_organizer_part() {
  const std::string organizers = " FROM posts p LEFT JOIN organizer_details d ON d.organizer_id = p.id" +
                                 image_join_ + " WHERE p.type = 'organizer' AND p.id ";
  parts_.push_back(
      {"o", std::string(kPostColumns) + ", " + kOrganizerDetailColumns + ", " + image_columns_,
       kPostColumnCount + kOrganizerDetailColumnCount + 2,
       organizers + "IN (SELECT eo.organizer_id FROM event_organizers eo WHERE eo.event_id @IN)",
       [this](const Rows& rows, int first) {
         Organizer organizer{read_post_row(rows, first),
                             read_organizer_details(rows, first + kPostColumnCount)};
         std::optional<Image> image = add_image(rows, first + kPostColumnCount + kOrganizerDetailColumnCount);
         // A scheduled one reads as published once due: not kept, as its events' records are not.
         if (kept_ && organizer.post.status != "future")
           kept_->keep(std::make_shared<const KeptOrganizer>(KeptOrganizer{organizer, std::move(image)}));
         out_.organizers.push_back(std::move(organizer));
       },
       [this] { return distinct_ids(links_, [](const Link& l) { return l.organizer_id; }); },
       organizers + "@IN"});
  parts_.back().known = organizers_written_;
}

void RelationReader::add_venue_part() {
  const std::string venues = " FROM posts p LEFT JOIN venue_details d ON d.venue_id = p.id" + image_join_ +
                             " WHERE p.type = 'venue' AND p.id ";
  parts_.push_back(
      {"v", std::string(kPostColumns) + ", " + kVenueDetailColumns + ", " + image_columns_,
       kPostColumnCount + kVenueDetailColumnCount + 2,
       venues + "IN (SELECT ev.venue_id FROM event_venues ev WHERE ev.event_id @IN)",
       [this](const Rows& rows, int first) {
         Venue venue{read_post_row(rows, first), read_venue_details(rows, first + kPostColumnCount)};
         std::optional<Image> image = add_image(rows, first + kPostColumnCount + kVenueDetailColumnCount);
         if (kept_ && venue.post.status != "future")
           kept_->keep(std::make_shared<const KeptVenue>(KeptVenue{venue, std::move(image)}));
         out_.venues.push_back(std::move(venue));
       }});
  parts_.back().by_ids = venues + "@IN";
  if (events_) {
    parts_.back().ids = [this] { return distinct_ids(*events_, [](const Event& e) { return e.venue_id; }); };
    parts_.back().known = written_ != nullptr;
  }
}

// The term links, then the terms they name.
void RelationReader::add_term_parts() {
  const std::string taxonomy = wanted_.tags ? "" : " AND t.taxonomy = 'cal_events_cat'";
  if (!terms_written_)
    parts_.push_back({"r", "r.event_id, r.term_id", 2, " FROM term_relationships r WHERE r.event_id @IN",
                      [this](const Rows& rows, int first) {
                        term_links_.push_back(TermLink{rows.integer(first), rows.integer(first + 1), {}});
                      }});
  // Sorted below, not by ORDER BY (see find_event_terms in terms.cpp).
  parts_.push_back(
      {"t", term_columns(wanted_.term_counts) + ", WEIGHT_STRING(t.name_lower)", kTermColumnCount + 1,
       " FROM terms t WHERE t.id IN (SELECT r.term_id FROM term_relationships r WHERE r.event_id @IN)" +
           taxonomy,
       [this](const Rows& rows, int first) {
         Term term = read_term(rows, first);
         const long long id = term.id;
         std::string sort_key = rows.text(first + kTermColumnCount);
         if (kept_) kept_->keep(std::make_shared<const KeptTerm>(KeptTerm{term, sort_key}));
         terms_.emplace(id, std::make_pair(std::move(term), std::move(sort_key)));
       },
       [this] { return distinct_ids(term_links_, [](const TermLink& l) { return l.term_id; }); },
       " FROM terms t WHERE t.id @IN" + taxonomy});
  parts_.back().known = terms_written_;
}

void RelationReader::add_image_part() {
  parts_.push_back({"i", kImageColumns, 2,
                    " FROM posts p JOIN attachment_details a ON a.attachment_id = p.image_id WHERE p.id @IN",
                    [this](const Rows& rows, int first) {
                      std::optional<Image> image = add_image(rows, first);
                      if (kept_ && image) kept_->keep(std::make_shared<const Image>(*image));
                    }});
  parts_.back().by_ids = " FROM attachment_details a WHERE a.attachment_id @IN";
  if (events_) {
    parts_.back().ids = [this] {
      return distinct_ids(*events_, [](const Event& e) { return e.post.image_id; });
    };
    parts_.back().known = written_ != nullptr;
  }
}

void RelationReader::read_as_one_statement(Db& db, const std::vector<long long>& event_ids) {
  // The parts that run, with their IN lists: a part read by known ids runs only when it has some.
  Running running;
  for (Part& p : parts_) {
    std::vector<long long> ids = p.known ? p.ids() : event_ids;
    if (!ids.empty()) running.emplace_back(&p, std::move(ids));
  }
  run_as_one_statement(db, running, false);
}

// `running`'s parts as one UNION ALL, each with its IN list: of the events, or of the ids it is
// read by (all of them when `by_ids`; else those known before, Part::known).
void RelationReader::run_as_one_statement(Db& db, Running& running, bool by_ids) {
  if (running.empty()) return;
  int total = 0;
  for (auto& [p, ids] : running) {
    p->first = 1 + total;
    total += p->width;
  }
  std::string sql;
  std::vector<SqlValue> args;
  for (const auto& [p, ids] : running) {
    if (!sql.empty()) sql += " UNION ALL ";
    const int before = p->first - 1;
    const std::string padded =
        (before ? nulls(before).substr(2) + ", " : "") + p->columns + nulls(total - before - p->width);
    append_select(*p, padded, by_ids || p->known ? p->by_ids : p->from, ids, sql, args);
  }
  Rows rows = db.query(sql, args);
  while (rows.next()) {
    const std::string kind = rows.text(0);
    for (const auto& running_part : running)
      if (const Part& p = *running_part.first; p.kind == kind) {
        p.read(rows, p.first);
        break;
      }
  }
}

// With kept rows: the events (when asked for) and their links in one statement, then, in a
// second one and only when some are not kept, the venues, organizers, terms and images they name,
// by id.
void RelationReader::read_with_kept(Db& db, const std::vector<long long>& event_ids) {
  Running running;
  for (Part& p : parts_)
    if (p.kind == "e" || p.kind == "l" || p.kind == "r") running.emplace_back(&p, event_ids);
  run_as_one_statement(db, running, false);
  const std::vector<Event>& events = events_ ? *events_ : out_.events;
  std::map<std::string, std::vector<long long>> missing;
  for (long long id : distinct_ids(events, [](const Event& e) { return e.venue_id; }))
    if (!use_kept_venue(id)) missing["v"].push_back(id);
  for (long long id : distinct_ids(links_, [](const Link& l) { return l.organizer_id; }))
    if (!use_kept_organizer(id)) missing["o"].push_back(id);
  for (long long id : distinct_ids(term_links_, [](const TermLink& l) { return l.term_id; }))
    if (!use_kept_term(id)) missing["t"].push_back(id);
  for (long long id : distinct_ids(events, [](const Event& e) { return e.post.image_id; }))
    if (!use_kept_image(id)) missing["i"].push_back(id);
  running.clear();
  for (Part& p : parts_)
    if (auto it = missing.find(p.kind); it != missing.end()) running.emplace_back(&p, std::move(it->second));
  run_as_one_statement(db, running, true);
}

bool RelationReader::use_kept_venue(long long id) {
  return use_kept_post(kept_->venue(id), &KeptVenue::venue, out_.venues);
}

bool RelationReader::use_kept_organizer(long long id) {
  return use_kept_post(kept_->organizer(id), &KeptOrganizer::organizer, out_.organizers);
}

template <typename Kept, typename Record>
bool RelationReader::use_kept_post(const std::shared_ptr<const Kept>& row, Record Kept::*record,
                                   std::vector<Record>& into) {
  if (!row) return false;
  const Record& kept = (*row).*record;
  note_post_read(kept.post.id);
  into.push_back(kept);
  if (row->image) use_kept_image(*row->image);
  return true;
}

bool RelationReader::use_kept_term(long long id) {
  const std::shared_ptr<const KeptTerm> row = kept_->term(id);
  if (!row) return false;
  note_term_read(row->term.id);
  terms_.emplace(id, std::make_pair(row->term, row->sort_key));
  return true;
}

bool RelationReader::use_kept_image(long long id) {
  const std::shared_ptr<const Image> row = kept_->image(id);
  if (!row) return false;
  use_kept_image(*row);
  return true;
}

void RelationReader::use_kept_image(const Image& image) {
  note_post_read(image.id);
  add_image(image);
}

void RelationReader::read_part_by_part(Db& db, const std::vector<long long>& event_ids) {
  for (const Part& p : parts_) {
    std::string sql;
    std::vector<SqlValue> args;
    if (p.ids) {
      const std::vector<long long> ids = p.ids();
      if (ids.empty()) continue;
      append_select(p, p.columns, p.by_ids, ids, sql, args);
    } else {
      append_select(p, p.columns, p.from, event_ids, sql, args);
    }
    Rows rows = db.query(sql, args);
    while (rows.next()) p.read(rows, 1);
  }
}

// Organizer links by event, then position; terms by event, then name.
void RelationReader::order_links_and_terms() {
  std::sort(links_.begin(), links_.end(), [](const Link& a, const Link& b) {
    return a.event_id != b.event_id ? a.event_id < b.event_id : a.position < b.position;
  });
  for (const Link& l : links_) out_.organizer_links.emplace_back(l.event_id, l.organizer_id);
  // A link to a term the statement did not read (a tag when tags are not wanted) names nothing,
  // nor does a written one to a term of the other taxonomy.
  std::vector<std::string> term_keys;
  for (const TermLink& l : term_links_) {
    const auto it = terms_.find(l.term_id);
    if (it == terms_.end() || (l.as && *l.as != it->second.first.taxonomy)) continue;
    out_.terms.emplace_back(l.event_id, it->second.first);
    term_keys.push_back(it->second.second);
  }
  out_.terms = sort_event_terms(std::move(out_.terms), term_keys);
}

EventRelationRows relations_of(Db& db, const std::vector<long long>& event_ids,
                               const std::vector<Event>* events, const RelationParts& wanted,
                               const WrittenLinks* written = nullptr) {
  RelationReader reader(events, wanted, written);
  return reader.read(db, event_ids);
}

}  // namespace

EventRelationRows find_event_relations(Db& db, const std::vector<long long>& event_ids,
                                       const RelationParts& parts) {
  return relations_of(db, event_ids, nullptr, parts);
}

EventRelationRows find_event_relations(Db& db, const std::vector<Event>& events, const RelationParts& parts) {
  std::vector<long long> ids;
  ids.reserve(events.size());
  for (const Event& e : events) ids.push_back(e.post.id);
  return relations_of(db, ids, &events, parts);
}

std::vector<KeptTerm> find_kept_terms(Db& db, const std::vector<long long>& ids) {
  std::vector<KeptTerm> out;
  if (ids.empty()) return out;
  Rows rows =
      db.query("SELECT " + term_columns() + ", WEIGHT_STRING(t.name_lower) FROM terms t WHERE t.id IN (" +
                   placeholders(ids.size()) + ")",
               std::vector<SqlValue>(ids.begin(), ids.end()));
  while (rows.next()) out.push_back(KeptTerm{read_term(rows, 0), rows.text(kTermColumnCount)});
  return out;
}

EventRelationRows find_written_event_relations(Db& db, const Event& event, const WrittenLinks& links) {
  const std::vector<Event> events{event};
  const RelationParts parts;
  return relations_of(db, {event.post.id}, &events, parts, &links);
}

}  // namespace cal
