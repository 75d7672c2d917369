// The handlers' clock and site zone (see cal/api/posts/site_time.h).
#include "cal/api/posts/site_time.h"

#include "cal/core/dates/clock_use.h"

namespace cal {

Seconds now_seconds() {
  note_clock_use();  // the answer depends on the time: the response cache keeps it one second only
  return unmarked_now();
}

TimeZone site_zone(const RequestContext& ctx) {
  return TimeZone::find(ctx.config.site.timezone).value_or(TimeZone::utc());
}

}  // namespace cal
