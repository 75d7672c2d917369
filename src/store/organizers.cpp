// SQL of organizer details and of event links seen from organizers (see cal/store/organizers.h).
#include "cal/store/organizers.h"

#include "store/linked_rows.h"

namespace cal {

const char* const kOrganizerDetailColumns = "d.phone, d.website, d.email";

OrganizerDetails read_organizer_details(const Rows& rows, int c) {
  OrganizerDetails d;
  d.phone = rows.text(c);
  d.website = rows.text(c + 1);
  d.email = rows.text(c + 2);
  return d;
}

std::vector<Organizer> find_organizers(Db& db, const std::vector<long long>& ids,
                                       std::vector<Image>* images) {
  std::vector<Organizer> out;
  if (ids.empty()) return out;
  std::vector<SqlValue> args(ids.begin(), ids.end());
  Rows rows = db.query(std::string("SELECT ") + kPostColumns + ", " + kOrganizerDetailColumns +
                           (images ? std::string(", ") + kImageColumns : std::string()) +
                           " FROM posts p LEFT JOIN organizer_details d ON d.organizer_id = p.id" +
                           (images ? kImageJoin : "") + " WHERE p.type = 'organizer' AND p.id IN (" +
                           placeholders(ids.size()) + ")",
                       args);
  constexpr int c = kPostColumnCount;
  constexpr int image = c + kOrganizerDetailColumnCount;
  while (rows.next()) {
    Organizer o;
    o.post = read_post_row(rows);
    o.details = read_organizer_details(rows, c);
    if (images && !rows.is_null(image)) images->push_back(read_image(rows, image));
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
