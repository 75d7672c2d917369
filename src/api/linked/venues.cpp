// Venues (SEED §4.3): the handlers of the route table, served by the shared linked-resource code
// with the venue type (see cal/api/linked_resource.h).
#include "cal/api/pipeline/handlers.h"
#include "cal/api/linked/linked_resource.h"

namespace cal {

Response list_venues(RequestContext& ctx) { return list_linked(ctx, kVenueType); }
Response create_venue(RequestContext& ctx) { return create_linked(ctx, kVenueType); }
Response get_venue(RequestContext& ctx) { return get_linked(ctx, kVenueType); }
Response update_venue(RequestContext& ctx) { return update_linked(ctx, kVenueType); }
Response delete_venue(RequestContext& ctx) { return delete_linked(ctx, kVenueType); }

}  // namespace cal
