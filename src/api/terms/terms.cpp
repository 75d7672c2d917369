// Categories and tags (SEED §4.5, §4.6): the ten route handlers, each the shared operation of
// cal/api/term_resource.h applied to its taxonomy.
#include "cal/api/pipeline/handlers.h"
#include "cal/api/terms/term_resource.h"

namespace cal {

Response list_categories(RequestContext& ctx) { return list_terms_response(ctx, kCategoryKind); }
Response create_category(RequestContext& ctx) { return create_term_response(ctx, kCategoryKind); }
Response get_category(RequestContext& ctx) { return get_term_response(ctx, kCategoryKind); }
Response update_category(RequestContext& ctx) { return update_term_response(ctx, kCategoryKind); }
Response delete_category(RequestContext& ctx) { return delete_term_response(ctx, kCategoryKind); }
Response list_tags(RequestContext& ctx) { return list_terms_response(ctx, kTagKind); }
Response create_tag(RequestContext& ctx) { return create_term_response(ctx, kTagKind); }
Response get_tag(RequestContext& ctx) { return get_term_response(ctx, kTagKind); }
Response update_tag(RequestContext& ctx) { return update_term_response(ctx, kTagKind); }
Response delete_tag(RequestContext& ctx) { return delete_term_response(ctx, kTagKind); }

}  // namespace cal
