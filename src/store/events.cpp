// SQL of event details and venue/organizer links (see cal/store/events.h); the list query is in
// event_query.cpp.
#include "cal/store/events.h"

#include "store/event_rows.h"

#include <set>

namespace cal {

std::vector<Event> find_events(Db& db, const std::vector<long long>& ids) {
  std::vector<Event> out;
  if (ids.empty()) return out;
  std::vector<SqlValue> args(ids.begin(), ids.end());
  Rows rows = db.query(
      select_events() + " WHERE p.type = 'event' AND p.id IN (" + placeholders(ids.size()) + ")", args);
  while (rows.next()) out.push_back(read_event(rows));
  return out;
}

bool event_exists(Db& db, long long id) {
  Rows rows = db.query("SELECT 1 FROM posts WHERE id = ? AND type = 'event'", {id});
  return rows.next();
}

void save_event_details(Db& db, long long event_id, const EventDetails& d) {
  db.execute(
      "INSERT INTO event_details (event_id, start_local, end_local, start_utc, end_utc, timezone, all_day, "
      "cost, "
      "website, show_map, show_map_link, hide_from_listings, sticky, featured) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
      "ON DUPLICATE KEY UPDATE start_local = VALUES(start_local), end_local = VALUES(end_local), "
      "start_utc = VALUES(start_utc), end_utc = VALUES(end_utc), timezone = VALUES(timezone), "
      "all_day = VALUES(all_day), cost = VALUES(cost), website = VALUES(website), show_map = "
      "VALUES(show_map), "
      "show_map_link = VALUES(show_map_link), hide_from_listings = VALUES(hide_from_listings), "
      "sticky = VALUES(sticky), featured = VALUES(featured)",
      {event_id, d.start_local, d.end_local, d.start_utc, d.end_utc, d.timezone, d.all_day, d.cost, d.website,
       d.show_map, d.show_map_link, d.hide_from_listings, d.sticky, d.featured});
}

void set_event_venue(Db& db, long long event_id, long long venue_id) {
  if (venue_id == 0) {
    db.execute("DELETE FROM event_venues WHERE event_id = ?", {event_id});
    return;
  }
  db.execute(
      "INSERT INTO event_venues (event_id, venue_id) VALUES (?, ?) ON DUPLICATE KEY UPDATE venue_id = "
      "VALUES(venue_id)",
      {event_id, venue_id});
}

void set_event_organizers(Db& db, long long event_id, const std::vector<long long>& organizer_ids,
                          bool fresh) {
  if (!fresh) db.execute("DELETE FROM event_organizers WHERE event_id = ?", {event_id});
  std::set<long long> seen;
  std::vector<SqlValue> args;
  long long position = 0;
  for (long long id : organizer_ids) {
    if (!seen.insert(id).second) continue;
    args.emplace_back(event_id);
    args.emplace_back(id);
    args.emplace_back(position++);
  }
  if (args.empty()) return;
  std::string sql = "INSERT INTO event_organizers (event_id, organizer_id, position) VALUES ";
  for (long long i = 0; i < position; ++i) sql += i == 0 ? "(?, ?, ?)" : ", (?, ?, ?)";
  db.execute(sql, args);
}

std::vector<std::pair<long long, long long>> find_event_organizer_links(
    Db& db, const std::vector<long long>& event_ids) {
  std::vector<std::pair<long long, long long>> out;
  if (event_ids.empty()) return out;
  std::vector<SqlValue> args(event_ids.begin(), event_ids.end());
  Rows rows = db.query("SELECT event_id, organizer_id FROM event_organizers WHERE event_id IN (" +
                           placeholders(event_ids.size()) + ") ORDER BY event_id, position",
                       args);
  while (rows.next()) out.emplace_back(rows.integer(0), rows.integer(1));
  return out;
}

}  // namespace cal
