// The one statement behind the relations of events (see cal/store/event_relations.h): a UNION ALL
// of one SELECT per kind of row, tagged by a kind column, in a common column layout where each
// kind fills its own range of columns and NULLs the others (so no column mixes types):
//
//   [0, E)          the event (kind 'e'): event_columns(), read by read_event()
//   E + 0           kind: 'e' event, 'o' organizer link + organizer, 'v' venue, 't' term, 'i' image
//   E + 1 .. E + 3  event id ('o', 'v', 't', 'i'), link position and organizer id ('o')
//   E + 4 ..        post columns of the venue or organizer ('v', 'o'; NULL for a link to no organizer)
//   ..              venue details ('v'), organizer details ('o')
//   ..              image id and URL: the venue's or organizer's image ('v', 'o'), the event's ('i')
//   ..              term columns and the sort key of its name ('t')
//
// Venues and organizers come once per event linking them and are kept once here.
#include "cal/store/event_relations.h"

#include "store/event_rows.h"
#include "store/linked_rows.h"
#include "store/term_rows.h"

#include <algorithm>
#include <set>

namespace cal {
namespace {

constexpr int kKind = kEventColumnCount;
constexpr int kEventId = kKind + 1;
constexpr int kPosition = kKind + 2;
constexpr int kLinked = kKind + 3;
constexpr int kPost = kKind + 4;
constexpr int kVenueDetails = kPost + kPostColumnCount;
constexpr int kOrganizerDetails = kVenueDetails + kVenueDetailColumnCount;
constexpr int kImage = kOrganizerDetails + kOrganizerDetailColumnCount;
constexpr int kTerm = kImage + 2;
constexpr int kTermSortKey = kTerm + kTermColumnCount;

// ", NULL" n times.
std::string nulls(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += ", NULL";
  return out;
}

// The NULL columns before the kind column, for the rows that are no event.
std::string no_event() { return "SELECT NULL" + nulls(kEventColumnCount - 1); }

}  // namespace

EventRelationRows find_event_relations(Db& db, const std::vector<long long>& event_ids, bool with_events) {
  EventRelationRows out;
  if (event_ids.empty()) return out;
  const std::string in = " IN (" + placeholders(event_ids.size()) + ")";
  std::vector<std::string> parts;
  if (with_events) {
    parts.push_back("SELECT " + event_columns() + ", 'e'" + nulls(kTermSortKey - kKind) + kEventFrom +
                    " WHERE p.type = 'event' AND p.id" + in);
  }
  parts.push_back(
      no_event() + ", 'o', eo.event_id, eo.position, eo.organizer_id, " + kPostColumns +
      nulls(kVenueDetailColumnCount) + ", " + kOrganizerDetailColumns + ", " + kImageColumns +
      nulls(kTermColumnCount + 1) +
      " FROM event_organizers eo LEFT JOIN posts p ON p.id = eo.organizer_id AND p.type = 'organizer'"
      " LEFT JOIN organizer_details d ON d.organizer_id = p.id" +
      kImageJoin + " WHERE eo.event_id" + in);
  parts.push_back(no_event() + ", 'v', ev.event_id, NULL, NULL, " + kPostColumns + ", " +
                  kVenueDetailColumns + nulls(kOrganizerDetailColumnCount) + ", " + kImageColumns +
                  nulls(kTermColumnCount + 1) +
                  " FROM event_venues ev JOIN posts p ON p.id = ev.venue_id AND p.type = 'venue'"
                  " LEFT JOIN venue_details d ON d.venue_id = p.id" +
                  kImageJoin + " WHERE ev.event_id" + in);
  // Sorted below, not by ORDER BY (see find_event_terms in terms.cpp).
  parts.push_back(no_event() + ", 't', r.event_id, NULL, NULL" +
                  nulls(kPostColumnCount + kVenueDetailColumnCount + kOrganizerDetailColumnCount + 2) + ", " +
                  term_columns() + ", WEIGHT_STRING(t.name_lower)" +
                  " FROM term_relationships r JOIN terms t ON t.id = r.term_id WHERE r.event_id" + in);
  parts.push_back(no_event() + ", 'i', p.id, NULL, NULL" +
                  nulls(kPostColumnCount + kVenueDetailColumnCount + kOrganizerDetailColumnCount) + ", " +
                  kImageColumns + nulls(kTermColumnCount + 1) +
                  " FROM posts p JOIN attachment_details a ON a.attachment_id = p.image_id WHERE p.id" + in);
  std::string sql;
  std::vector<SqlValue> args;
  for (const std::string& part : parts) {
    sql += sql.empty() ? part : " UNION ALL " + part;
    args.insert(args.end(), event_ids.begin(), event_ids.end());
  }

  Rows rows = db.query(sql, args);
  struct Link {
    long long event_id, position, organizer_id;
  };
  std::vector<Link> links;
  std::set<long long> venues_seen, organizers_seen, images_seen;
  std::vector<std::string> term_keys;
  auto add_image = [&](int column) {
    if (!rows.is_null(column) && images_seen.insert(rows.integer(column)).second)
      out.images.push_back(read_image(rows, column));
  };
  while (rows.next()) {
    const std::string kind = rows.text(kKind);
    if (kind == "e") {
      out.events.push_back(read_event(rows));
    } else if (kind == "o") {
      // A link to a post that is no organizer is kept, as the links are (the record leaves it out).
      links.push_back(Link{rows.integer(kEventId), rows.integer(kPosition), rows.integer(kLinked)});
      if (rows.is_null(kPost)) continue;
      if (organizers_seen.insert(rows.integer(kPost)).second)
        out.organizers.push_back(
            Organizer{read_post_row(rows, kPost), read_organizer_details(rows, kOrganizerDetails)});
      add_image(kImage);
    } else if (kind == "v") {
      if (venues_seen.insert(rows.integer(kPost)).second)
        out.venues.push_back(Venue{read_post_row(rows, kPost), read_venue_details(rows, kVenueDetails)});
      add_image(kImage);
    } else if (kind == "t") {
      out.terms.emplace_back(rows.integer(kEventId), read_term(rows, kTerm));
      term_keys.push_back(rows.text(kTermSortKey));
    } else if (kind == "i") {
      add_image(kImage);
    }
  }
  std::sort(links.begin(), links.end(), [](const Link& a, const Link& b) {
    return a.event_id != b.event_id ? a.event_id < b.event_id : a.position < b.position;
  });
  for (const Link& l : links) out.organizer_links.emplace_back(l.event_id, l.organizer_id);
  out.terms = sort_event_terms(std::move(out.terms), term_keys);
  return out;
}

}  // namespace cal
