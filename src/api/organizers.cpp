// Organizers (SEED §4.4): registered, not built yet.
#include "cal/api/handlers.h"

namespace cal {

Response list_organizers(RequestContext& ctx) { return not_implemented(ctx); }
Response create_organizer(RequestContext& ctx) { return not_implemented(ctx); }
Response get_organizer(RequestContext& ctx) { return not_implemented(ctx); }
Response update_organizer(RequestContext& ctx) { return not_implemented(ctx); }
Response delete_organizer(RequestContext& ctx) { return not_implemented(ctx); }

}  // namespace cal
