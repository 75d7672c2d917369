// Table event_ical_uids (see cal/store/event_ical_uids.h). UIDs are any text of any length
// (RFC 5545), so the key is their SHA-256; the UID itself is kept for people reading the table.
#include "cal/store/event_ical_uids.h"

#include "cal/core/text/digest.h"

#include <string>

namespace cal {

std::optional<long long> find_ical_uid_event(Db& db, std::string_view uid) {
  Rows rows = db.query(
      "SELECT u.event_id FROM event_ical_uids u "
      "JOIN posts p ON p.id = u.event_id AND p.type IN ('event', 'series') "
      "WHERE u.uid_hash = ?",
      {sha256_bytes(uid)});
  if (!rows.next()) return std::nullopt;
  return rows.integer(0);
}

void save_ical_uid(Db& db, std::string_view uid, long long event_id) {
  db.execute(
      "INSERT INTO event_ical_uids (uid_hash, uid, event_id) VALUES (?, ?, ?) "
      "ON DUPLICATE KEY UPDATE uid = VALUES(uid), event_id = VALUES(event_id)",
      {sha256_bytes(uid), std::string(uid), event_id});
}

}  // namespace cal
