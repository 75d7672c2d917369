// The statements behind the relations of events (see cal/store/event_relations.h). Each kind of
// row is a part: its own select list, FROM and WHERE (with the events' IN list), and reader.
#include "cal/store/event_relations.h"

#include "store/event_rows.h"
#include "store/linked_rows.h"
#include "store/term_rows.h"

#include <algorithm>
#include <functional>
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

// The relations of `event_ids`; `events`, when given, are those events (their venue and image ids
// are then known).
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
EventRelationRows relations_of(Db& db, const std::vector<long long>& event_ids,
                               const std::vector<Event>* events, const RelationParts& wanted) {
  EventRelationRows out;
  if (event_ids.empty()) return out;

  struct Link {
    long long event_id, position, organizer_id;
  };
  std::vector<Link> links;
  std::vector<std::pair<long long, long long>> term_links;            // (event, term)
  std::unordered_map<long long, std::pair<Term, std::string>> terms;  // by id, with the sort key
  std::set<long long> images_seen;
  auto add_image = [&](const Rows& rows, int column) {
    if (!rows.is_null(column) && images_seen.insert(rows.integer(column)).second)
      out.images.push_back(read_image(rows, column));
  };
  const std::string image_columns = wanted.images ? kImageColumns : "NULL, NULL";
  const std::string image_join = wanted.images ? kImageJoin : "";

  std::vector<Part> parts;
  if (wanted.events)
    parts.push_back({"e", event_columns(), kEventColumnCount,
                     std::string(kEventFrom) + " WHERE p.type = 'event' AND p.id @IN",
                     [&](const Rows& rows, int first) { out.events.push_back(read_event(rows, first)); }});
  // A link to a post that is no organizer is kept, as the links are (the record leaves it out).
  parts.push_back(
      {"l", "eo.event_id, eo.position, eo.organizer_id", 3, " FROM event_organizers eo WHERE eo.event_id @IN",
       [&](const Rows& rows, int first) {
         links.push_back(Link{rows.integer(first), rows.integer(first + 1), rows.integer(first + 2)});
       }});
  // Venues, organizers and terms by the events' links (a semi-join), or by ids known already.
  const std::string organizers = " FROM posts p LEFT JOIN organizer_details d ON d.organizer_id = p.id" +
                                 image_join + " WHERE p.type = 'organizer' AND p.id ";
  const std::string venues = " FROM posts p LEFT JOIN venue_details d ON d.venue_id = p.id" + image_join +
                             " WHERE p.type = 'venue' AND p.id ";
  const std::string taxonomy = wanted.tags ? "" : " AND t.taxonomy = 'cal_events_cat'";
  parts.push_back({"o", std::string(kPostColumns) + ", " + kOrganizerDetailColumns + ", " + image_columns,
                   kPostColumnCount + kOrganizerDetailColumnCount + 2,
                   organizers + "IN (SELECT eo.organizer_id FROM event_organizers eo WHERE eo.event_id @IN)",
                   [&](const Rows& rows, int first) {
                     out.organizers.push_back(Organizer{
                         read_post_row(rows, first), read_organizer_details(rows, first + kPostColumnCount)});
                     add_image(rows, first + kPostColumnCount + kOrganizerDetailColumnCount);
                   },
                   [&] { return distinct_ids(links, [](const Link& l) { return l.organizer_id; }); },
                   organizers + "@IN"});
  parts.push_back({"v", std::string(kPostColumns) + ", " + kVenueDetailColumns + ", " + image_columns,
                   kPostColumnCount + kVenueDetailColumnCount + 2,
                   venues + "IN (SELECT ev.venue_id FROM event_venues ev WHERE ev.event_id @IN)",
                   [&](const Rows& rows, int first) {
                     out.venues.push_back(Venue{read_post_row(rows, first),
                                                read_venue_details(rows, first + kPostColumnCount)});
                     add_image(rows, first + kPostColumnCount + kVenueDetailColumnCount);
                   }});
  if (events) {
    parts.back().ids = [&] { return distinct_ids(*events, [](const Event& e) { return e.venue_id; }); };
    parts.back().by_ids = venues + "@IN";
  }
  parts.push_back({"r", "r.event_id, r.term_id", 2, " FROM term_relationships r WHERE r.event_id @IN",
                   [&](const Rows& rows, int first) {
                     term_links.emplace_back(rows.integer(first), rows.integer(first + 1));
                   }});
  // Sorted below, not by ORDER BY (see find_event_terms in terms.cpp).
  parts.push_back(
      {"t", term_columns(wanted.term_counts) + ", WEIGHT_STRING(t.name_lower)", kTermColumnCount + 1,
       " FROM terms t WHERE t.id IN (SELECT r.term_id FROM term_relationships r WHERE r.event_id @IN)" +
           taxonomy,
       [&](const Rows& rows, int first) {
         Term term = read_term(rows, first);
         const long long id = term.id;
         terms.emplace(id, std::make_pair(std::move(term), rows.text(first + kTermColumnCount)));
       },
       [&] {
         return distinct_ids(term_links, [](const std::pair<long long, long long>& l) { return l.second; });
       },
       " FROM terms t WHERE t.id @IN" + taxonomy});
  if (wanted.images) {
    parts.push_back({"i", kImageColumns, 2,
                     " FROM posts p JOIN attachment_details a ON a.attachment_id = p.image_id WHERE p.id @IN",
                     [&](const Rows& rows, int first) { add_image(rows, first); }});
    if (events) {
      parts.back().ids = [&] {
        return distinct_ids(*events, [](const Event& e) { return e.post.image_id; });
      };
      parts.back().by_ids = " FROM attachment_details a WHERE a.attachment_id @IN";
    }
  }

  // Appends the SELECT of `p` with `columns` over `from`, its IN lists of `ids`.
  auto statement = [](const Part& p, const std::string& columns, const std::string& from,
                      const std::vector<long long>& ids, std::string& sql, std::vector<SqlValue>& args) {
    const auto [text, lists] = with_in_lists(from, "IN (" + placeholders(ids.size()) + ")");
    sql += "SELECT '" + p.kind + "', " + columns + text;
    for (int i = 0; i < lists; ++i) args.insert(args.end(), ids.begin(), ids.end());
  };
  auto read_rows = [&](Rows rows, const std::function<const Part*(const std::string&)>& part_of, bool wide) {
    while (rows.next()) {
      const Part* p = part_of(rows.text(0));
      if (p) p->read(rows, wide ? p->first : 1);
    }
  };
  if (!wanted.per_part) {
    int total = 0;
    for (Part& p : parts) {
      p.first = 1 + total;
      total += p.width;
    }
    std::string sql;
    std::vector<SqlValue> args;
    for (const Part& p : parts) {
      if (!sql.empty()) sql += " UNION ALL ";
      const int before = p.first - 1;
      const std::string padded =
          (before ? nulls(before).substr(2) + ", " : "") + p.columns + nulls(total - before - p.width);
      statement(p, padded, p.from, event_ids, sql, args);
    }
    read_rows(
        db.query(sql, args),
        [&](const std::string& kind) -> const Part* {
          for (const Part& p : parts)
            if (p.kind == kind) return &p;
          return nullptr;
        },
        true);
  } else {
    for (const Part& p : parts) {
      std::string sql;
      std::vector<SqlValue> args;
      if (p.ids) {
        const std::vector<long long> ids = p.ids();
        if (ids.empty()) continue;
        statement(p, p.columns, p.by_ids, ids, sql, args);
      } else {
        statement(p, p.columns, p.from, event_ids, sql, args);
      }
      read_rows(
          db.query(sql, args), [&](const std::string&) { return &p; }, false);
    }
  }

  std::sort(links.begin(), links.end(), [](const Link& a, const Link& b) {
    return a.event_id != b.event_id ? a.event_id < b.event_id : a.position < b.position;
  });
  for (const Link& l : links) out.organizer_links.emplace_back(l.event_id, l.organizer_id);
  // A link to a term the statement did not read (a tag when tags are not wanted) names nothing.
  std::vector<std::string> term_keys;
  for (const auto& [event_id, term_id] : term_links) {
    const auto it = terms.find(term_id);
    if (it == terms.end()) continue;
    out.terms.emplace_back(event_id, it->second.first);
    term_keys.push_back(it->second.second);
  }
  out.terms = sort_event_terms(std::move(out.terms), term_keys);
  return out;
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

}  // namespace cal
