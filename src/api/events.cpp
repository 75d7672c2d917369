// Events (SEED §4.2): registered, not built yet.
#include "cal/api/handlers.h"

namespace cal {

Response list_events(RequestContext& ctx) { return not_implemented(ctx); }
Response create_event(RequestContext& ctx) { return not_implemented(ctx); }
Response get_event(RequestContext& ctx) { return not_implemented(ctx); }
Response update_event(RequestContext& ctx) { return not_implemented(ctx); }
Response delete_event(RequestContext& ctx) { return not_implemented(ctx); }

}  // namespace cal
