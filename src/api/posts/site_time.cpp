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

ModifiedBounds modified_bounds(const RequestContext& ctx) {
  ModifiedBounds b;
  const bool after = ctx.params.given(param::kModifiedAfter);
  const bool before = ctx.params.given(param::kModifiedBefore);
  if (!after && !before) return b;
  // A relative date ("-1 day") moves with the clock: the answer holds for this second only.
  const Seconds now = now_seconds();
  const TimeZone zone = site_zone(ctx);
  if (after)
    if (const auto d = parse_date(ctx.params.text(param::kModifiedAfter), zone, now)) b.after = d->instant;
  if (before)
    if (const auto d = parse_date(ctx.params.text(param::kModifiedBefore), zone, now)) b.before = d->instant;
  return b;
}

}  // namespace cal
