// iCalendar feeds of the events (docs/feeds.md): `GET /events?ical=1&<any list filter>` and
// `GET /events/{id}?ical=1` (or by slug), or the same with `Accept: text/calendar`, answer
// `text/calendar` (RFC 5545, written by libical) with exactly the events the JSON answer has.
// The route table binds these handlers to the event routes; they hand JSON requests to the
// events module's own handlers.
#pragma once

#include "cal/api/pipeline/context.h"

namespace cal {

// Whether the request asks for iCalendar: `ical` when given (true or false), else an Accept
// header that prefers text/calendar (cal/http/accept.h).
bool wants_ical(const RequestContext& ctx);

// GET /events: the feed, or the JSON list. Without page and per_page the feed has the first
// [ical] max_events events (X-WP-Total tells how many match); with either, that page, as JSON.
Response list_events_negotiated(RequestContext& ctx);

// GET /events/{id} and /events/by-slug/{slug}: one event as a calendar, or as JSON. The same
// 403/404 answers as JSON (a protected event needs its password).
Response get_event_negotiated(RequestContext& ctx);

}  // namespace cal
