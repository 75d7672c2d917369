// The iCalendar UIDs of imported events (table event_ical_uids; docs/feeds.md): a second import of the
// same VEVENT updates the event made by the first instead of adding a twin.
#pragma once

#include "cal/store/db.h"

#include <optional>
#include <string_view>

namespace cal {

// The event or series imported under `uid`, if it still exists (deleting an event deletes its UID).
std::optional<long long> find_ical_uid_event(Db& db, std::string_view uid);

// Records that `uid` names event `event_id` (replacing what it named before).
void save_ical_uid(Db& db, std::string_view uid, long long event_id);

}  // namespace cal
