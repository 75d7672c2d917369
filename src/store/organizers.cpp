// SQL of organizer details and of event links seen from organizers (see cal/store/organizers.h).
#include "cal/store/organizers.h"

namespace cal {

std::vector<Organizer> find_organizers(Db& db, const std::vector<long long>& ids) {
  std::vector<Organizer> out;
  if (ids.empty()) return out;
  std::vector<SqlValue> args(ids.begin(), ids.end());
  Rows rows = db.query(std::string("SELECT ") + kPostColumns +
                           ", d.phone, d.website, d.email "
                           "FROM posts p LEFT JOIN organizer_details d ON d.organizer_id = p.id "
                           "WHERE p.type = 'organizer' AND p.id IN (" +
                           placeholders(ids.size()) + ")",
                       args);
  constexpr int c = kPostColumnCount;
  while (rows.next()) {
    Organizer o;
    o.post = read_post_row(rows);
    o.details.phone = rows.text(c);
    o.details.website = rows.text(c + 1);
    o.details.email = rows.text(c + 2);
    out.push_back(std::move(o));
  }
  return out;
}

void save_organizer_details(Db& db, long long organizer_id, const OrganizerDetails& d) {
  db.execute(
      "INSERT INTO organizer_details (organizer_id, phone, website, email) VALUES (?, ?, ?, ?) "
      "ON DUPLICATE KEY UPDATE phone = VALUES(phone), website = VALUES(website), email = VALUES(email)",
      {organizer_id, d.phone, d.website, d.email});
}

void unlink_organizer_from_events(Db& db, long long organizer_id) {
  db.execute("DELETE FROM event_organizers WHERE organizer_id = ?", {organizer_id});
}

}  // namespace cal
