// Organizers (SEED §4.4): the handlers of the route table, served by the shared linked-resource
// code with the organizer type (see cal/api/linked_resource.h).
#include "cal/api/pipeline/handlers.h"
#include "cal/api/linked/linked_resource.h"

namespace cal {

Response list_organizers(RequestContext& ctx) { return list_linked(ctx, kOrganizerType); }
Response create_organizer(RequestContext& ctx) { return create_linked(ctx, kOrganizerType); }
Response get_organizer(RequestContext& ctx) { return get_linked(ctx, kOrganizerType); }
Response update_organizer(RequestContext& ctx) { return update_linked(ctx, kOrganizerType); }
Response delete_organizer(RequestContext& ctx) { return delete_linked(ctx, kOrganizerType); }

}  // namespace cal
