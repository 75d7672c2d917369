// Venues (SEED §4.3): registered, not built yet.
#include "cal/api/handlers.h"

namespace cal {

Response list_venues(RequestContext& ctx) { return not_implemented(ctx); }
Response create_venue(RequestContext& ctx) { return not_implemented(ctx); }
Response get_venue(RequestContext& ctx) { return not_implemented(ctx); }
Response update_venue(RequestContext& ctx) { return not_implemented(ctx); }
Response delete_venue(RequestContext& ctx) { return not_implemented(ctx); }

}  // namespace cal
