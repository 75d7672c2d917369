// The three post kinds (see cal/api/posts/post_kind.h).
#include "cal/api/posts/post_kind.h"

namespace cal {

const PostKind kEventKind{PostType::kEvent, "event", "events", "event", param::kTitle};
const PostKind kVenueKind{PostType::kVenue, "venue", "venues", "venue", param::kVenue};
const PostKind kOrganizerKind{PostType::kOrganizer, "organizer", "organizers", "organizer",
                              param::kOrganizer};

}  // namespace cal
