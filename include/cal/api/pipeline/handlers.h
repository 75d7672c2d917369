// The route handlers that are functions of their own: the namespace index
// (src/api/discovery/root_index.cpp), the OpenAPI document (src/api/discovery/openapi.cpp) and
// the events (src/api/events/events.cpp, event_writes.cpp) and the changes
// (src/api/sync/changes.cpp). Venues, organizers,
// categories and tags have no handler functions: the route table (src/api/pipeline/routes.cpp)
// binds the shared operations of cal/api/linked/linked_resource.h and
// cal/api/terms/term_resource.h to each record type or taxonomy.
#pragma once

#include "cal/api/pipeline/context.h"

namespace cal {

// Namespace index (docs/api.md §8.1) and OpenAPI document (docs/api.md §8.2).
Response get_namespace_index(RequestContext& ctx);
Response get_root_index(RequestContext& ctx);
Response get_openapi_document(RequestContext& ctx);

// Events (docs/api.md §10).
Response list_events(RequestContext& ctx);
// GET /events/{id}/occurrences: the occurrences of a recurring series (docs/recurring-events.md).
Response list_occurrences(RequestContext& ctx);
Response create_event(RequestContext& ctx);
Response get_event(RequestContext& ctx);
Response update_event(RequestContext& ctx);
Response delete_event(RequestContext& ctx);
// POST /events with a text/calendar body: every VEVENT imported (src/api/ical/ical_import.cpp).
Response import_events_ical(RequestContext& ctx);

// Incremental sync (docs/sync.md, src/api/sync/changes.cpp): GET /changes.
Response list_changes(RequestContext& ctx);

}  // namespace cal
