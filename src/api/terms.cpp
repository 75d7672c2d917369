// Categories and tags (SEED §4.5, §4.6): registered, not built yet.
#include "cal/api/handlers.h"

namespace cal {

Response list_categories(RequestContext& ctx) { return not_implemented(ctx); }
Response create_category(RequestContext& ctx) { return not_implemented(ctx); }
Response get_category(RequestContext& ctx) { return not_implemented(ctx); }
Response update_category(RequestContext& ctx) { return not_implemented(ctx); }
Response delete_category(RequestContext& ctx) { return not_implemented(ctx); }
Response list_tags(RequestContext& ctx) { return not_implemented(ctx); }
Response create_tag(RequestContext& ctx) { return not_implemented(ctx); }
Response get_tag(RequestContext& ctx) { return not_implemented(ctx); }
Response update_tag(RequestContext& ctx) { return not_implemented(ctx); }
Response delete_tag(RequestContext& ctx) { return not_implemented(ctx); }

}  // namespace cal
