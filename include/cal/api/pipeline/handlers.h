// Every handler the route table names, grouped by resource. Each is implemented in its
// resource's file under src/api/ (events.cpp, venues.cpp, organizers.cpp, terms.cpp,
// root_index.cpp, openapi.cpp).
#pragma once

#include "cal/api/pipeline/context.h"

namespace cal {

// Namespace index (SPEC §8.1) and OpenAPI document (SPEC §8.2).
Response get_namespace_index(RequestContext& ctx);
Response get_openapi_document(RequestContext& ctx);

// Events (SEED §4.2).
Response list_events(RequestContext& ctx);
Response create_event(RequestContext& ctx);
Response get_event(RequestContext& ctx);
Response update_event(RequestContext& ctx);
Response delete_event(RequestContext& ctx);

// Venues and organizers (SEED §4.3, §4.4).
Response list_venues(RequestContext& ctx);
Response create_venue(RequestContext& ctx);
Response get_venue(RequestContext& ctx);
Response update_venue(RequestContext& ctx);
Response delete_venue(RequestContext& ctx);
Response list_organizers(RequestContext& ctx);
Response create_organizer(RequestContext& ctx);
Response get_organizer(RequestContext& ctx);
Response update_organizer(RequestContext& ctx);
Response delete_organizer(RequestContext& ctx);

// Categories and tags (SEED §4.5, §4.6).
Response list_categories(RequestContext& ctx);
Response create_category(RequestContext& ctx);
Response get_category(RequestContext& ctx);
Response update_category(RequestContext& ctx);
Response delete_category(RequestContext& ctx);
Response list_tags(RequestContext& ctx);
Response create_tag(RequestContext& ctx);
Response get_tag(RequestContext& ctx);
Response update_tag(RequestContext& ctx);
Response delete_tag(RequestContext& ctx);

}  // namespace cal
